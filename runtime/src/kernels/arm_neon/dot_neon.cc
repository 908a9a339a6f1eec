// NEON int8 dot products for ARMv7-A and ARMv8-A (simd_dot.h; float32: dot_f32_neon.cc), and
// the hybrid output and row quantization steps. int8: vmull_s8 products (at most 2^14 in
// magnitude) accumulated pairwise into int32 with vpadal, exact for every int8 value. Four
// weight rows share each load of x.
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "kernels/kernels_s8.h"
#include "kernels/arm_neon/dot_neon_s8.h"
#include "kernels/simd/dot_tail.h"
#include "kernels/simd/padded_tail.h"
#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {
namespace {

inline int32x4_t DotStep(int32x4_t a, int8x16_t xv, int8x16_t wv) {
  a = vpadalq_s16(a, vmull_s8(vget_low_s8(xv), vget_low_s8(wv)));
#if defined(__aarch64__)
  return vpadalq_s16(a, vmull_high_s8(xv, wv));  // smull2: no moves of the high halves
#else
  return vpadalq_s16(a, vmull_s8(vget_high_s8(xv), vget_high_s8(wv)));
#endif
}

}  // namespace

void DotS8Neon(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride, int32_t count,
               int32_t* acc) {
  DotS8NeonRows<DotStep, false>(depth, x, w, w_stride, count, acc);
}

void DotS8RowsNeon(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride, const int8_t* w,
                   int32_t w_stride, int32_t count, int32_t* acc, int32_t acc_stride) {
  // Weight rows per group: 4 for 2 activation rows, 2 for 3-4, so the accumulators and the
  // vmull temporaries stay in registers as GCC schedules them (4 x 4 spills even with
  // aarch64's 32 q registers). ARMv7's 16 spill one accumulator in the 2 x 4 and 4 x 2 loops:
  // 4 instructions per 16 bytes, still fewer than 2 x 2 or reading the weights once per row.
  DotS8NeonMultiRows<DotStep, false, 4, 2>(rows, depth, x, x_stride, w, w_stride, count, acc,
                                           acc_stride);
}

#if defined(__aarch64__)
// StoreHybridOutput on 4 lanes: int32 -> float (round to nearest, as the scalar cast), the
// scale product, the bias, the accumulation: the same operations in the same order (no FMA).
void HybridOutputBlockNeon(int32_t n, const int32_t* dots, float x_scale, const float* w_scales,
                           const float* bias, bool accumulate, float* y) {
  const float32x4_t xs = vdupq_n_f32(x_scale);
  const auto output4 = [&](int32_t i) {
    float32x4_t v =
        vmulq_f32(vcvtq_f32_s32(vld1q_s32(dots + i)), vmulq_f32(xs, vld1q_f32(w_scales + i)));
    if (bias != nullptr) v = vaddq_f32(v, vld1q_f32(bias + i));
    if (accumulate) v = vaddq_f32(vld1q_f32(y + i), v);
    vst1q_f32(y + i, v);
  };
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {  // 8 a step: paired loads and stores, half the loop overhead
    output4(i);
    output4(i + 4);
  }
  if (i + 4 <= n) {
    output4(i);
    i += 4;
  }
  for (; i < n; ++i) {
    float v = static_cast<float>(dots[i]) * (x_scale * w_scales[i]);
    if (bias != nullptr) v += bias[i];
    y[i] = accumulate ? y[i] + v : v;
  }
}
#endif

float QuantizeRowNeon(int32_t n, const float* x, int8_t* q) {
  // max |x|. vmaxq propagates a NaN (the reference ignores it): such a row ends with a NaN
  // maximum and goes to the reference below, as infinite and all-zero rows do.
  float32x4_t vmax = vdupq_n_f32(0.0f);
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) vmax = vmaxq_f32(vmax, vabsq_f32(vld1q_f32(x + i)));
  float lanes[4];
  vst1q_f32(lanes, vmax);
  float max_abs = 0.0f;
  for (float lane : lanes) max_abs = (lane > max_abs || lane != lane) ? lane : max_abs;
  for (; i < n; ++i) {
    const float a = x[i] >= 0.0f ? x[i] : -x[i];
    max_abs = (a > max_abs || a != a) ? a : max_abs;
  }
  if (!(max_abs >= kQuantizeRowVectorMin && max_abs <= 3.40282347e38f)) {
    return ref_quantize_row_f32_s8(n, x, q);
  }
  const float32x4_t inverse_scale = vdupq_n_f32(127.0f / max_abs);
  const uint32x4_t sign_mask = vdupq_n_u32(0x80000000u);
  // Every value here is finite (the row's maximum is), so the products are too.
  const auto quantize4 = [&](const float* in) {
    const float32x4_t v = vmulq_f32(vld1q_f32(in), inverse_scale);
    const float32x4_t clamped = vminq_f32(vmaxq_f32(v, vdupq_n_f32(-127.0f)), vdupq_n_f32(127.0f));
    // Ties away from zero: v + copysign(0.5, v), then truncation (the reference's expression).
    const float32x4_t rounded =
        vaddq_f32(clamped, vbslq_f32(sign_mask, clamped, vdupq_n_f32(0.5f)));
    return vcvtq_s32_f32(rounded);
  };
  const auto quantize8 = [&](const float* in, int8_t* out) {
    const int16x8_t shorts = vcombine_s16(vmovn_s32(quantize4(in)), vmovn_s32(quantize4(in + 4)));
    vst1_s8(out, vmovn_s16(shorts));
  };
  for (i = 0; i + 8 <= n; i += 8) quantize8(x + i, q + i);
  PaddedTail<8>(i, n, x, q, quantize8);
  return max_abs / 127.0f;
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
