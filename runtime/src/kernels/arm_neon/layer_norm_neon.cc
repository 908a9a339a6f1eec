// NEON layer norm and ReLU (simd_layer_norm.h), ARMv7-A and ARMv8-A: 4 lanes, scalar tails.
#if defined(__ARM_NEON)
#include <arm_neon.h>
#include <math.h>

#include "kernels/simd/simd_layer_norm.h"

namespace edgenmt {
namespace simd {
namespace {

inline float Sum4(float32x4_t v) {
  const float32x2_t s = vadd_f32(vget_low_f32(v), vget_high_f32(v));
  return vget_lane_f32(vpadd_f32(s, s), 0);
}

}  // namespace

void LayerNormF32Neon(int32_t n, const float* x, const float* gain, const float* shift, float eps,
                      float* y) {
  float32x4_t acc = vdupq_n_f32(0.0f);
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) acc = vaddq_f32(acc, vld1q_f32(x + i));
  float sum = Sum4(acc);
  for (; i < n; ++i) sum += x[i];
  const float mean = sum / static_cast<float>(n);
  const float32x4_t m = vdupq_n_f32(mean);
  acc = vdupq_n_f32(0.0f);
  for (i = 0; i + 4 <= n; i += 4) {
    const float32x4_t d = vsubq_f32(vld1q_f32(x + i), m);
    acc = vaddq_f32(acc, vmulq_f32(d, d));  // no fused multiply-add: the reference rounds twice
  }
  float squares = Sum4(acc);
  for (; i < n; ++i) squares += (x[i] - mean) * (x[i] - mean);
  const float inv = 1.0f / sqrtf(squares / static_cast<float>(n) + eps);
  const float32x4_t s = vdupq_n_f32(inv);
  for (i = 0; i + 4 <= n; i += 4) {
    const float32x4_t d = vmulq_f32(vsubq_f32(vld1q_f32(x + i), m), s);
    vst1q_f32(y + i, vaddq_f32(vmulq_f32(d, vld1q_f32(gain + i)), vld1q_f32(shift + i)));
  }
  for (; i < n; ++i) y[i] = (x[i] - mean) * inv * gain[i] + shift[i];
}

void ReluF32Neon(int32_t n, const float* x, float* y) {
  const float32x4_t zero = vdupq_n_f32(0.0f);
  int32_t i = 0;
  // A select on x > 0, not vmaxq (which propagates NaN): NaN and -0 give +0, as the reference.
  for (; i + 4 <= n; i += 4) {
    const float32x4_t v = vld1q_f32(x + i);
    vst1q_f32(y + i, vbslq_f32(vcgtq_f32(v, zero), v, zero));
  }
  for (; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
