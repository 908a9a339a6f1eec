// One element of the int8-full Transformer's elementwise kernels, defined once: the reference
// kernels (kernels/reference/requantize_s32.cc, attention_s8.cc) are loops over these, and the
// SIMD versions (kernels/simd/transformer_s8_*.cc) use them for their tails, so vector lanes and
// tails agree with the reference by construction.
#ifndef EDGENMT_KERNELS_TRANSFORMER_S8_ELEMENTS_H_
#define EDGENMT_KERNELS_TRANSFORMER_S8_ELEMENTS_H_

#include <stdint.h>

#include "edgenmt/fixed_point.h"

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

}  // namespace transformer_s8
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_TRANSFORMER_S8_ELEMENTS_H_
