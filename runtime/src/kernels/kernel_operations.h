// The one list of kernel operations. KernelTable's function pointers, the operation names of
// the public listing (KernelOperationName, edgenmt/kernel_backend.h) and every backend's table
// are generated from it (kernels/kernel_table.h, kernels/kernel_table_builder.h), so adding an
// operation here adds it everywhere, absent (nullptr) in each backend until that backend names
// a kernel for it: a new operation can never run the reference under another backend's name.
//
// Each entry is X(name, return type, (parameters)); the order is the table's and the listing's
// (`edgenmt translate --profile` prints it); names are <op>_<types> (fully_connected_s8_hybrid:
// int8 weights, float activations). The contract shared by all backends is on
// KernelTable (kernels/kernel_table.h); each entry's own is the comment above it.
#ifndef EDGENMT_KERNELS_KERNEL_OPERATIONS_H_
#define EDGENMT_KERNELS_KERNEL_OPERATIONS_H_

#include <stdint.h>

#include "edgenmt/internal/arena.h"
#include "edgenmt/status.h"

// Every operation: those with a reference kernel, then the optional ones.
#define EDGENMT_KERNEL_OPERATIONS(X)     \
  EDGENMT_REFERENCE_KERNEL_OPERATIONS(X) \
  EDGENMT_PACKED_KERNEL_OPERATIONS(X)

// The operations every model needs some of; each has a portable reference kernel named
// ref_<name> (kernels/reference/reference_kernels.h, kernels/kernels_s8.h).
// (Block comments only: a line comment would swallow the continued line.)
#define EDGENMT_REFERENCE_KERNEL_OPERATIONS(X)                                                     \
  /* ---- float32 ---------------------------------------------------------------------- */        \
  /* y[r][m] = (accumulate ? y[r][m] : 0) + sum_k x[r][k] * w[m][k] + (bias ? bias[m] : 0)  */     \
  /* for r < rows, m < out_features, k < in_features. x: [rows, in_features], w:            */     \
  /* [out_features, in_features] (PyTorch nn.Linear layout, y = x W^T + b), bias:           */     \
  /* [out_features] or null, y: [rows, out_features]. rows, in_features, out_features >= 1. */     \
  X(fully_connected_f32, void,                                                                     \
    (int32_t rows, int32_t in_features, int32_t out_features, const float* x, const float* w,      \
     const float* bias, float* y, bool accumulate))                                                \
  /* y[i] = 1 / (1 + exp(-x[i])), i < n. */                                                        \
  X(sigmoid_f32, void, (int32_t n, const float* x, float* y))                                      \
  /* y[i] = tanh(x[i]), i < n. */                                                                  \
  X(tanh_f32, void, (int32_t n, const float* x, float* y))                                         \
  /* y = softmax(x) over n >= 1 values (max subtracted first; exp(-inf) = 0). */                   \
  X(softmax_f32, void, (int32_t n, const float* x, float* y))                                      \
  /* y = log_softmax(x) = x - max - log(sum exp(x - max)) over n >= 1 values. */                   \
  X(log_softmax_f32, void, (int32_t n, const float* x, float* y))                                  \
  /* out[i * out_stride + d] = table[ids[i] * dim + d] for i < count, d < dim. ids must be  */     \
  /* in [0, table rows); out_stride >= dim (lets callers write into a wider concatenation). */     \
  X(embedding_lookup_f32, void,                                                                    \
    (int32_t count, const int32_t* ids, const float* table, int32_t dim, float* out,               \
     int32_t out_stride))                                                                          \
  /* y[i] = (x[i] - mean) / sqrt(var + eps) * gain[i] + shift[i], i < n >= 1: mean and    */       \
  /* biased variance of x[0, n) (Transformer layer norm). y may alias x.                   */      \
  X(layer_norm_f32, void,                                                                          \
    (int32_t n, const float* x, const float* gain, const float* shift, float eps, float* y))       \
  /* y[i] = max(x[i], 0), i < n (the Transformer's ReLU feed-forward). y may alias x.       */     \
  X(relu_f32, void, (int32_t n, const float* x, float* y))                                         \
  /* y[i] = x[i] / 2 * (1 + erf(x[i] / sqrt(2))), i < n (GELU, the erf form). y may alias x. */    \
  X(gelu_f32, void, (int32_t n, const float* x, float* y))                                         \
  /* ---- int8 hybrid (docs/INT8.md): int8 weights, float activations ------------------- */       \
  /* y = x W^T + b with int8 W (per-row scales), x quantized per row into x_scratch         */     \
  /* ([x_scratch_rows, in_features] int8, x_scratch_rows >= kHybridScratchRows: a backend   */     \
  /* may quantize that many rows before reading the weights once for all of them); see      */     \
  /* ref_fully_connected_s8_hybrid.                                                         */     \
  X(fully_connected_s8_hybrid, void,                                                               \
    (int32_t rows, int32_t in_features, int32_t out_features, const float* x, const int8_t* w,     \
     const float* w_scales, const float* bias, float* y, bool accumulate, int8_t* x_scratch,       \
     int32_t x_scratch_rows))                                                                      \
  /* Embedding rows of an int8 table with per-row scales, dequantized to float. */                 \
  X(embedding_lookup_s8_f32, void,                                                                 \
    (int32_t count, const int32_t* ids, const int8_t* table, const float* row_scales, int32_t dim, \
     float* out, int32_t out_stride))                                                              \
  /* ---- int8-full, integer only (docs/INT8.md "int8-full"; semantics on ref_<name> in  */        \
  /* kernels/kernels_s8.h) -------------------------------------------------------------- */       \
  X(fully_connected_s8_s32, void,                                                                  \
    (int32_t rows, int32_t in_features, int32_t out_features, const int8_t* x, int32_t x_stride,   \
     const int8_t* w, int32_t w_stride, const int32_t* multiplier, const int32_t* shift,           \
     int32_t shift_offset, const int32_t* bias, int32_t* y, bool accumulate))                      \
  X(embedding_fully_connected_s8_s32, void,                                                        \
    (int32_t rows, const int32_t* ids, const int8_t* table, const int32_t* row_multiplier,         \
     const int32_t* row_shift, int32_t dim, int32_t out_features, const int8_t* w,                 \
     int32_t w_stride, const int32_t* multiplier, const int32_t* shift, const int32_t* bias,       \
     int32_t* y))                                                                                  \
  X(narrow_s32_s16, void, (int32_t n, const int32_t* x, int32_t shift, int16_t* y))                \
  X(tanh_s16, void, (int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y))             \
  X(requantize_s16_s8, void, (int32_t n, const int16_t* x, int32_t shift, int8_t* y))              \
  X(lstm_cell_s16, void,                                                                           \
    (int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell, int8_t* h,        \
     int16_t* h16))                                                                                \
  X(gru_cell_s16, void,                                                                            \
    (int32_t hidden, const int16_t* gi, const int16_t* gh, int16_t* state, int8_t* h_s8))          \
  X(softmax_s32_s16, void, (int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y))      \
  X(log_softmax_s32, void, (int32_t n, const int32_t* x, int32_t input_int_bits, int32_t* y))      \
  X(local_p_position_q16, int32_t, (int32_t logit, int32_t logit_int_bits, int32_t source_length)) \
  X(local_p_window, void,                                                                          \
    (int32_t p_q16, int32_t half_width, int32_t source_length, int32_t * lo, int32_t * hi))        \
  X(local_p_gaussian_s16, void,                                                                    \
    (int32_t lo, int32_t hi, int32_t p_q16, int32_t half_width, int16_t * weights))                \
  X(score_window_s16, void,                                                                        \
    (const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo, int32_t hi,             \
     int32_t to_q20, int32_t* scores))                                                             \
  X(context_s16_s8, void,                                                                          \
    (int32_t count, const int16_t* weights, const int16_t* memory, int32_t dim, int8_t* context))  \
  /* ---- int8-full Transformer (semantics on ref_<name> in kernels/kernels_s8.h) ------ */        \
  X(embedding_lookup_s8_s32, void,                                                                 \
    (int32_t count, const int32_t* ids, const int8_t* table, const int32_t* row_multiplier,        \
     const int32_t* row_shift, int32_t dim, int32_t scale_multiplier, int32_t scale_shift,         \
     int32_t* out, int32_t out_stride))                                                            \
  X(layer_norm_s32, void,                                                                          \
    (int32_t n, const int32_t* x, int32_t x_frac_bits, const int32_t* gain, const int32_t* shift,  \
     int32_t* y))                                                                                  \
  X(requantize_s32_s8, void, (int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y))   \
  X(gelu_s32_s8, void, (int32_t n, const int32_t* x, int32_t shift, int8_t* y))                    \
  X(residual_add_s32_s16, void, (int32_t n, const int32_t* x, int32_t shift, int16_t* residual))   \
  X(attention_scores_s8, void,                                                                     \
    (int32_t n, const int8_t* query, const int8_t* const* rows, int32_t offset, int32_t dim,       \
     int32_t multiplier, int32_t shift, int32_t* scores))                                          \
  X(attention_context_s8, void,                                                                    \
    (int32_t n, const int16_t* weights, const int8_t* const* rows, int32_t offset, int32_t dim,    \
     int8_t* out))

// Weights packed at Init: optional, no reference (it reads weights as stored). Layers use them
// only where both are present.
#define EDGENMT_PACKED_KERNEL_OPERATIONS(X)                                                    \
  /* Packs w [out_features, in_features] for packed_fully_connected_f32 into persistent     */ \
  /* arena memory and sets *packed (valid as long as the arena); in a measuring or          */ \
  /* overflowed arena it counts the same bytes and sets *packed = nullptr. Called at Init   */ \
  /* only; may use the heap there (kernels/xnnpack/). kInternal when the backend cannot     */ \
  /* pack, kUnsupported when it cannot pack into the arena.                                 */ \
  X(pack_fully_connected_f32, Status,                                                          \
    (int32_t in_features, int32_t out_features, const float* w, Arena* arena,                  \
     const void** packed))                                                                     \
  /* y = x W^T + (bias ? bias : 0) over every output of a packed W: x [rows, in_features],  */ \
  /* y [rows, out_features], not overlapping. Same tolerance as fully_connected_f32.        */ \
  X(packed_fully_connected_f32, void,                                                          \
    (const void* packed, int32_t rows, const float* x, const float* bias, float* y))

#endif  // EDGENMT_KERNELS_KERNEL_OPERATIONS_H_
