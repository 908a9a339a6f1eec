// Reference fixed-point tanh, int16 in Qm.(15-m) -> Q0.15 (docs/INT8.md).
#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {

void ref_tanh_s16(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y) {
  for (int32_t i = 0; i < n; ++i) y[i] = fxp::TanhS16(x[i], input_int_bits);
}

}  // namespace edgenmt
