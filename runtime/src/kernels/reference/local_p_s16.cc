// Reference fixed-point local-p attention pieces (docs/MODEL.md "attend", docs/INT8.md
// "local-p"): the predicted position p_t in Q15.16, its window, and the Gaussian factor.
#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/local_p_distance.h"

namespace edgenmt {

int32_t ref_local_p_position_q16(int32_t logit, int32_t logit_int_bits, int32_t source_length) {
  const int32_t sigma_q31 = fxp::LogisticQ31(logit, logit_int_bits);
  // p = S * sigma: Q0.31 * integer -> Q15.16 after >> 15.
  return static_cast<int32_t>(
      fxp::RoundingDivideByPOT64(static_cast<int64_t>(sigma_q31) * source_length, 15));
}

void ref_local_p_window(int32_t p_q16, int32_t half_width, int32_t source_length, int32_t* lo,
                        int32_t* hi) {
  const int64_t low_edge = static_cast<int64_t>(p_q16) - (static_cast<int64_t>(half_width) << 16);
  const int64_t high_edge = static_cast<int64_t>(p_q16) + (static_cast<int64_t>(half_width) << 16);
  const int64_t ceil_low = (low_edge + 0xFFFF) >> 16;  // arithmetic shift = floor
  const int64_t floor_high = high_edge >> 16;
  *lo = static_cast<int32_t>(ceil_low < 0 ? 0 : ceil_low);
  *hi = static_cast<int32_t>(floor_high > source_length - 1 ? source_length - 1 : floor_high);
}

void ref_local_p_gaussian_s16(int32_t lo, int32_t hi, int32_t p_q16, int32_t half_width,
                              int16_t* weights) {
  for (int32_t s = lo; s <= hi; ++s) {
    const int32_t r_squared = LocalPScaledSquaredDistance(s, p_q16, half_width);
    const int32_t gaussian = fxp::ExpOnNegativeValuesQ31(-r_squared, 3);  // Q0.31
    weights[s - lo] =
        static_cast<int16_t>(fxp::SaturatingRoundingDoublingHighMul(weights[s - lo], gaussian));
  }
}

}  // namespace edgenmt
