// Reference integer layer norm (docs/INT8.md "int8-full Transformer"): mean, variance and the
// reciprocal square root in integers (edgenmt/fixed_point_transformer.h).
#include "edgenmt/fixed_point_transformer.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {

void ref_layer_norm_s32(int32_t n, const int32_t* x, int32_t x_frac_bits, const int32_t* gain,
                        const int32_t* shift, int32_t* y) {
  int64_t sum = 0;
  int32_t lowest = x[0], highest = x[0];
  for (int32_t i = 0; i < n; ++i) {
    sum += x[i];
    lowest = x[i] < lowest ? x[i] : lowest;
    highest = x[i] > highest ? x[i] : highest;
  }
  const int64_t mean = fxp::RoundingDivide64(sum, n);
  // Centered values are pre-shifted below 2^25 so that their squares sum exactly in int64:
  // the largest |x - mean| is at the row's minimum or maximum.
  const int64_t above = highest - mean, below = mean - lowest;
  const int64_t max_abs = above > below ? above : below;
  int32_t pre = 0;
  while ((max_abs >> pre) >= fxp::kLayerNormMaxCentered) ++pre;
  int64_t squares = 0;
  for (int32_t i = 0; i < n; ++i) {
    const int64_t c = fxp::RoundingDivideByPOT64(x[i] - mean, pre);
    squares += c * c;
  }
  const int64_t variance =
      fxp::RoundingDivide64(squares, n) + fxp::LayerNormEpsRaw(x_frac_bits - pre);
  const fxp::InverseSqrt inv = fxp::InverseSqrtOfVariance(variance);
  for (int32_t i = 0; i < n; ++i) {
    const int64_t c = fxp::RoundingDivideByPOT64(x[i] - mean, pre);
    const int64_t z = fxp::RoundingDivideByPOT64(c * inv.r, 42 - inv.q);  // Q11.20
    const int64_t scaled = fxp::RoundingDivideByPOT64(z * gain[i], 20);
    y[i] = fxp::SaturateToInt32(scaled + shift[i]);
  }
}

}  // namespace edgenmt
