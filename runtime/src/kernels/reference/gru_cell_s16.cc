// Reference integer GRU cell: Q3.12 input/hidden projections, gates in Q0.15, the state kept in
// Q0.15 (it is the cell's only memory), an int8 copy with scale 2^-7 for the next matmuls
// (docs/INT8.md "GRU cell").
#include "edgenmt/fixed_point.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {
namespace {

// Sums of two Q3.12 values lie in (-16, 16): evaluated in Q4.27 so nothing saturates.
inline int32_t SigmoidOfSumQ15(int32_t sum_q12) {
  return fxp::RoundingDivideByPOT(fxp::LogisticQ31(sum_q12 * 32768, 4), 16);
}
inline int32_t TanhOfSumQ15(int32_t sum_q12) {
  return fxp::RoundingDivideByPOT(fxp::TanhQ31(sum_q12 * 32768, 4), 16);
}

}  // namespace

void ref_gru_cell_s16(int32_t hidden, const int16_t* gi, const int16_t* gh, int16_t* state,
                      int8_t* h_s8) {
  for (int32_t j = 0; j < hidden; ++j) {
    const int32_t r = SigmoidOfSumQ15(static_cast<int32_t>(gi[j]) + gh[j]);
    const int32_t z = SigmoidOfSumQ15(static_cast<int32_t>(gi[hidden + j]) + gh[hidden + j]);
    // r * gh_n: Q0.15 * Q3.12 -> Q3.12 after >> 15.
    const int32_t r_ghn = fxp::RoundingDivideByPOT(r * static_cast<int32_t>(gh[2 * hidden + j]), 15);
    const int32_t n = TanhOfSumQ15(static_cast<int32_t>(gi[2 * hidden + j]) + r_ghn);
    // h' = (1 - z) n + z h = n + z (h - n), all Q0.15.
    const int32_t h_prev = state[j];
    const int32_t h_new = n + fxp::RoundingDivideByPOT(z * (h_prev - n), 15);
    const int16_t h16 = fxp::SaturateToInt16(h_new);
    state[j] = h16;
    h_s8[j] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(h16, 8));
  }
}

}  // namespace edgenmt
