// Reference fixed-point log-softmax of the generator logits into Q15.16 log-probs, the beam
// score format of the int8-full scheme (docs/INT8.md "Generator").
#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/log_softmax_output.h"

namespace edgenmt {

void ref_log_softmax_s32(int32_t n, const int32_t* x, int32_t input_int_bits, int32_t* y) {
  int32_t max_value = x[0];
  for (int32_t i = 1; i < n; ++i) max_value = x[i] > max_value ? x[i] : max_value;
  uint64_t sum = 0;  // Q0.31 terms
  for (int32_t i = 0; i < n; ++i) {
    // The difference needs one more integer bit: halved and read as Q(int_bits + 1).
    const int64_t diff = static_cast<int64_t>(x[i]) - max_value;
    const int32_t e =
        input_int_bits >= 30
            ? fxp::ExpOnNegativeValuesQ31(fxp::SaturateToInt32(diff), input_int_bits)
            : fxp::ExpOnNegativeValuesQ31(static_cast<int32_t>(fxp::RoundingDivideByPOT64(diff, 1)),
                                          input_int_bits + 1);
    sum += static_cast<uint64_t>(e);
  }
  const int32_t log_sum_q16 = fxp::LogPositiveQ(sum, 31, 16);  // in [0, ln n]
  for (int32_t i = 0; i < n; ++i)
    y[i] = LogSoftmaxOutputQ16(x[i], max_value, input_int_bits, log_sum_q16);
}

}  // namespace edgenmt
