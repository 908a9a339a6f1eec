// NEON sigmoid and tanh (simd_activation.h), ARMv7-A and ARMv8-A. Tails go through a
// zero-padded stack block of 4.
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "kernels/simd/padded_tail.h"
#include "kernels/simd/simd_activation.h"

namespace edgenmt {
namespace simd {
namespace {

inline float32x4_t MultiplyAdd(float32x4_t a, float32x4_t b, float32x4_t c) {  // a + b * c
#if defined(__ARM_FEATURE_FMA)
  return vfmaq_f32(a, b, c);
#else
  return vmlaq_f32(a, b, c);
#endif
}

inline float32x4_t Divide(float32x4_t a, float32x4_t b) {
#if defined(__aarch64__)
  return vdivq_f32(a, b);
#else  // reciprocal estimate and two Newton steps (ARMv7 NEON has no divide): ~1 ulp
  float32x4_t r = vrecpeq_f32(b);
  r = vmulq_f32(r, vrecpsq_f32(b, r));
  r = vmulq_f32(r, vrecpsq_f32(b, r));
  return vmulq_f32(a, r);
#endif
}

// Round to nearest (ties away; the reduction only needs some nearby integer).
inline int32x4_t RoundToInt(float32x4_t v) {
  const float32x4_t half = vbslq_f32(vdupq_n_u32(0x80000000u), v, vdupq_n_f32(0.5f));
  return vcvtq_s32_f32(vaddq_f32(v, half));
}

// e^v for v <= 0, v clamped at -87.3 (see activation_avx2.cc).
inline float32x4_t ExpNonPositive(float32x4_t v) {
  v = vmaxq_f32(v, vdupq_n_f32(-87.3f));
  const int32x4_t ni = RoundToInt(vmulq_f32(v, vdupq_n_f32(1.44269504088896341f)));
  const float32x4_t n = vcvtq_f32_s32(ni);
  float32x4_t r = MultiplyAdd(v, n, vdupq_n_f32(-0.693359375f));
  r = MultiplyAdd(r, n, vdupq_n_f32(2.12194440e-4f));
  float32x4_t p = vdupq_n_f32(1.9875691500e-4f);
  p = MultiplyAdd(vdupq_n_f32(1.3981999507e-3f), p, r);
  p = MultiplyAdd(vdupq_n_f32(8.3334519073e-3f), p, r);
  p = MultiplyAdd(vdupq_n_f32(4.1665795894e-2f), p, r);
  p = MultiplyAdd(vdupq_n_f32(1.6666665459e-1f), p, r);
  p = MultiplyAdd(vdupq_n_f32(5.0000001201e-1f), p, r);
  p = MultiplyAdd(vaddq_f32(r, vdupq_n_f32(1.0f)), p, vmulq_f32(r, r));
  return vreinterpretq_f32_s32(vaddq_s32(vreinterpretq_s32_f32(p), vshlq_n_s32(ni, 23)));
}

inline float32x4_t KeepNan(float32x4_t x, float32x4_t result) {
  return vbslq_f32(vceqq_f32(x, x), result, x);
}

inline float32x4_t Sigmoid4(float32x4_t x) {
  const float32x4_t one = vdupq_n_f32(1.0f);
  const float32x4_t e = ExpNonPositive(vnegq_f32(vabsq_f32(x)));
  const float32x4_t s = Divide(one, vaddq_f32(one, e));
  return KeepNan(x, vbslq_f32(vcltq_f32(x, vdupq_n_f32(0.0f)), vmulq_f32(e, s), s));
}

inline float32x4_t Tanh4(float32x4_t x) {
  const float32x4_t one = vdupq_n_f32(1.0f);
  const float32x4_t e = ExpNonPositive(vmulq_f32(vabsq_f32(x), vdupq_n_f32(-2.0f)));
  const float32x4_t t = Divide(vsubq_f32(one, e), vaddq_f32(one, e));
  // Copy x's sign onto t (t >= 0).
  return KeepNan(x, vbslq_f32(vdupq_n_u32(0x80000000u), x, t));
}

template <float32x4_t (*F)(float32x4_t)>
void Apply(int32_t n, const float* x, float* y) {
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {  // 8 a step: half the loop's own instructions
    vst1q_f32(y + i, F(vld1q_f32(x + i)));
    vst1q_f32(y + i + 4, F(vld1q_f32(x + i + 4)));
  }
  if (i + 4 <= n) {
    vst1q_f32(y + i, F(vld1q_f32(x + i)));
    i += 4;
  }
  PaddedTail<4>(i, n, x, y, [](const float* in, float* out) { vst1q_f32(out, F(vld1q_f32(in))); });
}

}  // namespace

void SigmoidF32Neon(int32_t n, const float* x, float* y) { Apply<Sigmoid4>(n, x, y); }
void TanhF32Neon(int32_t n, const float* x, float* y) { Apply<Tanh4>(n, x, y); }

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
