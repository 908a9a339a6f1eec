// Reference layer normalization (the Transformer's LayerNorm over one row).
#include <math.h>

#include "kernels/reference/reference_kernels.h"

namespace edgenmt {

// Two passes (mean, then the variance of the centred values): no cancellation between E[x^2]
// and E[x]^2, which a single pass would suffer on rows with a large mean.
void ref_layer_norm_f32(int32_t n, const float* x, const float* gain, const float* shift, float eps,
                        float* y) {
  float sum = 0.0f;
  for (int32_t i = 0; i < n; ++i) sum += x[i];
  const float mean = sum / static_cast<float>(n);
  float squares = 0.0f;
  for (int32_t i = 0; i < n; ++i) {
    const float d = x[i] - mean;
    squares += d * d;
  }
  const float inv = 1.0f / sqrtf(squares / static_cast<float>(n) + eps);
  for (int32_t i = 0; i < n; ++i) y[i] = (x[i] - mean) * inv * gain[i] + shift[i];
}

}  // namespace edgenmt
