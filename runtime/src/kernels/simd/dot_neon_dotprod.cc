// ARMv8.2 dot-product (SDOT) int8 dot products (simd_dot.h): four signed byte products per
// int32 lane in one instruction, exact. Compiled with +dotprod; run only where the CPU reports
// it (simd_level.cc). Four weight rows share each load of x.
#if defined(__aarch64__)
#include <arm_neon.h>

#include "kernels/simd/dot_neon_s8.h"
#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {
namespace {

inline int32x4_t DotprodStep(int32x4_t a, int8x16_t x, int8x16_t w) { return vdotq_s32(a, x, w); }

// acc[0 .. 4 * groups) = x . rows 0 .. 4 * groups of w (w_stride apart), depth = 64 * wide +
// 16 * narrow columns (wide + narrow >= 1, groups >= 1), in assembly. Per group of 4 rows: 64
// columns a step (a four-register LD1 per row, 16 SDOT, the rows interleaved so that no SDOT
// waits on the one before), then 16 at a time, one accumulator per row, three ADDP and one
// store. GCC's code around the same loop (DotS8NeonRows: pointer copies, 8 accumulators and
// their sums, the tail's branches) spent about 40 instructions per group, as many as two loop
// steps at the shipped model's depths; here 20.
void DotS8FourRowGroups(int64_t groups, int64_t wide, int64_t narrow, const int8_t* x,
                        const int8_t* w, int64_t w_stride, int32_t* acc) {
  const int8_t *xp, *p0, *p1, *p2, *p3;
  int64_t n;
  __asm__ volatile(
      "0:\n\t"
      "mov   %[xp], %[x]\n\t"
      "mov   %[p0], %[w]\n\t"
      "add   %[p1], %[w], %[s]\n\t"
      "add   %[p2], %[p1], %[s]\n\t"
      "add   %[p3], %[p2], %[s]\n\t"
      "movi  v20.4s, #0\n\t"
      "movi  v21.4s, #0\n\t"
      "movi  v22.4s, #0\n\t"
      "movi  v23.4s, #0\n\t"
      "cbz   %[wide], 2f\n\t"
      "mov   %[n], %[wide]\n"
      "1:\n\t"
      "ld1   {v0.16b-v3.16b}, [%[xp]], #64\n\t"
      "ld1   {v16.16b-v19.16b}, [%[p0]], #64\n\t"
      "ld1   {v24.16b-v27.16b}, [%[p1]], #64\n\t"
      "sdot  v20.4s, v0.16b, v16.16b\n\t"
      "sdot  v21.4s, v0.16b, v24.16b\n\t"
      "sdot  v20.4s, v1.16b, v17.16b\n\t"
      "sdot  v21.4s, v1.16b, v25.16b\n\t"
      "sdot  v20.4s, v2.16b, v18.16b\n\t"
      "sdot  v21.4s, v2.16b, v26.16b\n\t"
      "sdot  v20.4s, v3.16b, v19.16b\n\t"
      "sdot  v21.4s, v3.16b, v27.16b\n\t"
      "ld1   {v16.16b-v19.16b}, [%[p2]], #64\n\t"
      "ld1   {v24.16b-v27.16b}, [%[p3]], #64\n\t"
      "sdot  v22.4s, v0.16b, v16.16b\n\t"
      "sdot  v23.4s, v0.16b, v24.16b\n\t"
      "sdot  v22.4s, v1.16b, v17.16b\n\t"
      "sdot  v23.4s, v1.16b, v25.16b\n\t"
      "sdot  v22.4s, v2.16b, v18.16b\n\t"
      "sdot  v23.4s, v2.16b, v26.16b\n\t"
      "sdot  v22.4s, v3.16b, v19.16b\n\t"
      "sdot  v23.4s, v3.16b, v27.16b\n\t"
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
      "sdot  v20.4s, v0.16b, v16.16b\n\t"
      "sdot  v21.4s, v0.16b, v17.16b\n\t"
      "sdot  v22.4s, v0.16b, v18.16b\n\t"
      "sdot  v23.4s, v0.16b, v19.16b\n\t"
      "subs  %[n], %[n], #1\n\t"
      "b.ne  3b\n"
      "4:\n\t"
      "addp  v20.4s, v20.4s, v21.4s\n\t"
      "addp  v22.4s, v22.4s, v23.4s\n\t"
      "addp  v20.4s, v20.4s, v22.4s\n\t"
      "str   q20, [%[acc]], #16\n\t"
      "add   %[w], %[w], %[s], lsl #2\n\t"
      "subs  %[g], %[g], #1\n\t"
      "b.ne  0b"
      : [w] "+r"(w), [acc] "+r"(acc), [g] "+r"(groups), [xp] "=&r"(xp), [p0] "=&r"(p0),
        [p1] "=&r"(p1), [p2] "=&r"(p2), [p3] "=&r"(p3), [n] "=&r"(n)
      : [x] "r"(x), [s] "r"(w_stride), [wide] "r"(wide), [narrow] "r"(narrow)
      : "v0", "v1", "v2", "v3", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",
        "v25", "v26", "v27", "cc", "memory");
}

}  // namespace

void DotS8NeonDotprod(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride,
                      int32_t count, int32_t* acc) {
  if (depth >= 16 && depth % 16 == 0 && count >= 4) {  // the models' shapes
    const int32_t rows = count & ~3;
    DotS8FourRowGroups(rows / 4, depth / 64, (depth % 64) / 16, x, w, w_stride, acc);
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
  if (rows == 1) return DotS8NeonDotprod(depth, x, w, w_stride, count, acc);
  // 4 x 4: one sdot per step, no temporaries; 16 accumulators fit aarch64's 32 registers.
  DotS8NeonMultiRows<DotprodStep, true, 4, 4>(rows, depth, x, x_stride, w, w_stride, count, acc, acc_stride);
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__aarch64__)
