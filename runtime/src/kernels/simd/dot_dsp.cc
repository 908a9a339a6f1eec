// DSP-extension dot products (simd_dot.h contracts): SXTB16 sign-extends bytes 0 and 2 (or,
// rotated by 8, bytes 1 and 3) of a 32-bit load into two int16 halves, and SMLAD multiplies
// both halves and adds them to an int32 accumulator: 4 MACs per 2 SMLAD. Four weight rows share
// each extended word of x. Exact for every int8 value (depth <= fxp::kMaxS8DotLength).
#if defined(__ARM_FEATURE_DSP) && !defined(__ARM_NEON) && !defined(__aarch64__)
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

template <int R>
inline void DotS8Block(int32_t depth, const int8_t* x, const int8_t* const* w, int32_t* acc) {
  int32_t a[R] = {};
  int32_t k = 0;
  for (; k + 4 <= depth; k += 4) {
    const uint32_t xv = LoadWord(x + k);
    const uint32_t x_even = __sxtb16(xv), x_odd = ExtendOdd(xv);
    for (int r = 0; r < R; ++r) {
      const uint32_t wv = LoadWord(w[r] + k);
      a[r] = __smlad(x_even, __sxtb16(wv), a[r]);
      a[r] = __smlad(x_odd, ExtendOdd(wv), a[r]);
    }
  }
  for (; k < depth; ++k) {
    for (int r = 0; r < R; ++r) a[r] += static_cast<int32_t>(x[k]) * w[r][k];
  }
  for (int r = 0; r < R; ++r) acc[r] = a[r];
}

}  // namespace

void DotS8Dsp(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride, int32_t count,
              int32_t* acc) {
  int32_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const int8_t* rows[4] = {w + j * w_stride, w + (j + 1) * w_stride, w + (j + 2) * w_stride,
                             w + (j + 3) * w_stride};
    DotS8Block<4>(depth, x, rows, acc + j);
  }
  for (; j < count; ++j) {
    const int8_t* row[1] = {w + j * w_stride};
    DotS8Block<1>(depth, x, row, acc + j);
  }
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
