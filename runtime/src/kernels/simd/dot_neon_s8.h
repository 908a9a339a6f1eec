// The int8 NEON dot-product core shared by dot_neon.cc (vmull + vpadal) and
// dot_neon_dotprod.cc (SDOT): the same 4-row structure over a Step that adds the products of
// 16 int8 pairs into 4 int32 lanes. Header-only, anonymous namespace: each file instantiates
// its own copy with its own flags (simd_dot.h).
#ifndef EDGENMT_KERNELS_SIMD_DOT_NEON_S8_H_
#define EDGENMT_KERNELS_SIMD_DOT_NEON_S8_H_

#include <arm_neon.h>
#include <stdint.h>

#include "kernels/simd/dot_tail.h"

namespace edgenmt {
namespace simd {
namespace {

inline int32_t SumLanesS32(int32x4_t a) {
#if defined(__aarch64__)
  return vaddvq_s32(a);
#else
  const int32x2_t s = vadd_s32(vget_low_s32(a), vget_high_s32(a));
  return vget_lane_s32(vpadd_s32(s, s), 0);
#endif
}

template <int32x4_t (*Step)(int32x4_t, int8x16_t, int8x16_t)>
void DotS8NeonRows(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride,
                   int32_t count, int32_t* acc) {
  const int32_t vector_depth = depth & ~15;
  int32_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const int8_t* w0 = w + static_cast<int64_t>(j) * w_stride;
    const int8_t* w1 = w0 + w_stride;
    const int8_t* w2 = w1 + w_stride;
    const int8_t* w3 = w2 + w_stride;
    int32x4_t a0 = vdupq_n_s32(0), a1 = a0, a2 = a0, a3 = a0;
    for (int32_t k = 0; k < vector_depth; k += 16) {
      const int8x16_t xv = vld1q_s8(x + k);
      a0 = Step(a0, xv, vld1q_s8(w0 + k));
      a1 = Step(a1, xv, vld1q_s8(w1 + k));
      a2 = Step(a2, xv, vld1q_s8(w2 + k));
      a3 = Step(a3, xv, vld1q_s8(w3 + k));
    }
    int32_t sums[4] = {SumLanesS32(a0), SumLanesS32(a1), SumLanesS32(a2), SumLanesS32(a3)};
    AddTail4(vector_depth, depth, x, w0, w_stride, sums);
    for (int32_t i = 0; i < 4; ++i) acc[j + i] = sums[i];
  }
  for (; j < count; ++j) {
    const int8_t* w0 = w + static_cast<int64_t>(j) * w_stride;
    int32x4_t a0 = vdupq_n_s32(0);
    for (int32_t k = 0; k < vector_depth; k += 16) a0 = Step(a0, vld1q_s8(x + k), vld1q_s8(w0 + k));
    acc[j] = AddTail1(vector_depth, depth, x, w0, SumLanesS32(a0));
  }
}

}  // namespace
}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_DOT_NEON_S8_H_
