// NEON int8-full LSTM cell and tanh (simd_cell.h), ARMv7-A and ARMv8-A: the fixed-point
// logistic / tanh of edgenmt/fixed_point.h on 4 int32 lanes. NEON has the scalar primitives'
// exact semantics in single instructions: vqrdmulh is SaturatingRoundingDoublingHighMul,
// vqadd / vqshl saturate to int32, vqmovn to int16 / int8, and a rounding shift (ties up) of
// x - [x < 0] is RoundingDivideByPOT (ties away from zero). Each function mirrors the scalar
// one with the same name; intermediates that the scalar code forms in 64 bits are rewritten so
// they fit 32 (noted where). Bit-exact: tests/kernels_simd_test.cc.
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "kernels/kernels_s8.h"
#include "kernels/simd/simd_cell.h"

namespace edgenmt {
namespace simd {
namespace {

using V = int32x4_t;

constexpr int32_t kQ31One = 2147483647;
constexpr int32_t kQ31Half = 1 << 30;

inline V Set(int32_t v) { return vdupq_n_s32(v); }
inline V SaturatingRoundingDoublingHighMul(V a, V b) { return vqrdmulhq_s32(a, b); }

inline V RoundingDivideByPOT(V x, int exponent) {
  const V shift = Set(-exponent);
  const V fixup = vshrq_n_s32(vandq_s32(x, shift), 31);  // -1 where x < 0 (exponent > 0)
  return vrshlq_s32(vqaddq_s32(x, fixup), shift);
}

inline V ExpOnIntervalNegativeQuarterTo0Q31(V a) {
  const V exp_minus_one_eighth = Set(1895147668);
  const V x = vaddq_s32(a, Set(1 << 28));
  const V x2 = SaturatingRoundingDoublingHighMul(x, x);
  const V x3 = SaturatingRoundingDoublingHighMul(x2, x);
  const V x4 = SaturatingRoundingDoublingHighMul(x2, x2);
  const V x5 = SaturatingRoundingDoublingHighMul(x4, x);
  const V t5 = vaddq_s32(SaturatingRoundingDoublingHighMul(x5, Set(429496730)), x4);
  const V t4 = vaddq_s32(RoundingDivideByPOT(t5, 2), x3);
  const V t3 = vaddq_s32(SaturatingRoundingDoublingHighMul(t4, Set(715827883)), x2);
  const V poly = RoundingDivideByPOT(t3, 1);
  return vaddq_s32(exp_minus_one_eighth,
                   SaturatingRoundingDoublingHighMul(exp_minus_one_eighth, vaddq_s32(x, poly)));
}

// a <= 0 in Q(int_bits).(31 - int_bits), int_bits in [0, 28].
inline V ExpOnNegativeValuesQ31(V a, int int_bits) {
  static constexpr int32_t kExpMinusPow2[7] = {1672461947, 1302514674, 790015084, 290630308,
                                               39332535,   720401,     242};
  const int frac_bits = 31 - int_bits;
  const int32_t one_quarter = 1 << (frac_bits - 2);
  const V a_mod_quarter_minus_quarter =
      vsubq_s32(vandq_s32(a, Set(one_quarter - 1)), Set(one_quarter));
  // (in [-2^29, 0): the scalar code's 64-bit product fits 32 bits)
  V result = ExpOnIntervalNegativeQuarterTo0Q31(vshlq_s32(a_mod_quarter_minus_quarter, Set(int_bits)));
  const V remainder = vsubq_s32(a_mod_quarter_minus_quarter, a);
  for (int k = -2; k < int_bits; ++k) {
    const int bit = frac_bits + k;
    if (bit > 30) break;
    const uint32x4_t set = vtstq_s32(remainder, Set(1 << bit));
    const V multiplied = k > 4 ? Set(0) : SaturatingRoundingDoublingHighMul(result, Set(kExpMinusPow2[k + 2]));
    result = vbslq_s32(set, multiplied, result);
  }
  return vbslq_s32(vcgeq_s32(a, Set(0)), Set(kQ31One), result);
}

inline V OneOverOnePlusXQ31(V x) {
  // (x + 2^31) / 2 for x in [-2^31, 2^31): floor(x / 2) + 2^30 (the scalar code uses 64 bits).
  const V half_denominator = vaddq_s32(vshrq_n_s32(x, 1), Set(1 << 30));
  V r = vaddq_s32(Set(1515870810), SaturatingRoundingDoublingHighMul(half_denominator, Set(-1010580540)));
  for (int i = 0; i < 3; ++i) {
    const V d_times_r = SaturatingRoundingDoublingHighMul(half_denominator, r);
    const V one_minus = vsubq_s32(Set(1 << 29), d_times_r);
    const V correction = SaturatingRoundingDoublingHighMul(r, one_minus);
    r = vqaddq_s32(r, vqshlq_n_s32(correction, 2));
  }
  return vqshlq_n_s32(r, 1);
}

inline V LogisticQ31(V a, int int_bits) {
  const V e = ExpOnNegativeValuesQ31(vnegq_s32(vqabsq_s32(a)), int_bits);
  const V positive = OneOverOnePlusXQ31(e);
  const V y = vbslq_s32(vcgtq_s32(a, Set(0)), positive, vsubq_s32(Set(kQ31One), positive));
  return vbslq_s32(vceqq_s32(a, Set(0)), Set(kQ31Half), y);
}

inline V TanhQ31(V a, int int_bits) {
  const V e = ExpOnNegativeValuesQ31(vnegq_s32(vqabsq_s32(a)), int_bits + 1);
  const V r = OneOverOnePlusXQ31(e);
  const V positive = vqshlq_n_s32(vsubq_s32(r, Set(kQ31Half)), 1);
  const V y = vbslq_s32(vcgtq_s32(a, Set(0)), positive, vnegq_s32(positive));
  return vbslq_s32(vceqq_s32(a, Set(0)), Set(0), y);
}

inline V LogisticS16(int16x4_t x, int int_bits) {
  return vmovl_s16(vqmovn_s32(RoundingDivideByPOT(LogisticQ31(vshlq_n_s32(vmovl_s16(x), 16), int_bits), 16)));
}
inline V TanhS16(int16x4_t x, int int_bits) {
  return vmovl_s16(vqmovn_s32(RoundingDivideByPOT(TanhQ31(vshlq_n_s32(vmovl_s16(x), 16), int_bits), 16)));
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
    LstmCell4(gates + j, hidden, cell_int_bits, cell + j, h + j, h16 != nullptr ? h16 + j : nullptr);
  }
  if (j < hidden) {  // the last units through padded copies of their gates and state
    const int32_t n = hidden - j;
    int16_t gate_block[4 * 4] = {}, cell_block[4] = {}, h16_block[4];
    int8_t h_block[4];
    for (int32_t t = 0; t < n; ++t) {
      for (int32_t gate = 0; gate < 4; ++gate) gate_block[gate * 4 + t] = gates[gate * hidden + j + t];
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
