// Reference attention context: c = sum_s a_s h_s with Q0.15 weights and int8 values at 2^-7
// (docs/INT8.md "Context vector").
#include "edgenmt/fixed_point.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {

void ref_weighted_sum_s16_s8(int32_t count, int32_t dim, const int16_t* weights,
                             const int8_t* values, int32_t values_stride, int8_t* out) {
  for (int32_t d = 0; d < dim; ++d) {
    int32_t acc = 0;  // scale 2^-22; |acc| <= 2^22 when sum(weights) <= 1
    for (int32_t s = 0; s < count; ++s) {
      acc += static_cast<int32_t>(weights[s]) *
             static_cast<int32_t>(values[static_cast<int64_t>(s) * values_stride + d]);
    }
    out[d] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(acc, 15));
  }
}

}  // namespace edgenmt
