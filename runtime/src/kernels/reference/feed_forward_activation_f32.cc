// Reference activations of the Transformer's feed-forward block: ReLU and GELU (erf form, as
// PyTorch's nn.GELU() default).
#include <math.h>

#include "kernels/reference/reference_kernels.h"

namespace edgenmt {

void ref_relu_f32(int32_t n, const float* x, float* y) {
  for (int32_t i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

void ref_gelu_f32(int32_t n, const float* x, float* y) {
  const float kInvSqrt2 = 0.70710678118654752f;
  for (int32_t i = 0; i < n; ++i) y[i] = 0.5f * x[i] * (1.0f + erff(x[i] * kInvSqrt2));
}

}  // namespace edgenmt
