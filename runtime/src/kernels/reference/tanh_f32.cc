// Reference hyperbolic tangent.
#include <math.h>

#include "kernels/reference/reference_kernels.h"

namespace edgenmt {

void ref_tanh_f32(int32_t n, const float* x, float* y) {
  for (int32_t i = 0; i < n; ++i) y[i] = tanhf(x[i]);
}

}  // namespace edgenmt
