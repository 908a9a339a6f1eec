// Helium (MVE) dot products (simd_dot.h contracts). int8: VMLADAVA.S8 multiplies 16 pairs and
// adds them into a scalar int32 accumulator in one instruction, exact for every int8 value
// (depth <= fxp::kMaxS8DotLength). Four weight rows share each load of x, so the inner loop is
// 5 loads and 4 VMLADAVA per 64 multiply-accumulates; the depth's last partial vector is one
// predicated step (tail lanes load as zero and never touch memory). float32: VFMA on 4 lanes.
#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

#include "kernels/simd/simd_helium.h"

namespace edgenmt {
namespace simd {
namespace {

// acc[0 .. 4 * groups) = x . rows 0 .. 4 * groups of w, for a depth of 16 * vectors columns
// (vectors >= 1, groups >= 1), in assembly. Per group of 4 rows: the first vector initialises
// the sums (VMLADAV), the rest run in a low-overhead loop (WLS / LE) of 5 loads and 4 VMLADAVA
// per 64 MACs, loads and multiply-accumulates alternating (the M55 overlaps a VLDR's beats
// with the previous VMLADAVA's only then: llvm-mca 10 cycles per 64 MACs, against 16 with the
// loads grouped). GCC's code from the same intrinsics spent about 35 instructions per group
// around that loop (set-up, pointers spilled to the stack), as many as the loop itself at the
// depths of the microcontroller model; here 13. The sums live in even registers ("Te"), as
// VMLADAV requires; x, the loop count and the end of acc are read from memory each group.
// Not inlined, so that make bench-arm's llvm-mca finds this loop by name (mca_limits.py), not
// DotS8Four's beside it.
__attribute__((noinline)) void DotS8FourRowGroups(int32_t groups, int32_t vectors, const int8_t* x,
                                                  const int8_t* w, int32_t w_stride, int32_t* acc) {
  const int32_t rest = vectors - 1;
  const int32_t* const acc_end = acc + 4 * groups;
  const int8_t *xp, *p0, *p1, *p2, *p3;
  int32_t a0, a1, a2, a3;
  __asm__ volatile(
      "0:\n\t"
      "ldr         %[xp], %[x]\n\t"
      "mov         %[p0], %[w]\n\t"
      "add         %[p1], %[w], %[stride]\n\t"
      "add         %[p2], %[p1], %[stride]\n\t"
      "add         %[p3], %[p2], %[stride]\n\t"
      "vldrb.u8    q0, [%[xp]], #16\n\t"
      "vldrb.u8    q1, [%[p0]], #16\n\t"
      "vmladav.s8  %[a0], q0, q1\n\t"
      "vldrb.u8    q2, [%[p1]], #16\n\t"
      "vmladav.s8  %[a1], q0, q2\n\t"
      "vldrb.u8    q1, [%[p2]], #16\n\t"
      "vmladav.s8  %[a2], q0, q1\n\t"
      "vldrb.u8    q2, [%[p3]], #16\n\t"
      "vmladav.s8  %[a3], q0, q2\n\t"
      "ldr         lr, %[rest]\n\t"
      "wls         lr, lr, 2f\n"
      "1:\n\t"
      "vldrb.u8    q0, [%[xp]], #16\n\t"
      "vldrb.u8    q1, [%[p0]], #16\n\t"
      "vmladava.s8 %[a0], q0, q1\n\t"
      "vldrb.u8    q2, [%[p1]], #16\n\t"
      "vmladava.s8 %[a1], q0, q2\n\t"
      "vldrb.u8    q1, [%[p2]], #16\n\t"
      "vmladava.s8 %[a2], q0, q1\n\t"
      "vldrb.u8    q2, [%[p3]], #16\n\t"
      "vmladava.s8 %[a3], q0, q2\n\t"
      "le          lr, 1b\n"
      "2:\n\t"
      "strd        %[a0], %[a1], [%[acc]], #8\n\t"
      "strd        %[a2], %[a3], [%[acc]], #8\n\t"
      "add         %[w], %[w], %[stride], lsl #2\n\t"
      "ldr         %[p0], %[end]\n\t"
      "cmp         %[acc], %[p0]\n\t"
      "bne         0b"
      : [w] "+r"(w), [acc] "+r"(acc), [xp] "=&r"(xp), [p0] "=&r"(p0), [p1] "=&r"(p1),
        [p2] "=&r"(p2), [p3] "=&r"(p3), [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2),
        [a3] "=&Te"(a3)
      : [stride] "r"(w_stride), [x] "m"(x), [rest] "m"(rest), [end] "m"(acc_end)
      : "q0", "q1", "q2", "lr", "cc", "memory");
}

// acc[0..3] = x . w0..w3 over any depth (the shapes DotS8FourRowGroups does not take): whole
// vectors, then the depth's last partial vector as one predicated step (tail lanes load as
// zero and never touch memory).
inline void DotS8Four(int32_t depth, const int8_t* x, const int8_t* w0, const int8_t* w1,
                      const int8_t* w2, const int8_t* w3, int32_t* acc) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const int32_t full = depth & ~15;
  for (int32_t k = 0; k < full; k += 16) {
    const int8x16_t xv = vldrbq_s8(x + k);
    a0 = vmladavaq_s8(a0, xv, vldrbq_s8(w0 + k));
    a1 = vmladavaq_s8(a1, xv, vldrbq_s8(w1 + k));
    a2 = vmladavaq_s8(a2, xv, vldrbq_s8(w2 + k));
    a3 = vmladavaq_s8(a3, xv, vldrbq_s8(w3 + k));
  }
  if (full < depth) {
    const mve_pred16_t p = vctp8q(static_cast<uint32_t>(depth - full));
    const int8x16_t xv = vldrbq_z_s8(x + full, p);
    a0 = vmladavaq_s8(a0, xv, vldrbq_z_s8(w0 + full, p));
    a1 = vmladavaq_s8(a1, xv, vldrbq_z_s8(w1 + full, p));
    a2 = vmladavaq_s8(a2, xv, vldrbq_z_s8(w2 + full, p));
    a3 = vmladavaq_s8(a3, xv, vldrbq_z_s8(w3 + full, p));
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

inline int32_t DotS8One(int32_t depth, const int8_t* x, const int8_t* w) {
  int32_t a = 0;
  const int32_t full = depth & ~15;
  for (int32_t k = 0; k < full; k += 16) a = vmladavaq_s8(a, vldrbq_s8(x + k), vldrbq_s8(w + k));
  if (full < depth) {
    const mve_pred16_t p = vctp8q(static_cast<uint32_t>(depth - full));
    a = vmladavaq_s8(a, vldrbq_z_s8(x + full, p), vldrbq_z_s8(w + full, p));
  }
  return a;
}

}  // namespace

void DotS8Helium(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride, int32_t count,
                 int32_t* acc) {
  int32_t j = 0;
  if (depth >= 16 && depth % 16 == 0 && count >= 4) {  // the models' shapes
    j = count & ~3;
    DotS8FourRowGroups(count / 4, depth / 16, x, w, w_stride, acc);
  }
  for (; j + 4 <= count; j += 4) {
    const int8_t* w0 = w + j * w_stride;
    DotS8Four(depth, x, w0, w0 + w_stride, w0 + 2 * w_stride, w0 + 3 * w_stride, acc + j);
  }
  for (; j < count; ++j) acc[j] = DotS8One(depth, x, w + j * w_stride);
}

// Several activation rows: two at a time against two weight rows (4 accumulators, 4 loads per
// 64 MACs), so each weight vector is read once for both rows.
void DotS8RowsHelium(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                     const int8_t* w, int32_t w_stride, int32_t count, int32_t* acc,
                     int32_t acc_stride) {
  int32_t r = 0;
  for (; r + 2 <= rows; r += 2) {
    const int8_t* x0 = x + r * x_stride;
    const int8_t* x1 = x0 + x_stride;
    int32_t* acc0 = acc + r * acc_stride;
    int32_t* acc1 = acc0 + acc_stride;
    const int32_t full = depth & ~15;
    const mve_pred16_t p = vctp8q(static_cast<uint32_t>(depth - full));
    int32_t j = 0;
    for (; j + 2 <= count; j += 2) {
      const int8_t* w0 = w + j * w_stride;
      const int8_t* w1 = w0 + w_stride;
      int32_t a00 = 0, a01 = 0, a10 = 0, a11 = 0;
      for (int32_t k = 0; k < full; k += 16) {
        const int8x16_t xv0 = vldrbq_s8(x0 + k), xv1 = vldrbq_s8(x1 + k);
        const int8x16_t wv0 = vldrbq_s8(w0 + k), wv1 = vldrbq_s8(w1 + k);
        a00 = vmladavaq_s8(a00, xv0, wv0);
        a01 = vmladavaq_s8(a01, xv0, wv1);
        a10 = vmladavaq_s8(a10, xv1, wv0);
        a11 = vmladavaq_s8(a11, xv1, wv1);
      }
      if (full < depth) {
        const int8x16_t xv0 = vldrbq_z_s8(x0 + full, p), xv1 = vldrbq_z_s8(x1 + full, p);
        const int8x16_t wv0 = vldrbq_z_s8(w0 + full, p), wv1 = vldrbq_z_s8(w1 + full, p);
        a00 = vmladavaq_s8(a00, xv0, wv0);
        a01 = vmladavaq_s8(a01, xv0, wv1);
        a10 = vmladavaq_s8(a10, xv1, wv0);
        a11 = vmladavaq_s8(a11, xv1, wv1);
      }
      acc0[j] = a00;
      acc0[j + 1] = a01;
      acc1[j] = a10;
      acc1[j + 1] = a11;
    }
    if (j < count) {
      DotS8Helium(depth, x0, w + j * w_stride, w_stride, count - j, acc0 + j);
      DotS8Helium(depth, x1, w + j * w_stride, w_stride, count - j, acc1 + j);
    }
  }
  if (r < rows) DotS8Helium(depth, x + r * x_stride, w, w_stride, count, acc + r * acc_stride);
}

// Integer-only MVE (no MVE float, __ARM_FEATURE_MVE bit 1 clear) keeps scalar sums in the
// reference's order.
void DotF32Helium(int32_t depth, const float* x, const float* w, int32_t w_stride, int32_t count,
                  float* acc) {
#if !(__ARM_FEATURE_MVE & 2)
  for (int32_t j = 0; j < count; ++j) {
    float a = 0.0f;
    for (int32_t k = 0; k < depth; ++k) a += x[k] * w[j * w_stride + k];
    acc[j] = a;
  }
#else
  const int32_t full = depth & ~3;
  const mve_pred16_t p = vctp32q(static_cast<uint32_t>(depth - full));
  for (int32_t j = 0; j < count; ++j) {
    const float* row = w + j * w_stride;
    float32x4_t a = vdupq_n_f32(0.0f);
    for (int32_t k = 0; k < full; k += 4) a = vfmaq_f32(a, vld1q_f32(x + k), vld1q_f32(row + k));
    if (full < depth) a = vfmaq_f32(a, vldrwq_z_f32(x + full, p), vldrwq_z_f32(row + full, p));
    acc[j] = (vgetq_lane_f32(a, 0) + vgetq_lane_f32(a, 1)) +
             (vgetq_lane_f32(a, 2) + vgetq_lane_f32(a, 3));
  }
#endif
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_FEATURE_MVE)
