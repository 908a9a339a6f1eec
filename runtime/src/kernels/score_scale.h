// An int8-full attention score's exact int64 dot product into Q11.20, shared by the reference
// (kernels/reference/attention_s16.cc) and the SIMD backend (kernels/simd/attention_s16.cc).
// Baseline code only (not for the ISA-specific files).
#ifndef EDGENMT_KERNELS_SCORE_SCALE_H_
#define EDGENMT_KERNELS_SCORE_SCALE_H_

#include <stdint.h>

#include "edgenmt/internal/fixed_point.h"

namespace edgenmt {

// dot * 2^to_q20, or dot / 2^-to_q20 rounded (ties away from zero); saturated to int32.
inline int32_t ScaleScoreQ20(int64_t dot, int32_t to_q20) {
  return fxp::SaturateToInt32(to_q20 >= 0 ? dot * (int64_t{1} << to_q20)
                                          : fxp::RoundingDivideByPOT64(dot, -to_q20));
}

}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SCORE_SCALE_H_
