// Reference fixed-point softmax with Q0.15 output, int32 or int16 input (docs/INT8.md
// "Attention softmax"): exp of (x - max) in Q0.31, 64-bit sum, one reciprocal, one multiply.
#include "edgenmt/fixed_point.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {
namespace {

// x - max as int32, saturated (exp of anything that saturates is 0 anyway).
inline int32_t DiffFromMax(int32_t x, int32_t max) {
  return fxp::SaturateToInt32(static_cast<int64_t>(x) - max);
}

}  // namespace

void ref_softmax_s32_s16(int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y) {
  int32_t max_value = x[0];
  for (int32_t i = 1; i < n; ++i) max_value = x[i] > max_value ? x[i] : max_value;
  uint64_t sum = 0;
  for (int32_t i = 0; i < n; ++i) {
    sum += static_cast<uint64_t>(
        fxp::ExpOnNegativeValuesQ31(DiffFromMax(x[i], max_value), input_int_bits));
  }
  const fxp::ScaledQ31 reciprocal = fxp::ReciprocalOfSumQ31(sum);
  const int shift = 31 - 15 - reciprocal.exponent;  // >= 15: sum >= exp(0)
  for (int32_t i = 0; i < n; ++i) {
    const int32_t e = fxp::ExpOnNegativeValuesQ31(DiffFromMax(x[i], max_value), input_int_bits);
    y[i] = fxp::SaturateToInt16(fxp::RoundingDivideByPOT(
        fxp::SaturatingRoundingDoublingHighMul(e, reciprocal.mantissa), shift));
  }
}

void ref_softmax_s16(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y) {
  // Q(m).(15-m) and Q(m).(31-m) share the integer bits: widen by 16 bits, then the int32 path.
  int16_t max_value = x[0];
  for (int32_t i = 1; i < n; ++i) max_value = x[i] > max_value ? x[i] : max_value;
  uint64_t sum = 0;
  for (int32_t i = 0; i < n; ++i) {
    sum += static_cast<uint64_t>(fxp::ExpOnNegativeValuesQ31(
        (static_cast<int32_t>(x[i]) - max_value) * 65536, input_int_bits));
  }
  const fxp::ScaledQ31 reciprocal = fxp::ReciprocalOfSumQ31(sum);
  const int shift = 31 - 15 - reciprocal.exponent;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t e = fxp::ExpOnNegativeValuesQ31(
        (static_cast<int32_t>(x[i]) - max_value) * 65536, input_int_bits);
    y[i] = fxp::SaturateToInt16(fxp::RoundingDivideByPOT(
        fxp::SaturatingRoundingDoublingHighMul(e, reciprocal.mantissa), shift));
  }
}

}  // namespace edgenmt
