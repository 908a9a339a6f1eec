// Reference integer GRU cell: Q3.12 input/hidden projections, gates in Q0.15, the state kept in
// Q0.15 (it is the cell's only memory), an int8 copy with scale 2^-7 for the next matmuls
// (docs/INT8.md "GRU cell").
#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {
void ref_gru_cell_s16(int32_t hidden, const int16_t* gi, const int16_t* gh, int16_t* state,
                      int8_t* h_s8) {
  // Gates are kept in Q0.31 inside the cell (one rounding at the end). Sums of two Q3.12 values
  // lie in (-16, 16) and are evaluated in Q4.27 so nothing saturates.
  for (int32_t j = 0; j < hidden; ++j) {
    const int32_t r = fxp::LogisticQ31((static_cast<int32_t>(gi[j]) + gh[j]) * 32768, 4);
    const int32_t z =
        fxp::LogisticQ31((static_cast<int32_t>(gi[hidden + j]) + gh[hidden + j]) * 32768, 4);
    // r * gh_n: Q0.31 * Q4.27 -> Q4.27 (high multiply, no rounding to Q3.12 in between).
    const int32_t r_ghn = fxp::SaturatingRoundingDoublingHighMul(r, gh[2 * hidden + j] * 32768);
    const int32_t n = fxp::TanhQ31(static_cast<int32_t>(gi[2 * hidden + j]) * 32768 + r_ghn, 4);
    // h' = n + z (h - n) in Q1.30 (h - n lies in (-2, 2)), then rounded to Q0.15.
    const int32_t n_q30 = fxp::RoundingDivideByPOT(n, 1);
    const int32_t h_minus_n = static_cast<int32_t>(state[j]) * 32768 - n_q30;
    const int32_t h_new_q30 = n_q30 + fxp::SaturatingRoundingDoublingHighMul(z, h_minus_n);
    const int16_t h16 = fxp::SaturateToInt16(fxp::RoundingDivideByPOT(h_new_q30, 15));
    state[j] = h16;
    h_s8[j] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(h16, 8));
  }
}

}  // namespace edgenmt
