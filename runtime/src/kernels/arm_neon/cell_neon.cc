// NEON int8-full LSTM cell and tanh (simd_cell.h), ARMv7-A and ARMv8-A: the table-interpolated
// logistic / tanh of edgenmt/internal/fixed_point.h on 4 int32 lanes (every intermediate fits 32
// bits). vqmovn saturates to int16 / int8, and a rounding shift (ties up) of x - [x < 0] is
// RoundingDivideByPOT (ties away from zero). Each function mirrors the scalar one with the same
// name. Bit-exact: tests/kernels_simd_test.cc.
#if defined(__ARM_NEON)
#include <arm_neon.h>
#include <string.h>

#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/arm_neon/fixed_point_neon.h"
#include "kernels/simd/simd_cell.h"

namespace edgenmt {
namespace simd {
namespace {

// Entries i and i + 1 of the tanh table for 4 indices in [0, kTanhTableLast], as
// T[i] | T[i + 1] << 16 (lane loads: NEON has no gather; the table's spare entry keeps the
// last pair in bounds).
inline V TablePairs(V index) {
  int32_t i[4];
  vst1q_s32(i, index);
  uint32_t pairs[4];
  for (int l = 0; l < 4; ++l) memcpy(&pairs[l], &fxp::kTanhTableQ16[i[l]], sizeof(pairs[l]));
  return vreinterpretq_s32_u32(vld1q_u32(pairs));
}

// fxp::TanhTableInterpolated on 4 lanes, a in [0, 2^15].
inline V TanhTableInterpolated(V a, int frac_bits) {
  const int s = fxp::TanhTableExtraBits(frac_bits);
  const V position = vshlq_s32(a, Set(frac_bits >= 7 ? -s : 7 - frac_bits));
  const uint32x4_t past_end = vcgeq_s32(position, Set(fxp::kTanhTableLast));
  const V index = vminq_s32(position, Set(fxp::kTanhTableLast));
  const V fraction =
      frac_bits >= 7 ? vbslq_s32(past_end, Set(0), vandq_s32(a, Set((1 << s) - 1))) : Set(0);
  const V pairs = TablePairs(index);
  const V lo = vandq_s32(pairs, Set(0xFFFF));
  const V hi = vreinterpretq_s32_u32(vshrq_n_u32(vreinterpretq_u32_s32(pairs), 16));
  return vaddq_s32(vshlq_s32(lo, Set(s)), vmulq_s32(vsubq_s32(hi, lo), fraction));
}

// fxp::TanhS16 / fxp::LogisticS16 of 4 int16 values, results in int32 lanes.
inline V TanhS16(int16x4_t x16, int int_bits) {
  const V x = vmovl_s16(x16);
  const int s = fxp::TanhTableExtraBits(15 - int_bits);
  const V w = TanhTableInterpolated(vabsq_s32(x), 15 - int_bits);
  const V magnitude = vminq_s32(vshlq_s32(vaddq_s32(w, Set(1 << s)), Set(-(s + 1))), Set(32767));
  return vbslq_s32(vcltq_s32(x, Set(0)), vnegq_s32(magnitude), magnitude);
}
inline V LogisticS16(int16x4_t x16, int int_bits) {
  const V x = vmovl_s16(x16);
  const int s = fxp::TanhTableExtraBits(16 - int_bits);
  const V w = TanhTableInterpolated(vabsq_s32(x), 16 - int_bits);
  const V p = vshlq_s32(vaddq_s32(w, Set((1 << (s + 16)) + (1 << (s + 1)))), Set(-(s + 2)));
  return vbslq_s32(vcltq_s32(x, Set(0)), vsubq_s32(Set(32768), p), vminq_s32(p, Set(32767)));
}

// Four units of ref_lstm_cell_s16 (gate blocks `hidden` apart).
inline void LstmCell4(const int16_t* gates, int32_t hidden, int cell_int_bits, int16_t* cell,
                      int8_t* h, int16_t* h16) {
  constexpr int kGateIntBits = 3;
  const V i = LogisticS16(vld1_s16(gates), kGateIntBits);
  const V f = LogisticS16(vld1_s16(gates + hidden), kGateIntBits);
  const V g = TanhS16(vld1_s16(gates + 2 * hidden), kGateIntBits);
  const V o = LogisticS16(vld1_s16(gates + 3 * hidden), kGateIntBits);
  const V f_c = RoundingDivideByPOT(vmulq_s32(f, vmovl_s16(vld1_s16(cell))), 15);
  const V i_g = RoundingDivideByPOT(vmulq_s32(i, g), 15 + cell_int_bits);
  const int16x4_t c_new = vqmovn_s32(vaddq_s32(f_c, i_g));
  vst1_s16(cell, c_new);
  const V o_tanh_c = vmulq_s32(o, TanhS16(c_new, cell_int_bits));
  // Saturating to int16, then to int8, is saturating to int8.
  const int16x4_t h_wide = vqmovn_s32(RoundingDivideByPOT(o_tanh_c, 23));
  int8_t h_block[8];
  vst1_s8(h_block, vqmovn_s16(vcombine_s16(h_wide, h_wide)));
  for (int t = 0; t < 4; ++t) h[t] = h_block[t];
  if (h16 != nullptr) vst1_s16(h16, vqmovn_s32(RoundingDivideByPOT(o_tanh_c, 15)));
}

// The vector path's int-bits range (as cell_avx512.cc).
constexpr int32_t kMaxVectorIntBits = 15;

}  // namespace

void LstmCellS16Neon(int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell,
                     int8_t* h, int16_t* h16) {
  if (cell_int_bits < 0 || cell_int_bits > kMaxVectorIntBits) {
    ref_lstm_cell_s16(hidden, gates, cell_int_bits, cell, h, h16);
    return;
  }
  int32_t j = 0;
  for (; j + 4 <= hidden; j += 4) {
    LstmCell4(gates + j, hidden, cell_int_bits, cell + j, h + j,
              h16 != nullptr ? h16 + j : nullptr);
  }
  if (j < hidden) {  // the last units through padded copies of their gates and state
    const int32_t n = hidden - j;
    int16_t gate_block[4 * 4] = {}, cell_block[4] = {}, h16_block[4];
    int8_t h_block[4];
    for (int32_t t = 0; t < n; ++t) {
      for (int32_t gate = 0; gate < 4; ++gate)
        gate_block[gate * 4 + t] = gates[gate * hidden + j + t];
      cell_block[t] = cell[j + t];
    }
    LstmCell4(gate_block, 4, cell_int_bits, cell_block, h_block, h16_block);
    for (int32_t t = 0; t < n; ++t) {
      cell[j + t] = cell_block[t];
      h[j + t] = h_block[t];
      if (h16 != nullptr) h16[j + t] = h16_block[t];
    }
  }
}

void TanhS16Neon(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y) {
  if (input_int_bits < 0 || input_int_bits > kMaxVectorIntBits) {
    ref_tanh_s16(n, x, input_int_bits, y);
    return;
  }
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) vst1_s16(y + i, vqmovn_s32(TanhS16(vld1_s16(x + i), input_int_bits)));
  if (i < n) {
    int16_t block[4] = {};
    for (int32_t t = 0; t < n - i; ++t) block[t] = x[i + t];
    vst1_s16(block, vqmovn_s32(TanhS16(vld1_s16(block), input_int_bits)));
    for (int32_t t = 0; t < n - i; ++t) y[i + t] = block[t];
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
