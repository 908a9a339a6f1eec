// Reference logistic sigmoid.
#include <math.h>

#include "kernels/reference/reference_kernels.h"

namespace edgenmt {

void ref_sigmoid_f32(int32_t n, const float* x, float* y) {
  for (int32_t i = 0; i < n; ++i) {
    // Written so exp never overflows: for x < 0 use e^x / (1 + e^x).
    const float v = x[i];
    if (v >= 0.0f) {
      y[i] = 1.0f / (1.0f + expf(-v));
    } else {
      const float e = expf(v);
      y[i] = e / (1.0f + e);
    }
  }
}

}  // namespace edgenmt
