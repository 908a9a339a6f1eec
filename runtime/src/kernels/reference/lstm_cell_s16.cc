// Reference integer LSTM cell: Q3.12 gate pre-activations, Q0.15 gates, int16 cell state with a
// power-of-two scale, int8 hidden output with scale 2^-7 (docs/INT8.md "LSTM cell").
#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {

void ref_lstm_cell_s16(int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell,
                       int8_t* h, int16_t* h16) {
  constexpr int kGateIntBits = 3;  // Q3.12
  for (int32_t j = 0; j < hidden; ++j) {
    const int32_t i = fxp::LogisticS16(gates[j], kGateIntBits);               // Q0.15
    const int32_t f = fxp::LogisticS16(gates[hidden + j], kGateIntBits);      // Q0.15
    const int32_t g = fxp::TanhS16(gates[2 * hidden + j], kGateIntBits);      // Q0.15
    const int32_t o = fxp::LogisticS16(gates[3 * hidden + j], kGateIntBits);  // Q0.15
    // f * c: Q0.15 * Qc -> Qc after >> 15; i * g: Q0.30 -> Qc = Q(cib).(15 - cib).
    const int32_t f_c = fxp::RoundingDivideByPOT(f * static_cast<int32_t>(cell[j]), 15);
    const int32_t i_g = fxp::RoundingDivideByPOT(i * g, 15 + cell_int_bits);
    const int16_t c_new = fxp::SaturateToInt16(f_c + i_g);
    cell[j] = c_new;
    const int32_t tanh_c = fxp::TanhS16(c_new, cell_int_bits);             // Q0.15
    h[j] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(o * tanh_c, 23));  // Q0.30 -> 2^-7
    if (h16 != nullptr) h16[j] = fxp::SaturateToInt16(fxp::RoundingDivideByPOT(o * tanh_c, 15));
  }
}

}  // namespace edgenmt
