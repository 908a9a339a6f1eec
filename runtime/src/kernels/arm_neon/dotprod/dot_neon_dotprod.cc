// ARMv8.2 dot-product (SDOT) int8 dot products (simd_dot.h): four signed byte products per
// int32 lane in one instruction, exact. Compiled with +dotprod; run only where the CPU reports
// it (simd_level.cc). Four weight rows share each load of x.
#if defined(__aarch64__)
#include <arm_neon.h>

#include "kernels/arm_neon/a64_row_group_asm.h"
#include "kernels/arm_neon/dot_neon_s8.h"
#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {
namespace {

inline int32x4_t DotprodStep(int32x4_t a, int8x16_t x, int8x16_t w) { return vdotq_s32(a, x, w); }

// acc[0 .. 8 * groups) = x . rows 0 .. 8 * groups of w (w_stride apart), depth = 64 * wide +
// 16 * narrow columns (wide + narrow >= 1, groups >= 1), in assembly. Per group of 8 rows: 64
// columns a step (a four-register LD1 of x and of each row, 32 SDOT ordered so that an
// accumulator's next SDOT is 4 behind), then 16 at a time; one accumulator per row, six ADDP
// and one store. 43 instructions per 512 MACs against 46 for two 4-row steps, and about 28
// around the loop per 8 rows against 20 per 4 (GCC's code around its 4-row loop: about 40).
// Out of line: make bench-arm's llvm-mca finds this loop by name (mca_limits.py).
__attribute__((noinline)) void DotS8EightRowGroups(int64_t groups, int64_t wide, int64_t narrow,
                                                   const int8_t* x, const int8_t* w,
                                                   int64_t w_stride, int32_t* acc) {
  const int8_t *xp, *p0, *p1, *p2, *p3, *p4, *p5, *p6, *p7;
  int64_t n;
  __asm__ volatile(
      "0:\n\t"
      "mov   %[xp], %[x]\n\t"
      EDGENMT_A64_ROW_POINTERS_8
      "movi  v4.4s, #0\n\t"
      "movi  v5.4s, #0\n\t"
      "movi  v6.4s, #0\n\t"
      "movi  v7.4s, #0\n\t"
      "movi  v8.4s, #0\n\t"
      "movi  v9.4s, #0\n\t"
      "movi  v10.4s, #0\n\t"
      "movi  v11.4s, #0\n\t"
      "cbz   %[wide], 2f\n\t"
      "mov   %[n], %[wide]\n"
      "1:\n\t"
      "ld1   {v0.16b-v3.16b}, [%[xp]], #64\n\t"
      EDGENMT_A64_LOAD_ROWS_4("p0", "p1", "p2", "p3", "16b")
      EDGENMT_A64_MULTIPLY_ROWS_4("sdot", "sdot", "16b", "v0", "v1", "v2", "v3",
                                  "v4", "v5", "v6", "v7")
      EDGENMT_A64_LOAD_ROWS_4("p4", "p5", "p6", "p7", "16b")
      EDGENMT_A64_MULTIPLY_ROWS_4("sdot", "sdot", "16b", "v0", "v1", "v2", "v3",
                                  "v8", "v9", "v10", "v11")
      "subs  %[n], %[n], #1\n\t"
      "b.ne  1b\n"
      "2:\n\t"
      "cbz   %[narrow], 4f\n\t"
      "mov   %[n], %[narrow]\n"
      "3:\n\t"
      "ldr   q0, [%[xp]], #16\n\t"
      "ldr   q16, [%[p0]], #16\n\t"
      "ldr   q17, [%[p1]], #16\n\t"
      "ldr   q18, [%[p2]], #16\n\t"
      "ldr   q19, [%[p3]], #16\n\t"
      "sdot  v4.4s, v0.16b, v16.16b\n\t"
      "sdot  v5.4s, v0.16b, v17.16b\n\t"
      "sdot  v6.4s, v0.16b, v18.16b\n\t"
      "sdot  v7.4s, v0.16b, v19.16b\n\t"
      "ldr   q16, [%[p4]], #16\n\t"
      "ldr   q17, [%[p5]], #16\n\t"
      "ldr   q18, [%[p6]], #16\n\t"
      "ldr   q19, [%[p7]], #16\n\t"
      "sdot  v8.4s, v0.16b, v16.16b\n\t"
      "sdot  v9.4s, v0.16b, v17.16b\n\t"
      "sdot  v10.4s, v0.16b, v18.16b\n\t"
      "sdot  v11.4s, v0.16b, v19.16b\n\t"
      "subs  %[n], %[n], #1\n\t"
      "b.ne  3b\n"
      "4:\n\t"
      "addp  v4.4s, v4.4s, v5.4s\n\t"
      "addp  v6.4s, v6.4s, v7.4s\n\t"
      "addp  v8.4s, v8.4s, v9.4s\n\t"
      "addp  v10.4s, v10.4s, v11.4s\n\t"
      "addp  v4.4s, v4.4s, v6.4s\n\t"
      "addp  v8.4s, v8.4s, v10.4s\n\t"
      "stp   q4, q8, [%[acc]], #32\n\t"
      "add   %[w], %[w], %[s], lsl #3\n\t"
      "subs  %[g], %[g], #1\n\t"
      "b.ne  0b"
      : [w] "+r"(w), [acc] "+r"(acc), [g] "+r"(groups), [xp] "=&r"(xp), [p0] "=&r"(p0),
        [p1] "=&r"(p1), [p2] "=&r"(p2), [p3] "=&r"(p3), [p4] "=&r"(p4), [p5] "=&r"(p5),
        [p6] "=&r"(p6), [p7] "=&r"(p7), [n] "=&r"(n)
      : [x] "r"(x), [s] "r"(w_stride), [wide] "r"(wide), [narrow] "r"(narrow)
      : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v16", "v17",
        "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30",
        "v31", "cc", "memory");
}

// The same for two activation rows (x0, x1; sums to acc0 and acc1): each load of a weight row
// feeds 8 SDOT. 76 instructions per 1,024 MACs, against 86 for the rows one by one; 16
// accumulators, 8 registers of x and 8 of weights use all 32.
void DotS8EightRowGroupsTwoRows(int64_t groups, int64_t wide, int64_t narrow, const int8_t* x0,
                                const int8_t* x1, const int8_t* w, int64_t w_stride, int32_t* acc0,
                                int32_t* acc1) {
  const int8_t *xp0, *xp1, *p0, *p1, *p2, *p3, *p4, *p5, *p6, *p7;
  int64_t n;
  __asm__ volatile(
      "0:\n\t"
      "mov   %[xp0], %[x0]\n\t"
      "mov   %[xp1], %[x1]\n\t" EDGENMT_A64_ROW_POINTERS_8
      "movi  v8.4s, #0\n\t"
      "movi  v9.4s, #0\n\t"
      "movi  v10.4s, #0\n\t"
      "movi  v11.4s, #0\n\t"
      "movi  v12.4s, #0\n\t"
      "movi  v13.4s, #0\n\t"
      "movi  v14.4s, #0\n\t"
      "movi  v15.4s, #0\n\t"
      "movi  v16.4s, #0\n\t"
      "movi  v17.4s, #0\n\t"
      "movi  v18.4s, #0\n\t"
      "movi  v19.4s, #0\n\t"
      "movi  v20.4s, #0\n\t"
      "movi  v21.4s, #0\n\t"
      "movi  v22.4s, #0\n\t"
      "movi  v23.4s, #0\n\t"
      "cbz   %[wide], 2f\n\t"
      "mov   %[n], %[wide]\n"
      "1:\n\t"
      "ld1   {v0.16b-v3.16b}, [%[xp0]], #64\n\t"
      "ld1   {v4.16b-v7.16b}, [%[xp1]], #64\n\t"
      "ld1   {v24.16b-v27.16b}, [%[p0]], #64\n\t"
      "ld1   {v28.16b-v31.16b}, [%[p1]], #64\n\t"
      "sdot  v8.4s, v0.16b, v24.16b\n\t"
      "sdot  v9.4s, v0.16b, v28.16b\n\t"
      "sdot  v16.4s, v4.16b, v24.16b\n\t"
      "sdot  v17.4s, v4.16b, v28.16b\n\t"
      "sdot  v8.4s, v1.16b, v25.16b\n\t"
      "sdot  v9.4s, v1.16b, v29.16b\n\t"
      "sdot  v16.4s, v5.16b, v25.16b\n\t"
      "sdot  v17.4s, v5.16b, v29.16b\n\t"
      "sdot  v8.4s, v2.16b, v26.16b\n\t"
      "sdot  v9.4s, v2.16b, v30.16b\n\t"
      "sdot  v16.4s, v6.16b, v26.16b\n\t"
      "sdot  v17.4s, v6.16b, v30.16b\n\t"
      "sdot  v8.4s, v3.16b, v27.16b\n\t"
      "sdot  v9.4s, v3.16b, v31.16b\n\t"
      "sdot  v16.4s, v7.16b, v27.16b\n\t"
      "sdot  v17.4s, v7.16b, v31.16b\n\t"
      "ld1   {v24.16b-v27.16b}, [%[p2]], #64\n\t"
      "ld1   {v28.16b-v31.16b}, [%[p3]], #64\n\t"
      "sdot  v10.4s, v0.16b, v24.16b\n\t"
      "sdot  v11.4s, v0.16b, v28.16b\n\t"
      "sdot  v18.4s, v4.16b, v24.16b\n\t"
      "sdot  v19.4s, v4.16b, v28.16b\n\t"
      "sdot  v10.4s, v1.16b, v25.16b\n\t"
      "sdot  v11.4s, v1.16b, v29.16b\n\t"
      "sdot  v18.4s, v5.16b, v25.16b\n\t"
      "sdot  v19.4s, v5.16b, v29.16b\n\t"
      "sdot  v10.4s, v2.16b, v26.16b\n\t"
      "sdot  v11.4s, v2.16b, v30.16b\n\t"
      "sdot  v18.4s, v6.16b, v26.16b\n\t"
      "sdot  v19.4s, v6.16b, v30.16b\n\t"
      "sdot  v10.4s, v3.16b, v27.16b\n\t"
      "sdot  v11.4s, v3.16b, v31.16b\n\t"
      "sdot  v18.4s, v7.16b, v27.16b\n\t"
      "sdot  v19.4s, v7.16b, v31.16b\n\t"
      "ld1   {v24.16b-v27.16b}, [%[p4]], #64\n\t"
      "ld1   {v28.16b-v31.16b}, [%[p5]], #64\n\t"
      "sdot  v12.4s, v0.16b, v24.16b\n\t"
      "sdot  v13.4s, v0.16b, v28.16b\n\t"
      "sdot  v20.4s, v4.16b, v24.16b\n\t"
      "sdot  v21.4s, v4.16b, v28.16b\n\t"
      "sdot  v12.4s, v1.16b, v25.16b\n\t"
      "sdot  v13.4s, v1.16b, v29.16b\n\t"
      "sdot  v20.4s, v5.16b, v25.16b\n\t"
      "sdot  v21.4s, v5.16b, v29.16b\n\t"
      "sdot  v12.4s, v2.16b, v26.16b\n\t"
      "sdot  v13.4s, v2.16b, v30.16b\n\t"
      "sdot  v20.4s, v6.16b, v26.16b\n\t"
      "sdot  v21.4s, v6.16b, v30.16b\n\t"
      "sdot  v12.4s, v3.16b, v27.16b\n\t"
      "sdot  v13.4s, v3.16b, v31.16b\n\t"
      "sdot  v20.4s, v7.16b, v27.16b\n\t"
      "sdot  v21.4s, v7.16b, v31.16b\n\t"
      "ld1   {v24.16b-v27.16b}, [%[p6]], #64\n\t"
      "ld1   {v28.16b-v31.16b}, [%[p7]], #64\n\t"
      "sdot  v14.4s, v0.16b, v24.16b\n\t"
      "sdot  v15.4s, v0.16b, v28.16b\n\t"
      "sdot  v22.4s, v4.16b, v24.16b\n\t"
      "sdot  v23.4s, v4.16b, v28.16b\n\t"
      "sdot  v14.4s, v1.16b, v25.16b\n\t"
      "sdot  v15.4s, v1.16b, v29.16b\n\t"
      "sdot  v22.4s, v5.16b, v25.16b\n\t"
      "sdot  v23.4s, v5.16b, v29.16b\n\t"
      "sdot  v14.4s, v2.16b, v26.16b\n\t"
      "sdot  v15.4s, v2.16b, v30.16b\n\t"
      "sdot  v22.4s, v6.16b, v26.16b\n\t"
      "sdot  v23.4s, v6.16b, v30.16b\n\t"
      "sdot  v14.4s, v3.16b, v27.16b\n\t"
      "sdot  v15.4s, v3.16b, v31.16b\n\t"
      "sdot  v22.4s, v7.16b, v27.16b\n\t"
      "sdot  v23.4s, v7.16b, v31.16b\n\t"
      "subs  %[n], %[n], #1\n\t"
      "b.ne  1b\n"
      "2:\n\t"
      "cbz   %[narrow], 4f\n\t"
      "mov   %[n], %[narrow]\n"
      "3:\n\t"
      "ldr   q0, [%[xp0]], #16\n\t"
      "ldr   q4, [%[xp1]], #16\n\t"
      "ldr   q24, [%[p0]], #16\n\t"
      "ldr   q25, [%[p1]], #16\n\t"
      "ldr   q26, [%[p2]], #16\n\t"
      "ldr   q27, [%[p3]], #16\n\t"
      "sdot  v8.4s, v0.16b, v24.16b\n\t"
      "sdot  v16.4s, v4.16b, v24.16b\n\t"
      "sdot  v9.4s, v0.16b, v25.16b\n\t"
      "sdot  v17.4s, v4.16b, v25.16b\n\t"
      "sdot  v10.4s, v0.16b, v26.16b\n\t"
      "sdot  v18.4s, v4.16b, v26.16b\n\t"
      "sdot  v11.4s, v0.16b, v27.16b\n\t"
      "sdot  v19.4s, v4.16b, v27.16b\n\t"
      "ldr   q24, [%[p4]], #16\n\t"
      "ldr   q25, [%[p5]], #16\n\t"
      "ldr   q26, [%[p6]], #16\n\t"
      "ldr   q27, [%[p7]], #16\n\t"
      "sdot  v12.4s, v0.16b, v24.16b\n\t"
      "sdot  v20.4s, v4.16b, v24.16b\n\t"
      "sdot  v13.4s, v0.16b, v25.16b\n\t"
      "sdot  v21.4s, v4.16b, v25.16b\n\t"
      "sdot  v14.4s, v0.16b, v26.16b\n\t"
      "sdot  v22.4s, v4.16b, v26.16b\n\t"
      "sdot  v15.4s, v0.16b, v27.16b\n\t"
      "sdot  v23.4s, v4.16b, v27.16b\n\t"
      "subs  %[n], %[n], #1\n\t"
      "b.ne  3b\n"
      "4:\n\t"
      "addp  v8.4s, v8.4s, v9.4s\n\t"
      "addp  v10.4s, v10.4s, v11.4s\n\t"
      "addp  v12.4s, v12.4s, v13.4s\n\t"
      "addp  v14.4s, v14.4s, v15.4s\n\t"
      "addp  v8.4s, v8.4s, v10.4s\n\t"
      "addp  v12.4s, v12.4s, v14.4s\n\t"
      "addp  v16.4s, v16.4s, v17.4s\n\t"
      "addp  v18.4s, v18.4s, v19.4s\n\t"
      "addp  v20.4s, v20.4s, v21.4s\n\t"
      "addp  v22.4s, v22.4s, v23.4s\n\t"
      "addp  v16.4s, v16.4s, v18.4s\n\t"
      "addp  v20.4s, v20.4s, v22.4s\n\t"
      "stp   q8, q12, [%[acc0]], #32\n\t"
      "stp   q16, q20, [%[acc1]], #32\n\t"
      "add   %[w], %[w], %[s], lsl #3\n\t"
      "subs  %[g], %[g], #1\n\t"
      "b.ne  0b"
      : [w] "+r"(w), [acc0] "+r"(acc0), [acc1] "+r"(acc1), [g] "+r"(groups), [xp0] "=&r"(xp0),
        [xp1] "=&r"(xp1), [p0] "=&r"(p0), [p1] "=&r"(p1), [p2] "=&r"(p2), [p3] "=&r"(p3),
        [p4] "=&r"(p4), [p5] "=&r"(p5), [p6] "=&r"(p6), [p7] "=&r"(p7), [n] "=&r"(n)
      : [x0] "r"(x0), [x1] "r"(x1), [s] "r"(w_stride), [wide] "r"(wide), [narrow] "r"(narrow)
      : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13",
        "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26",
        "v27", "v28", "v29", "v30", "v31", "cc", "memory");
}

}  // namespace

void DotS8NeonDotprod(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride,
                      int32_t count, int32_t* acc) {
  if (depth >= 16 && depth % 16 == 0 && count >= 8) {  // the models' shapes
    const int32_t rows = count & ~7;
    DotS8EightRowGroups(rows / 8, depth / 64, (depth % 64) / 16, x, w, w_stride, acc);
    if (rows == count) return;
    w += static_cast<int64_t>(rows) * w_stride;
    acc += rows;
    count -= rows;
  }
  DotS8NeonRows<DotprodStep, true>(depth, x, w, w_stride, count, acc);
}

void DotS8RowsNeonDotprod(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                          const int8_t* w, int32_t w_stride, int32_t count, int32_t* acc,
                          int32_t acc_stride) {
  if (count >= 8 && depth >= 16 && depth % 16 == 0) {
    // Pairs of activation rows through the two-row 8-row loop, a last odd row through the
    // one-row loop; the last count % 8 weight rows one activation row at a time.
    const int32_t groups = count / 8, tail = count % 8;
    int32_t r = 0;
    for (; r + 2 <= rows; r += 2) {
      const int8_t* x0 = x + static_cast<int64_t>(r) * x_stride;
      int32_t* acc0 = acc + static_cast<int64_t>(r) * acc_stride;
      DotS8EightRowGroupsTwoRows(groups, depth / 64, (depth % 64) / 16, x0, x0 + x_stride, w,
                                 w_stride, acc0, acc0 + acc_stride);
    }
    if (r < rows) {
      DotS8EightRowGroups(groups, depth / 64, (depth % 64) / 16,
                          x + static_cast<int64_t>(r) * x_stride, w, w_stride,
                          acc + static_cast<int64_t>(r) * acc_stride);
    }
    if (tail == 0) return;
    const int8_t* w_tail = w + static_cast<int64_t>(groups) * 8 * w_stride;
    for (r = 0; r < rows; ++r) {
      DotS8NeonRows<DotprodStep, true>(depth, x + static_cast<int64_t>(r) * x_stride, w_tail,
                                       w_stride, tail,
                                       acc + static_cast<int64_t>(r) * acc_stride + groups * 8);
    }
    return;
  }
  // 4 x 4: one sdot per step, no temporaries; 16 accumulators fit aarch64's 32 registers.
  DotS8NeonMultiRows<DotprodStep, true, 4, 4>(rows, depth, x, x_stride, w, w_stride, count, acc,
                                              acc_stride);
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__aarch64__)
