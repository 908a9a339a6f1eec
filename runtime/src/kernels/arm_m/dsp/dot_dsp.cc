// DSP-extension dot products (simd_dot.h contracts): SXTB16 sign-extends bytes 0 and 2 (or,
// rotated by 8, bytes 1 and 3) of a 32-bit load into two int16 halves, and SMLAD multiplies
// both halves and adds them to an int32 accumulator: 4 MACs per 2 SMLAD. Four weight rows share
// each extended word of x. Exact for every int8 value (depth <= fxp::kMaxS8DotLength).
#if defined(__ARM_FEATURE_DSP) && !defined(__ARM_FEATURE_MVE) && !defined(__ARM_NEON) && \
    !defined(__aarch64__)
#include <arm_acle.h>

#include "kernels/arm_m/dsp/dsp_words.h"
#include "kernels/simd/simd_dsp.h"

namespace edgenmt {
namespace simd {
namespace {

// acc[0..3] = x . rows 0..3 of w (w_stride apart). The loop over whole words is written in
// assembly: GCC's own (from the same intrinsics) spills the stride and the bound to the stack,
// 31 instructions per 16 MACs; here two row pointers, rows 1 and 3 addressed as [row 0 or 2 +
// stride], fit the 4 accumulators, both extended halves of x and two weight words in the 14
// core registers: 25 instructions per 16 MACs (x: 1 load, 2 SXTB16; each row: 1 load, 2 SXTB16, 2
// SMLAD; the loop: CMP, BNE), ordered so that no SMLAD waits on the one before it or on a load
// just issued (llvm-mca -mcpu=cortex-m7: 23 cycles per iteration, against 27 in row order).
// The bytes past the last whole word are scalar.
inline void DotS8Four(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride,
                      int32_t* acc) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const int8_t* w0 = w;
  const int8_t* w2 = w + 2 * w_stride;
  const int8_t* const x_words_end = x + (depth & ~3);
  if (x < x_words_end) {
    uint32_t x_even, x_odd, extended, word, word2;
    __asm__(
        "1:\n\t"
        "ldr     %[ext], [%[x]], #4\n\t"
        "ldr     %[word], [%[w0], %[stride]]\n\t"
        "ldr     %[word2], [%[w0]], #4\n\t"
        "sxtb16  %[xe], %[ext]\n\t"
        "sxtb16  %[xo], %[ext], ror #8\n\t"
        "sxtb16  %[ext], %[word]\n\t"
        "smlad   %[a1], %[xe], %[ext], %[a1]\n\t"
        "sxtb16  %[word], %[word], ror #8\n\t"
        "sxtb16  %[ext], %[word2]\n\t"
        "smlad   %[a0], %[xe], %[ext], %[a0]\n\t"
        "smlad   %[a1], %[xo], %[word], %[a1]\n\t"
        "sxtb16  %[word2], %[word2], ror #8\n\t"
        "ldr     %[word], [%[w2], %[stride]]\n\t"
        "smlad   %[a0], %[xo], %[word2], %[a0]\n\t"
        "ldr     %[word2], [%[w2]], #4\n\t"
        "sxtb16  %[ext], %[word]\n\t"
        "smlad   %[a3], %[xe], %[ext], %[a3]\n\t"
        "sxtb16  %[word], %[word], ror #8\n\t"
        "sxtb16  %[ext], %[word2]\n\t"
        "smlad   %[a2], %[xe], %[ext], %[a2]\n\t"
        "smlad   %[a3], %[xo], %[word], %[a3]\n\t"
        "sxtb16  %[word2], %[word2], ror #8\n\t"
        "cmp     %[x], %[end]\n\t"
        "smlad   %[a2], %[xo], %[word2], %[a2]\n\t"
        "bne     1b"
        : [x] "+r"(x), [w0] "+r"(w0), [w2] "+r"(w2), [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2),
          [a3] "+r"(a3), [xe] "=&r"(x_even), [xo] "=&r"(x_odd), [ext] "=&r"(extended),
          [word] "=&r"(word), [word2] "=&r"(word2)
        : [stride] "r"(w_stride), [end] "r"(x_words_end)
        : "cc", "memory");
  }
  for (int32_t k = 0; k < (depth & 3); ++k) {
    const int32_t xk = x[k];
    a0 += xk * w0[k];
    a1 += xk * w0[w_stride + k];
    a2 += xk * w2[k];
    a3 += xk * w2[w_stride + k];
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

inline int32_t DotS8One(int32_t depth, const int8_t* x, const int8_t* w) {
  int32_t a = 0;
  int32_t k = 0;
  for (; k + 4 <= depth; k += 4) {
    const uint32_t xv = LoadWord(x + k);
    a = Smlad4(__sxtb16(xv), ExtendOdd(xv), LoadWord(w + k), a);
  }
  for (; k < depth; ++k) a += static_cast<int32_t>(x[k]) * w[k];
  return a;
}

}  // namespace

void DotS8Dsp(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride, int32_t count,
              int32_t* acc) {
  int32_t j = 0;
  for (; j + 4 <= count; j += 4) {
    DotS8Four(depth, x, w + j * w_stride, w_stride, acc + j);
  }
  for (; j < count; ++j) acc[j] = DotS8One(depth, x, w + j * w_stride);
}

// Four rows per pass over x (its loads shared), each summed in the reference's order.
void DotF32Dsp(int32_t depth, const float* x, const float* w, int32_t w_stride, int32_t count,
               float* acc) {
  int32_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const float* w0 = w + j * w_stride;
    const float* w1 = w0 + w_stride;
    const float* w2 = w1 + w_stride;
    const float* w3 = w2 + w_stride;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    for (int32_t k = 0; k < depth; ++k) {
      const float xk = x[k];
      a0 += xk * w0[k];
      a1 += xk * w1[k];
      a2 += xk * w2[k];
      a3 += xk * w3[k];
    }
    acc[j] = a0;
    acc[j + 1] = a1;
    acc[j + 2] = a2;
    acc[j + 3] = a3;
  }
  for (; j < count; ++j) {
    float a = 0.0f;
    for (int32_t k = 0; k < depth; ++k) a += x[k] * w[j * w_stride + k];
    acc[j] = a;
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif
