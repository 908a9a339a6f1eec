// local-p's scaled squared distance, shared by the reference Gaussian (kernels/reference/
// local_p_s16.cc) and the SIMD backend's (kernels/simd/softmax_s32.cc), so both compute the
// exp's argument identically. Baseline code only (not for the ISA-specific files).
#ifndef EDGENMT_KERNELS_LOCAL_P_DISTANCE_H_
#define EDGENMT_KERNELS_LOCAL_P_DISTANCE_H_

#include <stdint.h>

#include "edgenmt/internal/fixed_point.h"

namespace edgenmt {

// 2 r^2 in Q3.28 for r = (s - p) / D in Q1.30 (|r| <= 1 inside the window, rounded half away
// from zero): (s - p)^2 / (2 (D/2)^2), the Gaussian's exponent. p in Q15.16, D = half_width.
inline int32_t LocalPScaledSquaredDistance(int32_t s, int32_t p_q16, int32_t half_width) {
  const int64_t d_q16 = (static_cast<int64_t>(s) << 16) - p_q16;
  const int64_t numerator = d_q16 * (int64_t{1} << 14);
  const int64_t half = half_width / 2;
  int64_t r =
      numerator >= 0 ? (numerator + half) / half_width : -((-numerator + half) / half_width);
  r = r > fxp::kInt32Max ? fxp::kInt32Max : (r < -fxp::kInt32Max ? -fxp::kInt32Max : r);
  // r^2 in Q2.29; the same raw bits read as Q3.28 are 2 r^2.
  return fxp::SaturatingRoundingDoublingHighMul(static_cast<int32_t>(r), static_cast<int32_t>(r));
}

}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_LOCAL_P_DISTANCE_H_
