// The last step of int8-full's log-softmax, shared by the reference (kernels/reference/
// log_softmax_s32.cc) and the SIMD backend (kernels/simd/softmax_s32.cc) so both round alike.
// Baseline code only (not for the ISA-specific files).
#ifndef EDGENMT_KERNELS_LOG_SOFTMAX_OUTPUT_H_
#define EDGENMT_KERNELS_LOG_SOFTMAX_OUTPUT_H_

#include <stdint.h>

#include "edgenmt/internal/fixed_point.h"

namespace edgenmt {

// x - max - log(sum) in Q15.16 for x, max in Q(input_int_bits).(31 - input_int_bits) and
// log_sum_q16 = ln(sum of the exp terms) in Q15.16; saturating.
inline int32_t LogSoftmaxOutputQ16(int32_t x, int32_t max_value, int32_t input_int_bits,
                                   int32_t log_sum_q16) {
  const int input_frac_bits = 31 - input_int_bits;
  const int64_t diff = static_cast<int64_t>(x) - max_value;  // <= 0
  const int64_t diff_q16 = input_frac_bits >= 16
                               ? fxp::RoundingDivideByPOT64(diff, input_frac_bits - 16)
                               : diff * (int64_t{1} << (16 - input_frac_bits));
  return fxp::SaturateToInt32(diff_q16 - log_sum_q16);
}

}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_LOG_SOFTMAX_OUTPUT_H_
