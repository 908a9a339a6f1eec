#include "kernels/simd/activation_table_s16.h"

#if defined(__x86_64__)
#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {
namespace simd {
namespace {

// Static storage (not the arena): one copy per process, shared by every session.
ActivationTablesS16 g_tables;

bool Fill() {
  for (int32_t x = -32768; x <= 32767; ++x) {
    g_tables.logistic[x + kActivationTableOffset] = fxp::LogisticS16(static_cast<int16_t>(x), 3);
    g_tables.tanh[x + kActivationTableOffset] = fxp::TanhS16(static_cast<int16_t>(x), 3);
  }
  return true;
}

}  // namespace

const ActivationTablesS16& GetActivationTablesS16() {
  static const bool filled = Fill();
  (void)filled;
  return g_tables;
}

namespace {

// The tanh table's entry for a Q(int_bits) value, int_bits in [3, 15].
inline int32_t TableIndex(int32_t x, int32_t int_bits) {
  const int32_t scaled = x * (1 << (int_bits - 3));
  return (scaled < -32768 ? -32768 : scaled > 32767 ? 32767 : scaled) + kActivationTableOffset;
}

bool TableServes(int32_t int_bits) {
  return int_bits >= kTableMinIntBits && int_bits <= kTableMaxIntBits;
}

}  // namespace

void LstmCellS16Table(int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell,
                      int8_t* h, int16_t* h16) {
  if (!TableServes(cell_int_bits)) {
    ref_lstm_cell_s16(hidden, gates, cell_int_bits, cell, h, h16);
    return;
  }
  const ActivationTablesS16& t = GetActivationTablesS16();
  const int16_t* logistic = t.logistic + kActivationTableOffset;
  const int16_t* tanh = t.tanh + kActivationTableOffset;
  for (int32_t j = 0; j < hidden; ++j) {  // ref_lstm_cell_s16's arithmetic, tables for the rest
    const int32_t i = logistic[gates[j]];
    const int32_t f = logistic[gates[hidden + j]];
    const int32_t g = tanh[gates[2 * hidden + j]];
    const int32_t o = logistic[gates[3 * hidden + j]];
    const int32_t f_c = fxp::RoundingDivideByPOT(f * static_cast<int32_t>(cell[j]), 15);
    const int32_t i_g = fxp::RoundingDivideByPOT(i * g, 15 + cell_int_bits);
    const int16_t c_new = fxp::SaturateToInt16(f_c + i_g);
    cell[j] = c_new;
    const int32_t o_tanh_c = o * t.tanh[TableIndex(c_new, cell_int_bits)];
    h[j] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(o_tanh_c, 23));
    if (h16 != nullptr) h16[j] = fxp::SaturateToInt16(fxp::RoundingDivideByPOT(o_tanh_c, 15));
  }
}

void TanhS16Table(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y) {
  if (!TableServes(input_int_bits)) {
    ref_tanh_s16(n, x, input_int_bits, y);
    return;
  }
  const int16_t* tanh = GetActivationTablesS16().tanh;
  for (int32_t i = 0; i < n; ++i) y[i] = tanh[TableIndex(x[i], input_int_bits)];
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
