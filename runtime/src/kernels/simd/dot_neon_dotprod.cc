// ARMv8.2 dot-product (SDOT) int8 dot products (simd_dot.h): four signed byte products per
// int32 lane in one instruction, exact. Compiled with +dotprod; run only where the CPU reports
// it (simd_level.cc). Four weight rows share each load of x.
#if defined(__aarch64__)
#include <arm_neon.h>

#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {

void DotS8NeonDotprod(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride,
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
      a0 = vdotq_s32(a0, xv, vld1q_s8(w0 + k));
      a1 = vdotq_s32(a1, xv, vld1q_s8(w1 + k));
      a2 = vdotq_s32(a2, xv, vld1q_s8(w2 + k));
      a3 = vdotq_s32(a3, xv, vld1q_s8(w3 + k));
    }
    int32_t sums[4] = {vaddvq_s32(a0), vaddvq_s32(a1), vaddvq_s32(a2), vaddvq_s32(a3)};
    for (int32_t k = vector_depth; k < depth; ++k) {
      sums[0] += x[k] * w0[k];
      sums[1] += x[k] * w1[k];
      sums[2] += x[k] * w2[k];
      sums[3] += x[k] * w3[k];
    }
    for (int32_t i = 0; i < 4; ++i) acc[j + i] = sums[i];
  }
  for (; j < count; ++j) {
    const int8_t* w0 = w + static_cast<int64_t>(j) * w_stride;
    int32x4_t a0 = vdupq_n_s32(0);
    for (int32_t k = 0; k < vector_depth; k += 16) a0 = vdotq_s32(a0, vld1q_s8(x + k), vld1q_s8(w0 + k));
    int32_t sum = vaddvq_s32(a0);
    for (int32_t k = vector_depth; k < depth; ++k) sum += x[k] * w0[k];
    acc[j] = sum;
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__aarch64__)
