// NEON float32 dot products (simd_dot.h DotF32Fn), ARMv7-A and ARMv8-A: four weight rows share
// each load of x; on aarch64 the models' shapes (depth a multiple of 16, 8 rows or more) go
// through an 8-row loop in assembly. The additions' order differs from the reference's, within
// the float tolerance (tests/kernels_simd_test.cc).
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "kernels/arm_neon/a64_row_group_asm.h"
#include "kernels/simd/dot_tail.h"
#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {
namespace {

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

#if defined(__aarch64__)
// 32 columns of the 8 rows: x in v0-v7, sums in v8-v15; OP0 "fmul" on the first step.
#define EDGENMT_F32_STEP_32(OP0)                                                                 \
  "ld1   {v0.4s-v3.4s}, [%[xp]], #64\n\t"                                                        \
  "ld1   {v4.4s-v7.4s}, [%[xp]], #64\n\t" EDGENMT_A64_LOAD_ROWS_4("p0", "p1", "p2", "p3", "4s")  \
      EDGENMT_A64_MULTIPLY_ROWS_4(OP0, "fmla", "4s", "v0", "v1", "v2", "v3", "v8", "v9", "v10",  \
                                  "v11") EDGENMT_A64_LOAD_ROWS_4("p0", "p1", "p2", "p3", "4s")   \
          EDGENMT_A64_MULTIPLY_ROWS_4("fmla", "fmla", "4s", "v4", "v5", "v6", "v7", "v8", "v9",  \
                                      "v10", "v11")                                              \
              EDGENMT_A64_LOAD_ROWS_4("p4", "p5", "p6", "p7", "4s") EDGENMT_A64_MULTIPLY_ROWS_4( \
                  OP0, "fmla", "4s", "v0", "v1", "v2", "v3", "v12", "v13", "v14", "v15")         \
                  EDGENMT_A64_LOAD_ROWS_4("p4", "p5", "p6", "p7", "4s")                          \
                      EDGENMT_A64_MULTIPLY_ROWS_4("fmla", "fmla", "4s", "v4", "v5", "v6", "v7",  \
                                                  "v12", "v13", "v14", "v15")

// acc[0 .. 8 * groups) = x . rows 0 .. 8 * groups of w (w_stride_bytes apart), depth = 32 *
// wide + 16 * narrow columns (narrow 0 or 1, wide + narrow >= 1, groups >= 1), in assembly.
// Per group of 8 rows, 32 columns a step: two four-register LD1 of x (8 registers) and two of
// each row, 64 FMLA ordered so that an accumulator's next FMLA is 4 behind (the in-order A55's
// latency), one accumulator per row; then one 16-column step if any; each row's lanes summed
// by FADDP as vaddvq would ((l0 + l1) + (l2 + l3)). 84 instructions per 256 MACs against 92
// for four 4-row steps of GCC's loop, and about 20 around the loop per 8 rows (the first step
// starts the accumulators with FMUL) where that code spent about 45 per 4: at the shipped
// model's depths, 64 to 576, float32 greedy 6.28 M -> 5.27 M instructions per word
// (cortex-a76, 100 words).
void DotF32EightRowGroups(int64_t groups, int64_t wide, int64_t narrow, const float* x,
                          const float* w, int64_t w_stride_bytes, float* acc) {
  const float *xp, *p0, *p1, *p2, *p3, *p4, *p5, *p6, *p7;
  int64_t n;
  __asm__ volatile(
      "0:\n\t"
      "mov   %[xp], %[x]\n\t"
      EDGENMT_A64_ROW_POINTERS_8
      "cbz   %[wide], 5f\n\t"
      // The first 32 columns: each accumulator starts with an FMUL (no zeroing).
      EDGENMT_F32_STEP_32("fmul")
      "subs  %[n], %[wide], #1\n\t"
      "b.eq  2f\n"
      "1:\n\t"
      EDGENMT_F32_STEP_32("fmla")
      "subs  %[n], %[n], #1\n\t"
      "b.ne  1b\n"
      "2:\n\t"
      "cbz   %[narrow], 3f\n\t"
      "ld1   {v0.4s-v3.4s}, [%[xp]]\n\t"
      EDGENMT_A64_LOAD_ROWS_4("p0", "p1", "p2", "p3", "4s")
      EDGENMT_A64_MULTIPLY_ROWS_4("fmla", "fmla", "4s", "v0", "v1", "v2", "v3",
                                  "v8", "v9", "v10", "v11")
      EDGENMT_A64_LOAD_ROWS_4("p4", "p5", "p6", "p7", "4s")
      EDGENMT_A64_MULTIPLY_ROWS_4("fmla", "fmla", "4s", "v0", "v1", "v2", "v3",
                                  "v12", "v13", "v14", "v15")
      "3:\n\t"
      "faddp v8.4s, v8.4s, v9.4s\n\t"
      "faddp v10.4s, v10.4s, v11.4s\n\t"
      "faddp v12.4s, v12.4s, v13.4s\n\t"
      "faddp v14.4s, v14.4s, v15.4s\n\t"
      "faddp v8.4s, v8.4s, v10.4s\n\t"
      "faddp v12.4s, v12.4s, v14.4s\n\t"
      "stp   q8, q12, [%[acc]], #32\n\t"
      "add   %[w], %[w], %[s], lsl #3\n\t"
      "subs  %[g], %[g], #1\n\t"
      "b.ne  0b\n\t"
      "b     6f\n"
      // 16 columns only: zeroed accumulators, then the 16-column step.
      "5:\n\t"
      "movi  v8.4s, #0\n\t"
      "movi  v9.4s, #0\n\t"
      "movi  v10.4s, #0\n\t"
      "movi  v11.4s, #0\n\t"
      "movi  v12.4s, #0\n\t"
      "movi  v13.4s, #0\n\t"
      "movi  v14.4s, #0\n\t"
      "movi  v15.4s, #0\n\t"
      "b     2b\n"
      "6:"
      : [w] "+r"(w), [acc] "+r"(acc), [g] "+r"(groups), [xp] "=&r"(xp), [p0] "=&r"(p0),
        [p1] "=&r"(p1), [p2] "=&r"(p2), [p3] "=&r"(p3), [p4] "=&r"(p4), [p5] "=&r"(p5),
        [p6] "=&r"(p6), [p7] "=&r"(p7), [n] "=&r"(n)
      : [x] "r"(x), [s] "r"(w_stride_bytes), [wide] "r"(wide), [narrow] "r"(narrow)
      : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13",
        "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26",
        "v27", "v28", "v29", "v30", "v31", "cc", "memory");
}

#endif

}  // namespace

void DotF32Neon(int32_t depth, const float* x, const float* w, int32_t w_stride, int32_t count,
                float* acc) {
#if defined(__aarch64__)
  if (depth >= 16 && depth % 16 == 0 && count >= 8) {  // the models' shapes
    const int32_t rows = count & ~7;
    DotF32EightRowGroups(rows / 8, depth / 32, (depth % 32) / 16, x, w,
                         static_cast<int64_t>(w_stride) * 4, acc);
    if (rows == count) return;
    w += static_cast<int64_t>(rows) * w_stride;
    acc += rows;
    count -= rows;
  }
#endif
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
      a0 = MultiplyAdd(
          MultiplyAdd(MultiplyAdd(MultiplyAdd(a0, xv.val[0], v0.val[0]), xv.val[1], v0.val[1]),
                      xv.val[2], v0.val[2]),
          xv.val[3], v0.val[3]);
    }
#endif
    for (; k < vector_depth; k += 4) a0 = MultiplyAdd(a0, vld1q_f32(x + k), vld1q_f32(w0 + k));
    acc[j] = AddTail1(vector_depth, depth, x, w0, SumLanes(a0));
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
