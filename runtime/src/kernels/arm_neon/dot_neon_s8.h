// The int8 NEON dot-product core shared by dot_neon.cc (vmull + vpadal) and
// dot_neon_dotprod.cc (SDOT): the same 4-row structure over a Step that adds the products of
// 16 int8 pairs into 4 int32 lanes, and its multi-row form (simd_dot.h DotS8RowsFn).
// Header-only, anonymous namespace: each file instantiates its own copy with its own flags
// (simd_dot.h).
#ifndef EDGENMT_KERNELS_ARM_NEON_DOT_NEON_S8_H_
#define EDGENMT_KERNELS_ARM_NEON_DOT_NEON_S8_H_

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

// kWideLoads: the 64-column loop of four-register loads (aarch64), for a Step without
// temporaries (SDOT); with vmull + vpadal its 20 loaded registers, 8 accumulators and the
// products' temporaries spill (as GCC schedules them), so that Step keeps 16 columns a step.
template <int32x4_t (*Step)(int32x4_t, int8x16_t, int8x16_t), bool kWideLoads>
void DotS8NeonRows(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride, int32_t count,
                   int32_t* acc) {
  const int32_t vector_depth = depth & ~15;
  int32_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const int8_t* w0 = w + static_cast<int64_t>(j) * w_stride;
    const int8_t* w1 = w0 + w_stride;
    const int8_t* w2 = w1 + w_stride;
    const int8_t* w3 = w2 + w_stride;
    int32x4_t a0 = vdupq_n_s32(0), a1 = a0, a2 = a0, a3 = a0;
    int32_t k = 0;
#if defined(__aarch64__)
    if (kWideLoads) {
      // 64 columns per step: one LD1 of four registers per row (5 loads per 16 Steps, the
      // fewest instructions per MAC) and a second accumulator per row, so each accumulator
      // waits on two Steps per iteration instead of four.
      // Pointers that step: GCC then uses LD1's post-increment (four-register LD1 has no
      // register-offset form, so base + k would cost an add per row).
      int32x4_t b0 = a0, b1 = a0, b2 = a0, b3 = a0;
      const int8_t *px = x, *p0 = w0, *p1 = w1, *p2 = w2, *p3 = w3;
      for (; k + 64 <= vector_depth; k += 64, px += 64, p0 += 64, p1 += 64, p2 += 64, p3 += 64) {
        const int8x16x4_t xv = vld1q_s8_x4(px);
        const int8x16x4_t v0 = vld1q_s8_x4(p0);
        a0 = Step(a0, xv.val[0], v0.val[0]);
        b0 = Step(b0, xv.val[1], v0.val[1]);
        a0 = Step(a0, xv.val[2], v0.val[2]);
        b0 = Step(b0, xv.val[3], v0.val[3]);
        const int8x16x4_t v1 = vld1q_s8_x4(p1);
        a1 = Step(a1, xv.val[0], v1.val[0]);
        b1 = Step(b1, xv.val[1], v1.val[1]);
        a1 = Step(a1, xv.val[2], v1.val[2]);
        b1 = Step(b1, xv.val[3], v1.val[3]);
        const int8x16x4_t v2 = vld1q_s8_x4(p2);
        a2 = Step(a2, xv.val[0], v2.val[0]);
        b2 = Step(b2, xv.val[1], v2.val[1]);
        a2 = Step(a2, xv.val[2], v2.val[2]);
        b2 = Step(b2, xv.val[3], v2.val[3]);
        const int8x16x4_t v3 = vld1q_s8_x4(p3);
        a3 = Step(a3, xv.val[0], v3.val[0]);
        b3 = Step(b3, xv.val[1], v3.val[1]);
        a3 = Step(a3, xv.val[2], v3.val[2]);
        b3 = Step(b3, xv.val[3], v3.val[3]);
      }
      a0 = vaddq_s32(a0, b0);
      a1 = vaddq_s32(a1, b1);
      a2 = vaddq_s32(a2, b2);
      a3 = vaddq_s32(a3, b3);
    }
#endif
    // The main loop without wide loads (ARMv7, the vmull step; after them the last 16-48
    // columns): two steps per loop test, half the loop's adds, compares and branches.
#pragma GCC unroll 2
    for (; k < vector_depth; k += 16) {
      const int8x16_t xv = vld1q_s8(x + k);
      a0 = Step(a0, xv, vld1q_s8(w0 + k));
      a1 = Step(a1, xv, vld1q_s8(w1 + k));
      a2 = Step(a2, xv, vld1q_s8(w2 + k));
      a3 = Step(a3, xv, vld1q_s8(w3 + k));
    }
#if defined(__aarch64__)
    // The four rows' sums in one vector (three pairwise adds) and one store.
    const int32x4_t four = vpaddq_s32(vpaddq_s32(a0, a1), vpaddq_s32(a2, a3));
    if (vector_depth == depth) {
      vst1q_s32(acc + j, four);
      continue;
    }
    int32_t sums[4];
    vst1q_s32(sums, four);
#else
    int32_t sums[4] = {SumLanesS32(a0), SumLanesS32(a1), SumLanesS32(a2), SumLanesS32(a3)};
#endif
    AddTail4(vector_depth, depth, x, w0, w_stride, sums);
    for (int32_t i = 0; i < 4; ++i) acc[j + i] = sums[i];
  }
  for (; j < count; ++j) {
    const int8_t* w0 = w + static_cast<int64_t>(j) * w_stride;
    int32x4_t a0 = vdupq_n_s32(0);
    int32_t k = 0;
#if defined(__aarch64__)
    for (; kWideLoads && k + 64 <= vector_depth; k += 64) {
      const int8x16x4_t xv = vld1q_s8_x4(x + k);
      const int8x16x4_t v0 = vld1q_s8_x4(w0 + k);
      a0 = Step(
          Step(Step(Step(a0, xv.val[0], v0.val[0]), xv.val[1], v0.val[1]), xv.val[2], v0.val[2]),
          xv.val[3], v0.val[3]);
    }
#endif
    for (; k < vector_depth; k += 16) a0 = Step(a0, vld1q_s8(x + k), vld1q_s8(w0 + k));
    acc[j] = AddTail1(vector_depth, depth, x, w0, SumLanesS32(a0));
  }
}

// Up to kDotRows activation rows against kCols weight rows at a time: each weight load serves
// every activation row (kRows x kCols accumulators, the x vectors of all rows live across the
// weight rows). The weight rows past the last full group take one accumulator each, inline:
// a call from here would stack another core's frame on this one (tests/stack_usage_test.cc
// holds the whole chain under 1.5 KiB on ARMv7). Not inlined into the dispatcher either, so
// each block's frame stands alone.
template <int32x4_t (*Step)(int32x4_t, int8x16_t, int8x16_t), int kRows, int kCols>
__attribute__((noinline)) void DotS8NeonRowsBlock(int32_t depth, const int8_t* x, int32_t x_stride,
                                                  const int8_t* w, int32_t w_stride, int32_t count,
                                                  int32_t* acc, int32_t acc_stride) {
  const int32_t vector_depth = depth & ~15;
  int32_t j = 0;
  for (; j + kCols <= count; j += kCols) {
    const int8_t* w0 = w + static_cast<int64_t>(j) * w_stride;
    int32x4_t a[kRows][kCols];
#pragma GCC unroll 4
    for (int r = 0; r < kRows; ++r) {
#pragma GCC unroll 4
      for (int i = 0; i < kCols; ++i) a[r][i] = vdupq_n_s32(0);
    }
    for (int32_t k = 0; k < vector_depth; k += 16) {
      int8x16_t xv[kRows];
#pragma GCC unroll 4
      for (int r = 0; r < kRows; ++r) xv[r] = vld1q_s8(x + static_cast<int64_t>(r) * x_stride + k);
#pragma GCC unroll 4
      for (int i = 0; i < kCols; ++i) {
        const int8x16_t wv = vld1q_s8(w0 + static_cast<int64_t>(i) * w_stride + k);
#pragma GCC unroll 4
        for (int r = 0; r < kRows; ++r) a[r][i] = Step(a[r][i], xv[r], wv);
      }
    }
#pragma GCC unroll 4
    for (int r = 0; r < kRows; ++r) {
      const int8_t* xr = x + static_cast<int64_t>(r) * x_stride;
      int32_t* out = acc + static_cast<int64_t>(r) * acc_stride + j;
#pragma GCC unroll 4
      for (int i = 0; i < kCols; ++i) {
        out[i] = AddTail1(vector_depth, depth, xr, w0 + static_cast<int64_t>(i) * w_stride,
                          SumLanesS32(a[r][i]));
      }
    }
  }
  for (; j < count; ++j) {
    const int8_t* wj = w + static_cast<int64_t>(j) * w_stride;
    for (int r = 0; r < kRows; ++r) {
      const int8_t* xr = x + static_cast<int64_t>(r) * x_stride;
      int32x4_t a = vdupq_n_s32(0);
      for (int32_t k = 0; k < vector_depth; k += 16) {
        a = Step(a, vld1q_s8(xr + k), vld1q_s8(wj + k));
      }
      acc[static_cast<int64_t>(r) * acc_stride + j] =
          AddTail1(vector_depth, depth, xr, wj, SumLanesS32(a));
    }
  }
}

// simd_dot.h's DotS8RowsFn over a Step, kCols2 weight rows per group for 2 activation rows and
// kCols34 for 3 or 4: as many as the accumulators, the x vectors and the step's temporaries
// leave registers for (the callers' choices are measured there).
template <int32x4_t (*Step)(int32x4_t, int8x16_t, int8x16_t), bool kWideLoads, int kCols2,
          int kCols34>
void DotS8NeonMultiRows(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                        const int8_t* w, int32_t w_stride, int32_t count, int32_t* acc,
                        int32_t acc_stride) {
  switch (rows) {
    case 1: return DotS8NeonRows<Step, kWideLoads>(depth, x, w, w_stride, count, acc);
    case 2:
      return DotS8NeonRowsBlock<Step, 2, kCols2>(depth, x, x_stride, w, w_stride, count, acc,
                                                 acc_stride);
    case 3:
      return DotS8NeonRowsBlock<Step, 3, kCols34>(depth, x, x_stride, w, w_stride, count, acc,
                                                  acc_stride);
    default:
      return DotS8NeonRowsBlock<Step, 4, kCols34>(depth, x, x_stride, w, w_stride, count, acc,
                                                  acc_stride);
  }
}

}  // namespace
}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_ARM_NEON_DOT_NEON_S8_H_
