// Reference fixed-point softmax with Q0.15 output from int32 input (docs/INT8.md
// "Attention softmax"): exp of (x - max) in Q0.31, 64-bit sum, one reciprocal, one multiply.
#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {
namespace {

// exp(x - max) in Q0.31 for x, max in Q(int_bits).(31 - int_bits). The difference needs one more
// integer bit: it is halved (rounded) and read as Q(int_bits + 1), so nothing saturates.
inline int32_t ExpOfDifference(int32_t x, int32_t max, int32_t int_bits) {
  const int64_t diff = static_cast<int64_t>(x) - max;  // in [-2^32, 0]
  if (int_bits >= 30) return fxp::ExpOnNegativeValuesQ31(fxp::SaturateToInt32(diff), int_bits);
  return fxp::ExpOnNegativeValuesQ31(static_cast<int32_t>(fxp::RoundingDivideByPOT64(diff, 1)),
                                     int_bits + 1);
}

}  // namespace

void ref_softmax_s32_s16(int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y) {
  int32_t max_value = x[0];
  for (int32_t i = 1; i < n; ++i) max_value = x[i] > max_value ? x[i] : max_value;
  uint64_t sum = 0;
  for (int32_t i = 0; i < n; ++i) {
    sum += static_cast<uint64_t>(ExpOfDifference(x[i], max_value, input_int_bits));
  }
  const fxp::ScaledQ31 reciprocal = fxp::ReciprocalOfSumQ31(sum);
  const int shift = 31 - 15 - reciprocal.exponent;  // >= 15: sum >= exp(0)
  for (int32_t i = 0; i < n; ++i) {
    const int32_t e = ExpOfDifference(x[i], max_value, input_int_bits);
    y[i] = fxp::SaturateToInt16(fxp::RoundingDivideByPOT(
        fxp::SaturatingRoundingDoublingHighMul(e, reciprocal.mantissa), shift));
  }
}

}  // namespace edgenmt
