// One element of the int8-full Transformer's elementwise kernels, defined once: the reference
// kernels (kernels/reference/requantize_s32.cc, attention_s8.cc, layer_norm_s32.cc,
// embedding_lookup_s8.cc) are loops over these, and the
// SIMD versions (kernels/simd/transformer_s8_*.cc) use them for their tails, so vector lanes and
// tails agree with the reference by construction.
#ifndef EDGENMT_KERNELS_TRANSFORMER_S8_ELEMENTS_H_
#define EDGENMT_KERNELS_TRANSFORMER_S8_ELEMENTS_H_

#include <stdint.h>

#include "edgenmt/internal/fixed_point.h"
#include "edgenmt/internal/fixed_point_transformer.h"

namespace edgenmt {
namespace transformer_s8 {

// sat8(round(v / 2^shift)), v = relu ? max(x, 0) : x.
inline int8_t Requantize(int32_t x, int32_t shift, bool relu) {
  const int32_t v = relu && x < 0 ? 0 : x;
  return fxp::SaturateToInt8(fxp::RoundingDivideByPOT(v, shift));
}

// sat16(residual + round(x / 2^shift)), the sum exact in int64.
inline int16_t ResidualAdd(int16_t residual, int32_t x, int32_t shift) {
  const int64_t sum = static_cast<int64_t>(residual) + fxp::RoundingDivideByPOT(x, shift);
  return fxp::SaturateToInt16(fxp::SaturateToInt32(sum));
}

// Column i of one head's context: sat8(round(sum_j weights[j] * rows[j][column] / 2^15)).
inline int8_t ContextColumn(int32_t n, const int16_t* weights, const int8_t* const* rows,
                            int32_t column) {
  int32_t sum = 0;
  for (int32_t j = 0; j < n; ++j) sum += static_cast<int32_t>(weights[j]) * rows[j][column];
  return fxp::SaturateToInt8(fxp::RoundingDivideByPOT(sum, 15));
}

// ---- layer norm of one row (ref_layer_norm_s32), in the steps every version shares -------

// The row's sum, minimum and maximum: over elements (the reference, the vector tails) and
// merged with the lanes of a vector pass.
struct LayerNormStats {
  int64_t sum;
  int32_t lowest;
  int32_t highest;
  void Add(int32_t v) {
    sum += v;
    lowest = v < lowest ? v : lowest;
    highest = v > highest ? v : highest;
  }
  // Merges a vector pass's per-lane minima and maxima.
  void AddLanes(const int32_t* lows, const int32_t* highs, int lanes) {
    for (int k = 0; k < lanes; ++k) {
      lowest = lows[k] < lowest ? lows[k] : lowest;
      highest = highs[k] > highest ? highs[k] : highest;
    }
  }
  // Whether every x - mean fits int32 (what the vector passes hold); always true of the
  // calibrated residual stream, whose rows are far narrower.
  bool CentersFitInt32() const { return static_cast<int64_t>(highest) - lowest <= fxp::kInt32Max; }
};
inline LayerNormStats AddLayerNormStats(LayerNormStats stats, const int32_t* x, int32_t begin,
                                        int32_t end) {
  for (int32_t i = begin; i < end; ++i) stats.Add(x[i]);
  return stats;
}

// The mean, and the pre-shift that brings every |x - mean| below kLayerNormMaxCentered (the
// largest is at the row's minimum or maximum), so the squares sum exactly in int64.
struct LayerNormCentering {
  int64_t mean;
  int32_t pre;
};
inline LayerNormCentering CenterLayerNorm(const LayerNormStats& stats, int32_t n) {
  const int64_t mean = fxp::RoundingDivide64(stats.sum, n);
  const int64_t above = stats.highest - mean, below = mean - stats.lowest;
  const int64_t max_abs = above > below ? above : below;
  int32_t pre = 0;
  while ((max_abs >> pre) >= fxp::kLayerNormMaxCentered) ++pre;
  return LayerNormCentering{mean, pre};
}

// The centered value c = round((x - mean) / 2^pre), |c| < 2^25.
inline int64_t LayerNormCentered(int32_t x, const LayerNormCentering& centering) {
  return fxp::RoundingDivideByPOT64(x - centering.mean, centering.pre);
}

// squares + the sum of c^2 over x[begin, end), exact in int64.
inline int64_t AddLayerNormSquares(int64_t squares, const int32_t* x, int32_t begin, int32_t end,
                                   const LayerNormCentering& centering) {
  for (int32_t i = begin; i < end; ++i) {
    const int64_t c = LayerNormCentered(x[i], centering);
    squares += c * c;
  }
  return squares;
}

// 1 / sqrt(variance + eps) from the exact sum of the squared centered values.
inline fxp::InverseSqrt LayerNormInverseSqrt(int64_t squares, int32_t n, int32_t x_frac_bits,
                                             int32_t pre) {
  return fxp::InverseSqrtOfVariance(fxp::RoundingDivide64(squares, n) +
                                    fxp::LayerNormEpsRaw(x_frac_bits - pre));
}

// One output: sat32(round(round(c / sqrt(var) in Q11.20) * gain / 2^20) + shift).
inline int32_t LayerNormOutput(int64_t c, fxp::InverseSqrt inv, int32_t gain, int32_t shift) {
  const int64_t z = fxp::RoundingDivideByPOT64(c * inv.r, 42 - inv.q);  // Q11.20
  const int64_t scaled = fxp::RoundingDivideByPOT64(z * gain, 20);
  return fxp::SaturateToInt32(scaled + shift);
}
inline void LayerNormOutputs(const int32_t* x, int32_t begin, int32_t end,
                             const LayerNormCentering& centering, fxp::InverseSqrt inv,
                             const int32_t* gain, const int32_t* shift, int32_t* y) {
  for (int32_t i = begin; i < end; ++i) {
    y[i] = LayerNormOutput(LayerNormCentered(x[i], centering), inv, gain[i], shift[i]);
  }
}

// sat8(round(GELU(x) / 2^shift)), x and GELU(x) in Q11.20 (ref_gelu_s32_s8).
inline int8_t Gelu(int32_t x, int32_t shift) {
  return fxp::SaturateToInt8(fxp::RoundingDivideByPOT(fxp::GeluQ20(x), shift));
}

// One embedding value into Q11.20: the row's scale, then the model's sqrt(d_model) factor
// (ref_embedding_lookup_s8_s32).
inline int32_t EmbeddingValue(int8_t v, int32_t row_multiplier, int32_t row_shift,
                              int32_t scale_multiplier, int32_t scale_shift) {
  const int32_t scaled = fxp::MultiplyByQuantizedMultiplier(v, row_multiplier, row_shift);
  return fxp::MultiplyByQuantizedMultiplier(scaled, scale_multiplier, scale_shift);
}

// The embedding lookup's loop over rows (ref_embedding_lookup_s8_s32), shared by the reference
// and the vector versions: columns(row, dst, row_multiplier, row_shift) writes a prefix of one
// row's values and returns its length (a vector version's whole blocks; 0 in the reference);
// the rest are EmbeddingValue.
template <typename Columns>
inline void EmbeddingLookupRows(int32_t count, const int32_t* ids, const int8_t* table,
                                const int32_t* row_multiplier, const int32_t* row_shift,
                                int32_t dim, int32_t scale_multiplier, int32_t scale_shift,
                                int32_t* out, int32_t out_stride, Columns columns) {
  for (int32_t r = 0; r < count; ++r) {
    const int32_t id = ids[r];
    const int8_t* row = table + static_cast<int64_t>(id) * dim;
    int32_t* dst = out + static_cast<int64_t>(r) * out_stride;
    for (int32_t d = columns(row, dst, row_multiplier[id], row_shift[id]); d < dim; ++d) {
      dst[d] =
          EmbeddingValue(row[d], row_multiplier[id], row_shift[id], scale_multiplier, scale_shift);
    }
  }
}

}  // namespace transformer_s8
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_TRANSFORMER_S8_ELEMENTS_H_
