// NEON dot products for ARMv7-A and ARMv8-A (simd_dot.h). int8: vmull_s8 products (at most
// 2^14 in magnitude) accumulated pairwise into int32 with vpadal, exact for every int8 value.
// Four weight rows share each load of x.
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "kernels/kernels_s8.h"
#include "kernels/simd/dot_neon_s8.h"
#include "kernels/simd/dot_tail.h"
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

inline float SumLanes(float32x4_t a) {
#if defined(__aarch64__)
  return vaddvq_f32(a);
#else
  const float32x2_t s = vadd_f32(vget_low_f32(a), vget_high_f32(a));
  return vget_lane_f32(vpadd_f32(s, s), 0);
#endif
}

inline float32x4_t MultiplyAdd(float32x4_t a, float32x4_t x, float32x4_t w) {
#if defined(__ARM_FEATURE_FMA)
  return vfmaq_f32(a, x, w);
#else
  return vmlaq_f32(a, x, w);
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
  DotS8NeonMultiRows<DotStep, false, 4, 2>(rows, depth, x, x_stride, w, w_stride, count, acc, acc_stride);
}

void DotF32Neon(int32_t depth, const float* x, const float* w, int32_t w_stride, int32_t count,
                float* acc) {
  const int32_t vector_depth = depth & ~3;
  int32_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const float* w0 = w + static_cast<int64_t>(j) * w_stride;
    const float* w1 = w0 + w_stride;
    const float* w2 = w1 + w_stride;
    const float* w3 = w2 + w_stride;
    float32x4_t a0 = vdupq_n_f32(0.0f), a1 = a0, a2 = a0, a3 = a0;
    int32_t k = 0;
#if defined(__aarch64__)
    // 16 columns per step, one LD1 of four registers per row (as dot_neon_s8.h), each row's
    // sum in two accumulators. The additions' order differs from the reference's, within the
    // float tolerance (tests/kernels_simd_test.cc).
    // Pointers that step (GCC then uses LD1's post-increment; four-register LD1 has no
    // register-offset form, so base + k would cost an add per row).
    float32x4_t b0 = a0, b1 = a0, b2 = a0, b3 = a0;
    const float *px = x, *p0 = w0, *p1 = w1, *p2 = w2, *p3 = w3;
    for (; k + 16 <= vector_depth; k += 16, px += 16, p0 += 16, p1 += 16, p2 += 16, p3 += 16) {
      const float32x4x4_t xv = vld1q_f32_x4(px);
      const float32x4x4_t v0 = vld1q_f32_x4(p0);
      a0 = MultiplyAdd(a0, xv.val[0], v0.val[0]);
      b0 = MultiplyAdd(b0, xv.val[1], v0.val[1]);
      a0 = MultiplyAdd(a0, xv.val[2], v0.val[2]);
      b0 = MultiplyAdd(b0, xv.val[3], v0.val[3]);
      const float32x4x4_t v1 = vld1q_f32_x4(p1);
      a1 = MultiplyAdd(a1, xv.val[0], v1.val[0]);
      b1 = MultiplyAdd(b1, xv.val[1], v1.val[1]);
      a1 = MultiplyAdd(a1, xv.val[2], v1.val[2]);
      b1 = MultiplyAdd(b1, xv.val[3], v1.val[3]);
      const float32x4x4_t v2 = vld1q_f32_x4(p2);
      a2 = MultiplyAdd(a2, xv.val[0], v2.val[0]);
      b2 = MultiplyAdd(b2, xv.val[1], v2.val[1]);
      a2 = MultiplyAdd(a2, xv.val[2], v2.val[2]);
      b2 = MultiplyAdd(b2, xv.val[3], v2.val[3]);
      const float32x4x4_t v3 = vld1q_f32_x4(p3);
      a3 = MultiplyAdd(a3, xv.val[0], v3.val[0]);
      b3 = MultiplyAdd(b3, xv.val[1], v3.val[1]);
      a3 = MultiplyAdd(a3, xv.val[2], v3.val[2]);
      b3 = MultiplyAdd(b3, xv.val[3], v3.val[3]);
    }
    a0 = vaddq_f32(a0, b0);
    a1 = vaddq_f32(a1, b1);
    a2 = vaddq_f32(a2, b2);
    a3 = vaddq_f32(a3, b3);
#endif
    for (; k < vector_depth; k += 4) {
      const float32x4_t xv = vld1q_f32(x + k);
      a0 = MultiplyAdd(a0, xv, vld1q_f32(w0 + k));
      a1 = MultiplyAdd(a1, xv, vld1q_f32(w1 + k));
      a2 = MultiplyAdd(a2, xv, vld1q_f32(w2 + k));
      a3 = MultiplyAdd(a3, xv, vld1q_f32(w3 + k));
    }
    float sums[4] = {SumLanes(a0), SumLanes(a1), SumLanes(a2), SumLanes(a3)};
    AddTail4(vector_depth, depth, x, w0, w_stride, sums);
    for (int32_t i = 0; i < 4; ++i) acc[j + i] = sums[i];
  }
  for (; j < count; ++j) {
    const float* w0 = w + static_cast<int64_t>(j) * w_stride;
    float32x4_t a0 = vdupq_n_f32(0.0f);
    int32_t k = 0;
#if defined(__aarch64__)
    for (; k + 16 <= vector_depth; k += 16) {
      const float32x4x4_t xv = vld1q_f32_x4(x + k);
      const float32x4x4_t v0 = vld1q_f32_x4(w0 + k);
      a0 = MultiplyAdd(MultiplyAdd(MultiplyAdd(MultiplyAdd(a0, xv.val[0], v0.val[0]), xv.val[1], v0.val[1]),
                                   xv.val[2], v0.val[2]),
                       xv.val[3], v0.val[3]);
    }
#endif
    for (; k < vector_depth; k += 4) a0 = MultiplyAdd(a0, vld1q_f32(x + k), vld1q_f32(w0 + k));
    acc[j] = AddTail1(vector_depth, depth, x, w0, SumLanes(a0));
  }
}

#if defined(__aarch64__)
// StoreHybridOutput on 4 lanes: int32 -> float (round to nearest, as the scalar cast), the
// scale product, the bias, the accumulation: the same operations in the same order (no FMA).
void HybridOutputBlockNeon(int32_t n, const int32_t* dots, float x_scale, const float* w_scales,
                           const float* bias, bool accumulate, float* y) {
  const float32x4_t xs = vdupq_n_f32(x_scale);
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    float32x4_t v = vmulq_f32(vcvtq_f32_s32(vld1q_s32(dots + i)), vmulq_f32(xs, vld1q_f32(w_scales + i)));
    if (bias != nullptr) v = vaddq_f32(v, vld1q_f32(bias + i));
    if (accumulate) v = vaddq_f32(vld1q_f32(y + i), v);
    vst1q_f32(y + i, v);
  }
  for (; i < n; ++i) {
    float v = static_cast<float>(dots[i]) * (x_scale * w_scales[i]);
    if (bias != nullptr) v += bias[i];
    y[i] = accumulate ? y[i] + v : v;
  }
}
#endif

float QuantizeRowNeon(int32_t n, const float* x, int8_t* q) {
  // max |x| ignoring NaN, as the reference (a compare is false on NaN; vmaxq would propagate it).
  float32x4_t vmax = vdupq_n_f32(0.0f);
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const float32x4_t a = vabsq_f32(vld1q_f32(x + i));
    vmax = vbslq_f32(vcgtq_f32(a, vmax), a, vmax);
  }
  float lanes[4];
  vst1q_f32(lanes, vmax);
  float max_abs = 0.0f;
  for (float lane : lanes) max_abs = lane > max_abs ? lane : max_abs;
  for (; i < n; ++i) {
    const float a = x[i] >= 0.0f ? x[i] : -x[i];
    max_abs = a > max_abs ? a : max_abs;
  }
  if (!(max_abs >= kQuantizeRowVectorMin && max_abs <= 3.40282347e38f)) {
    return ref_quantize_row_f32_s8(n, x, q);
  }
  const float32x4_t inverse_scale = vdupq_n_f32(127.0f / max_abs);
  const uint32x4_t sign_mask = vdupq_n_u32(0x80000000u);
  const auto quantize4 = [&](const float* in) {
    const float32x4_t v = vmulq_f32(vld1q_f32(in), inverse_scale);
    const uint32x4_t is_number = vceqq_f32(v, v);
    const float32x4_t clamped = vminq_f32(vmaxq_f32(v, vdupq_n_f32(-127.0f)), vdupq_n_f32(127.0f));
    // Ties away from zero: v + copysign(0.5, v), then truncation (the reference's expression).
    const float32x4_t rounded = vaddq_f32(clamped, vbslq_f32(sign_mask, clamped, vdupq_n_f32(0.5f)));
    return vandq_s32(vcvtq_s32_f32(rounded), vreinterpretq_s32_u32(is_number));
  };
  const auto quantize8 = [&](const float* in, int8_t* out) {
    const int16x8_t shorts = vcombine_s16(vmovn_s32(quantize4(in)), vmovn_s32(quantize4(in + 4)));
    vst1_s8(out, vmovn_s16(shorts));
  };
  for (i = 0; i + 8 <= n; i += 8) quantize8(x + i, q + i);
  if (i < n) {
    float block[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    int8_t out[8];
    for (int32_t j = 0; j < n - i; ++j) block[j] = x[i + j];
    quantize8(block, out);
    for (int32_t j = 0; j < n - i; ++j) q[i + j] = out[j];
  }
  return max_abs / 127.0f;
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
