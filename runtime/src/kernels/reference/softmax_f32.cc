// Reference softmax, numerically stable (the maximum is subtracted before exp).
#include <math.h>

#include "kernels/reference/reference_kernels.h"

namespace edgenmt {

void ref_softmax_f32(int32_t n, const float* x, float* y) {
  float max_value = x[0];
  for (int32_t i = 1; i < n; ++i) max_value = x[i] > max_value ? x[i] : max_value;
  float sum = 0.0f;
  for (int32_t i = 0; i < n; ++i) {
    y[i] = expf(x[i] - max_value);
    sum += y[i];
  }
  const float inv = 1.0f / sum;
  for (int32_t i = 0; i < n; ++i) y[i] *= inv;
}

}  // namespace edgenmt
