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

}  // namespace

void DotS8NeonDotprod(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride,
                      int32_t count, int32_t* acc) {
  DotS8NeonRows<DotprodStep, true>(depth, x, w, w_stride, count, acc);
}

void DotS8RowsNeonDotprod(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                          const int8_t* w, int32_t w_stride, int32_t count, int32_t* acc,
                          int32_t acc_stride) {
  // 4 x 4: one sdot per step, no temporaries; 16 accumulators fit aarch64's 32 registers.
  DotS8NeonMultiRows<DotprodStep, true, 4, 4>(rows, depth, x, x_stride, w, w_stride, count, acc, acc_stride);
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__aarch64__)
