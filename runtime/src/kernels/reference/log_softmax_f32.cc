// Reference log-softmax, numerically stable: x - max - log(sum exp(x - max)).
#include <math.h>

#include "kernels/reference/reference_kernels.h"

namespace edgenmt {

void ref_log_softmax_f32(int32_t n, const float* x, float* y) {
  float max_value = x[0];
  for (int32_t i = 1; i < n; ++i) max_value = x[i] > max_value ? x[i] : max_value;
  float sum = 0.0f;
  for (int32_t i = 0; i < n; ++i) sum += expf(x[i] - max_value);
  const float log_sum = logf(sum);
  for (int32_t i = 0; i < n; ++i) y[i] = x[i] - max_value - log_sum;
}

}  // namespace edgenmt
