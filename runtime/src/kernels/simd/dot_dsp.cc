// DSP-extension dot products (simd_dot.h contracts): SXTB16 sign-extends bytes 0 and 2 (or,
// rotated by 8, bytes 1 and 3) of a 32-bit load into two int16 halves, and SMLAD multiplies
// both halves and adds them to an int32 accumulator: 4 MACs per 2 SMLAD. Four weight rows share
// each extended word of x. Exact for every int8 value (depth <= fxp::kMaxS8DotLength).
#if defined(__ARM_FEATURE_DSP) && !defined(__ARM_FEATURE_MVE) && !defined(__ARM_NEON) && !defined(__aarch64__)
#include <arm_acle.h>
#include <string.h>

#include "kernels/simd/simd_dsp.h"

namespace edgenmt {
namespace simd {
namespace {

inline uint32_t LoadWord(const int8_t* p) {  // unaligned: LDR allows it on these cores
  uint32_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}

// Bytes 1 and 3 sign-extended (SXTB16 with its rotation, one instruction).
inline uint32_t ExtendOdd(uint32_t v) {
  uint32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

// a += x . w over one word: bytes 0 and 2, then 1 and 3.
inline int32_t Smlad4(uint32_t x_even, uint32_t x_odd, uint32_t w, int32_t a) {
  a = __smlad(x_even, __sxtb16(w), a);
  return __smlad(x_odd, ExtendOdd(w), a);
}

// acc[0..3] = x . w0..w3, written out (GCC keeps a loop over an accumulator array in memory).
inline void DotS8Four(int32_t depth, const int8_t* x, const int8_t* w0, const int8_t* w1,
                      const int8_t* w2, const int8_t* w3, int32_t* acc) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  int32_t k = 0;
  for (; k + 4 <= depth; k += 4) {
    const uint32_t xv = LoadWord(x + k);
    const uint32_t x_even = __sxtb16(xv), x_odd = ExtendOdd(xv);
    a0 = Smlad4(x_even, x_odd, LoadWord(w0 + k), a0);
    a1 = Smlad4(x_even, x_odd, LoadWord(w1 + k), a1);
    a2 = Smlad4(x_even, x_odd, LoadWord(w2 + k), a2);
    a3 = Smlad4(x_even, x_odd, LoadWord(w3 + k), a3);
  }
  for (; k < depth; ++k) {
    const int32_t xk = x[k];
    a0 += xk * w0[k];
    a1 += xk * w1[k];
    a2 += xk * w2[k];
    a3 += xk * w3[k];
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
    const int8_t* w0 = w + j * w_stride;
    DotS8Four(depth, x, w0, w0 + w_stride, w0 + 2 * w_stride, w0 + 3 * w_stride, acc + j);
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
