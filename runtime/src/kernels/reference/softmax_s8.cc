// Reference TFLite-style int8 softmax: input differences rescaled to Q5.26, output scale 1/256
// with zero point -128 (docs/INT8.md).
#include "edgenmt/fixed_point.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {

void ref_softmax_s8(int32_t n, const int8_t* x, int32_t input_multiplier, int32_t input_shift,
                    int8_t* y) {
  constexpr int kInputIntBits = 5;
  int32_t max_value = x[0];
  for (int32_t i = 1; i < n; ++i) max_value = x[i] > max_value ? x[i] : max_value;
  uint64_t sum = 0;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t diff = fxp::MultiplyByQuantizedMultiplier(x[i] - max_value, input_multiplier,
                                                            input_shift);
    sum += static_cast<uint64_t>(fxp::ExpOnNegativeValuesQ31(diff, kInputIntBits));
  }
  const fxp::ScaledQ31 reciprocal = fxp::ReciprocalOfSumQ31(sum);
  const int shift = 31 - 8 - reciprocal.exponent;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t diff = fxp::MultiplyByQuantizedMultiplier(x[i] - max_value, input_multiplier,
                                                            input_shift);
    const int32_t e = fxp::ExpOnNegativeValuesQ31(diff, kInputIntBits);
    const int32_t p256 = fxp::RoundingDivideByPOT(
        fxp::SaturatingRoundingDoublingHighMul(e, reciprocal.mantissa), shift);
    y[i] = fxp::SaturateToInt8(p256 - 128);
  }
}

}  // namespace edgenmt
