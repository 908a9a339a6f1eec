// The int8 kernels of both quantized schemes (docs/INT8.md): the portable reference versions,
// one op per file in kernels/reference/, named ref_<op>_<types>. Optimized backends implement
// the same signatures and are tested against these (bit-exact for integer outputs).
//
// Conventions (in addition to kernels/kernel_table.h):
// - Weight matrices are [out_features, in_features] row-major (PyTorch nn.Linear layout), int8,
//   symmetric, one scale per output row.
// - Integer rounding is fxp::RoundingDivideByPOT / MultiplyByQuantizedMultiplier
//   (edgenmt/internal/fixed_point.h): round to nearest, ties away from zero.
// - Requantization parameters are (multiplier in [2^30, 2^31), shift in [-31, 30]) pairs
//   computed by the converter with fxp::QuantizeMultiplier, one per output row.
// - Kernels never allocate and never fail; callers check shapes at Prepare time.
#ifndef EDGENMT_KERNELS_KERNELS_S8_H_
#define EDGENMT_KERNELS_KERNELS_S8_H_

#include <stdint.h>

#include "kernels/transformer_kernel_linkage.h"

namespace edgenmt {

// ---- quantize / dequantize ---------------------------------------------------------------------

// Symmetric dynamic quantization of one row: scale = max|x| / 127, q[i] = round(x[i] / scale)
// (ties away from zero), in [-127, 127]. Returns the scale; 0 when every x[i] is 0 (then q = 0).
float ref_quantize_row_f32_s8(int32_t n, const float* x, int8_t* q);
// y[i] = saturate_int8(round(x[i] / 2^shift)), shift in [0, 31]: narrows a Q0.15 activation
// to int8 with scale 2^-7 (shift 8), or any power-of-two rescale.
void ref_requantize_s16_s8(int32_t n, const int16_t* x, int32_t shift, int8_t* y);

// ---- embeddings --------------------------------------------------------------------------------

// Hybrid: out[i * out_stride + d] = row_scales[ids[i]] * table[ids[i] * dim + d] (float).
void ref_embedding_lookup_s8_f32(int32_t count, const int32_t* ids, const int8_t* table,
                                 const float* row_scales, int32_t dim, float* out,
                                 int32_t out_stride);

// ---- fully connected ---------------------------------------------------------------------------

// Hybrid (int8 weights, float activations): each row of x is quantized with
// ref_quantize_row_f32_s8 into `x_scratch` ([in_features] int8), the dot products accumulate in
// int32 and y[r][m] = (accumulate ? y[r][m] : 0) + acc * x_scale[r] * w_scales[m] + bias[m].
// w_scales: [out_features]; bias: [out_features] float or null. y must not overlap x.
void ref_fully_connected_s8_hybrid(int32_t rows, int32_t in_features, int32_t out_features,
                                   const float* x, const int8_t* w, const float* w_scales,
                                   const float* bias, float* y, bool accumulate, int8_t* x_scratch,
                                   int32_t x_scratch_rows);

// Column block of a wider matrix into an int32 accumulation (the int8-full layers use it for
// inputs made of parts with different scales, e.g. [embedding; h~]): for r < rows, m < out,
// v = MBQM(sum_k x[r * x_stride + k] * w[m * w_stride + k], multiplier[m], shift[m] +
// shift_offset) (+ bias[m] when bias is non-null, added after requantization, saturating);
// y[r * out + m] = accumulate ? sat(y + v) : v. shift_offset folds a power-of-two input scale
// chosen at run time into the precomputed per-row shifts (result shifts stay in [-31, 30]).
void ref_fully_connected_s8_s32(int32_t rows, int32_t in_features, int32_t out_features,
                                const int8_t* x, int32_t x_stride, const int8_t* w,
                                int32_t w_stride, const int32_t* multiplier, const int32_t* shift,
                                int32_t shift_offset, const int32_t* bias, int32_t* y,
                                bool accumulate);

// Embedding rows times a column block of W into Q11.20 (int8-full: embedding inputs keep their
// own per-row scales): for r < rows, id = ids[r], m < out_features,
// scaled = MBQM_single_rounding(table[id] . w[m][0, dim), row_multiplier[id], row_shift[id] + 6),
// y[r][m] = MBQM(scaled, multiplier[m], max(shift[m] - 6, -31)) (+ bias[m], saturating).
// ids must be valid rows of table ([*, dim]); w rows are w_stride apart.
void ref_embedding_fully_connected_s8_s32(int32_t rows, const int32_t* ids, const int8_t* table,
                                          const int32_t* row_multiplier, const int32_t* row_shift,
                                          int32_t dim, int32_t out_features, const int8_t* w,
                                          int32_t w_stride, const int32_t* multiplier,
                                          const int32_t* shift, const int32_t* bias, int32_t* y);

// ---- activations -------------------------------------------------------------------------------

// y = tanh(x), x in Q(input_int_bits).(15 - input_int_bits) (Q3.12: 3), y in Q0.15. In place
// allowed. (The cells' sigmoid is fxp::LogisticS16 inline.)
void ref_tanh_s16(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y);
// y = saturate_int16(round(x / 2^shift)) for x in int32: narrows a summed int32 pre-activation.
void ref_narrow_s32_s16(int32_t n, const int32_t* x, int32_t shift, int16_t* y);

// ---- softmax -----------------------------------------------------------------------------------

// y = softmax(x) in Q0.15, x in Q(input_int_bits).(31 - input_int_bits), n >= 1. Differences
// x - max are formed with one extra integer bit (never saturate); exp below -32 is 0.
// Error <= 1 LSB of Q0.15 against the real softmax of the fixed-point inputs.
void ref_softmax_s32_s16(int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y);
// y = log_softmax(x) in Q15.16 (the beam-score format), x in Q(input_int_bits).(31 - ...).
void ref_log_softmax_s32(int32_t n, const int32_t* x, int32_t input_int_bits, int32_t* y);

// ---- recurrent cells ---------------------------------------------------------------------------

// LSTM cell (PyTorch gate order i, f, g, o). gates: [4 * hidden] pre-activations in Q3.12.
// cell: [hidden] in Q(cell_int_bits).(15 - cell_int_bits), read and updated in place.
// h: [hidden] output, int8 with scale 2^-7 (h = o * tanh(c') lies in (-1, 1); values above
// 127/128 clip to 127, an error of at most 1 LSB). h16: null, or [hidden] the same h in Q0.15
// (the encoder keeps its states at 16 bits for the attention scores and context).
void ref_lstm_cell_s16(int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell,
                       int8_t* h, int16_t* h16);
// GRU cell (gate order r, z, n). gi = W_i x + b_i and gh = W_h h + b_h, each [3 * hidden] in
// Q3.12. state: [hidden] h in Q0.15, read and updated in place (kept at 16 bits because it is
// the cell's memory). h_s8: [hidden] the new h as int8 with scale 2^-7 for the next matmuls.
void ref_gru_cell_s16(int32_t hidden, const int16_t* gi, const int16_t* gh, int16_t* state,
                      int8_t* h_s8);

// ---- attention ---------------------------------------------------------------------------------

// scores[s] = ScaleScoreQ20(q . memory[s]) (kernels/score_scale.h) for s in [lo, hi]: query [dim]
// and memory [*, dim] in int16 (the general score's narrowed W_a q, or q itself, against the Q0.15
// states), the dot product exact in int64, scaled into Q11.20 by 2^to_q20.
void ref_score_window_s16(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo,
                          int32_t hi, int32_t to_q20, int32_t* scores);
// The attention context: context[j] = saturate8(round(sum_{s < count} weights[s] *
// memory[s * dim + j] / 2^23)), Q0.15 weights over Q0.15 states -> int8 @ 2^-7, the sum exact
// in int64. count <= 32767.
void ref_context_s16_s8(int32_t count, const int16_t* weights, const int16_t* memory, int32_t dim,
                        int8_t* context);
// local-p position p_t = S * sigmoid(logit) in Q15.16, logit in Q(logit_int_bits).(31 - ...)
// (the int8-full accumulation format Q11.20: 11). source_length in [1, 32767].
int32_t ref_local_p_position_q16(int32_t logit, int32_t logit_int_bits, int32_t source_length);
// Window [lo, hi] = [max(0, ceil(p - D)), min(S - 1, floor(p + D))] for p in Q15.16.
void ref_local_p_window(int32_t p_q16, int32_t half_width, int32_t source_length, int32_t* lo,
                        int32_t* hi);
// weights[s - lo] *= exp(-(s - p)^2 / (2 (D/2)^2)) for s in [lo, hi]; weights in Q0.15.
void ref_local_p_gaussian_s16(int32_t lo, int32_t hi, int32_t p_q16, int32_t half_width,
                              int16_t* weights);

// ---- int8-full Transformer (docs/INT8.md "int8-full Transformer") -------------------------------

// Embedding rows into Q11.20: out[i * out_stride + d] = MBQM(MBQM(table[ids[i]][d],
// row_multiplier[id], row_shift[id]), scale_multiplier, scale_shift) (the row's scale into
// Q11.20, then the embedding scale sqrt(d_model)). ids must be valid rows of table [*, dim].
EDGENMT_TRANSFORMER_KERNEL
void ref_embedding_lookup_s8_s32(int32_t count, const int32_t* ids, const int8_t* table,
                                 const int32_t* row_multiplier, const int32_t* row_shift,
                                 int32_t dim, int32_t scale_multiplier, int32_t scale_shift,
                                 int32_t* out, int32_t out_stride);
// Integer layer norm of x [n] (1 <= n <= fxp::kLayerNormMaxLength) with x_frac_bits
// fractional bits: mean rounded, x - mean pre-shifted right (rounding) until below 2^25,
// variance = round(sum c^2 / n) + eps (fxp::LayerNormEpsRaw at the shifted fraction),
// z = c / sqrt(variance) in Q11.20 through fxp::InverseSqrtOfVariance, y[i] = sat32(round(z *
// gain[i] / 2^20) + shift[i]). gain, shift and y in Q11.20. y may alias x.
EDGENMT_TRANSFORMER_KERNEL
void ref_layer_norm_s32(int32_t n, const int32_t* x, int32_t x_frac_bits, const int32_t* gain,
                        const int32_t* shift, int32_t* y);
// y[i] = sat8(round(v / 2^shift)), v = relu ? max(x[i], 0) : x[i], shift in [0, 31]: a Q11.20
// value to int8 with scale 2^(shift - 20).
EDGENMT_TRANSFORMER_KERNEL
void ref_requantize_s32_s8(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y);
// y[i] = sat8(round(fxp::GeluQ20(x[i]) / 2^shift)), x in Q11.20, shift in [0, 31].
EDGENMT_TRANSFORMER_KERNEL
void ref_gelu_s32_s8(int32_t n, const int32_t* x, int32_t shift, int8_t* y);
// residual[i] = sat16(residual[i] + round(x[i] / 2^shift)), shift in [0, 31]: a sublayer's
// Q11.20 output added into the int16 residual stream.
EDGENMT_TRANSFORMER_KERNEL
void ref_residual_add_s32_s16(int32_t n, const int32_t* x, int32_t shift, int16_t* residual);
// One head's scores: scores[j] = MBQM(sum_{i < dim} query[i] * rows[j][offset + i],
// multiplier, shift) for j < n (the dot product exact in int32: dim <= 131071).
EDGENMT_TRANSFORMER_KERNEL
void ref_attention_scores_s8(int32_t n, const int8_t* query, const int8_t* const* rows,
                             int32_t offset, int32_t dim, int32_t multiplier, int32_t shift,
                             int32_t* scores);
// One head's context: out[i] = sat8(round(sum_{j < n} weights[j] * rows[j][offset + i] /
// 2^15)) for i < dim: Q0.15 weights over int8 rows, the result at the rows' scale. The sum is
// exact in int32 when sum |weights| <= 2^23 (a softmax's sum to ~2^15).
EDGENMT_TRANSFORMER_KERNEL
void ref_attention_context_s8(int32_t n, const int16_t* weights, const int8_t* const* rows,
                              int32_t offset, int32_t dim, int8_t* out);

}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_KERNELS_S8_H_
