// Fixed-point functions on fixed_point.h's rounding primitives: exp on negative values,
// reciprocals, logistic and tanh (computed and from the table), and the natural log. Integers
// only, bit-identical on every target (the notation and rounding rules: fixed_point.h, which
// includes this file; include either).
#ifndef EDGENMT_FIXED_POINT_FUNCTIONS_H_
#define EDGENMT_FIXED_POINT_FUNCTIONS_H_

#include <stdint.h>

#include "edgenmt/internal/fixed_point.h"
#include "edgenmt/internal/fixed_point_tanh_table.h"

namespace edgenmt {
namespace fxp {

// ---- exp on negative values -------------------------------------------------------------------

// exp(a) for a in [-1/4, 0), a and the result in Q0.31. Taylor series of degree 5 around -1/8
// (truncation error (1/8)^6 / 720 < 5e-9; the rest is rounding at 2^-31 per operation).
constexpr int32_t ExpOnIntervalNegativeQuarterTo0Q31(int32_t a) {
  constexpr int32_t kExpMinusOneEighth = 1895147668;  // exp(-1/8) in Q0.31
  constexpr int32_t kOneThird = 715827883;            // 1/3 in Q0.31
  constexpr int32_t kOneFifth = 429496730;            // 1/5 in Q0.31
  const int32_t x = a + (1 << 28);                    // a + 1/8, in [-1/8, 1/8)
  const int32_t x2 = SaturatingRoundingDoublingHighMul(x, x);
  const int32_t x3 = SaturatingRoundingDoublingHighMul(x2, x);
  const int32_t x4 = SaturatingRoundingDoublingHighMul(x2, x2);
  const int32_t x5 = SaturatingRoundingDoublingHighMul(x4, x);
  // x^2/2 + x^3/6 + x^4/24 + x^5/120 = (((x^5/5 + x^4)/4 + x^3)/3 + x^2)/2 (Horner).
  const int32_t t5 = SaturatingRoundingDoublingHighMul(x5, kOneFifth) + x4;
  const int32_t t4 = RoundingDivideByPOT(t5, 2) + x3;
  const int32_t t3 = SaturatingRoundingDoublingHighMul(t4, kOneThird) + x2;
  const int32_t poly = RoundingDivideByPOT(t3, 1);
  return kExpMinusOneEighth + SaturatingRoundingDoublingHighMul(kExpMinusOneEighth, x + poly);
}

// exp(a) for a <= 0 given in Q(int_bits).(31 - int_bits), int_bits in [0, 30]; result in Q0.31.
// Splits -a into its multiple-of-1/4 part (multiplied in bit by bit as exp(-2^k) constants) and
// a remainder in [-1/4, 0). Values with a > 0 are treated as 0 (precondition violated).
constexpr int32_t ExpOnNegativeValuesQ31(int32_t a, int int_bits) {
  if (a >= 0) return kQ31One;
  const int frac_bits = 31 - int_bits;
  // exp(-2^k) in Q0.31 for k = -2 .. 4; exp(-32) and below round to 0.
  constexpr int32_t kExpMinusPow2[7] = {1672461947, 1302514674, 790015084, 290630308,
                                        39332535,   720401,     242};
  if (frac_bits < 2) {
    // Too few fractional bits for the quarter split: every nonzero input is <= -2.
    // Rescale into Q(30 - 2).2 is impossible without losing range, so handle via int64 shift.
    // Multiply, not shift: a left shift of a negative value is undefined before C++20.
    const int64_t scaled =
        static_cast<int64_t>(a) * (int64_t{1} << (2 - frac_bits));  // 2 frac bits
    if (scaled < -(int64_t{32} << 2)) return 0;
    return ExpOnNegativeValuesQ31(static_cast<int32_t>(scaled), 29);
  }
  const int32_t one_quarter = static_cast<int32_t>(int64_t{1} << (frac_bits - 2));
  const int32_t mask = one_quarter - 1;
  const int32_t a_mod_quarter_minus_quarter = (a & mask) - one_quarter;  // in [-1/4, 0)
  int32_t result = ExpOnIntervalNegativeQuarterTo0Q31(
      static_cast<int32_t>(static_cast<int64_t>(a_mod_quarter_minus_quarter) *
                           (int64_t{1} << int_bits)));        // negative: multiply, not shift
  const int32_t remainder = a_mod_quarter_minus_quarter - a;  // >= 0, multiple of 1/4
  for (int k = -2; k < int_bits; ++k) {
    const int bit = frac_bits + k;
    if (bit > 30) break;
    if ((remainder >> bit) & 1) {
      if (k > 4) return 0;  // exp(-32) < 2^-31
      result = SaturatingRoundingDoublingHighMul(result, kExpMinusPow2[k + 2]);
    }
  }
  return result;
}

// ---- reciprocal -------------------------------------------------------------------------------

// 1 / (1 + x) for x in [0, 1) (Q0.31), result in (1/2, 1] (Q0.31). Three Newton-Raphson steps
// on the half denominator, started from the minimax linear estimate 48/17 - 32/17 d.
constexpr int32_t OneOverOnePlusXQ31(int32_t x) {
  constexpr int32_t kQ29One = 1 << 29;
  constexpr int32_t k48Over17 = 1515870810;        // Q2.29
  constexpr int32_t kMinus32Over17 = -1010580540;  // Q2.29
  // (1 + x) / 2 in Q0.31, rounded.
  const int32_t half_denominator =
      static_cast<int32_t>((static_cast<int64_t>(x) + kQ31One + 1) / 2);
  int32_t r = k48Over17 + SaturatingRoundingDoublingHighMul(half_denominator, kMinus32Over17);
  for (int i = 0; i < 3; ++i) {
    const int32_t d_times_r = SaturatingRoundingDoublingHighMul(half_denominator, r);  // Q2.29
    const int32_t one_minus = kQ29One - d_times_r;                                     // Q2.29
    const int32_t correction = SaturatingRoundingDoublingHighMul(r, one_minus);        // Q4.27
    r = SaturatingAdd(r, SaturatingLeftShift(correction, 2));                          // Q2.29
  }
  // r ~ 1 / half_denominator = 2 / (1 + x) in Q2.29; 1 / (1 + x) in Q0.31 is r * 2.
  return SaturatingLeftShift(r, 1);
}

// A positive value v written as mantissa * 2^exponent with mantissa in Q0.31.
struct ScaledQ31 {
  int32_t mantissa;
  int exponent;
};

// 1 / v for v > 0 given as x in Q(int_bits).(31 - int_bits): returns m in (1/2, 1] (Q0.31) and
// e such that 1/v = m * 2^e. Used for softmax normalisation.
constexpr ScaledQ31 ReciprocalQ31(int32_t x, int int_bits) {
  if (x <= 0) return ScaledQ31{kQ31One, 31};                      // precondition violated: saturate
  const int clz = CountLeadingZeros32(static_cast<uint32_t>(x));  // >= 1
  // v = m * 2^(int_bits - clz) with m = (x << clz) / 2^31 in [1, 2).
  const uint32_t normalized = static_cast<uint32_t>(x) << clz;
  const int32_t m_minus_one = static_cast<int32_t>(normalized - 0x80000000u);  // Q0.31
  return ScaledQ31{OneOverOnePlusXQ31(m_minus_one), clz - int_bits};
}

// 1 / v for a sum of Q0.31 values v = sum / 2^31 held in 64 bits (sum > 0), as m in (1/2, 1]
// (Q0.31) and e with 1/v = m * 2^e. Softmax: p_i = e_i / v, so in Q0.n
// p_i = RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(e_i, m), 31 - n - e).
constexpr ScaledQ31 ReciprocalOfSumQ31(uint64_t sum) {
  if (sum == 0) return ScaledQ31{kQ31One, 31};
  const int msb = 63 - CountLeadingZeros64(sum);
  const uint64_t rest = sum - (uint64_t{1} << msb);
  const int32_t m_minus_one =
      static_cast<int32_t>(msb >= 31 ? (rest >> (msb - 31)) : (rest << (31 - msb)));
  return ScaledQ31{OneOverOnePlusXQ31(m_minus_one), 31 - msb};
}

// ---- logistic and tanh ------------------------------------------------------------------------

// sigmoid(a) with a in Q(int_bits).(31 - int_bits), int_bits in [0, 30]; result in Q0.31.
constexpr int32_t LogisticQ31(int32_t a, int int_bits) {
  if (a == 0) return kQ31Half;
  const int32_t abs_a = a > 0 ? a : (a == kInt32Min ? kInt32Max : -a);
  const int32_t e = ExpOnNegativeValuesQ31(-abs_a, int_bits);  // exp(-|a|) in (0, 1)
  const int32_t positive = OneOverOnePlusXQ31(e);              // 1 / (1 + exp(-|a|))
  return a > 0 ? positive : kQ31One - positive;
}

// tanh(a) with a in Q(int_bits).(31 - int_bits), int_bits in [0, 29]; result in Q0.31.
// tanh|a| = 2 / (1 + exp(-2|a|)) - 1; exp(-2|a|) reads the same raw bits as Q(int_bits+1).
constexpr int32_t TanhQ31(int32_t a, int int_bits) {
  if (a == 0) return 0;
  const int32_t abs_a = a > 0 ? a : (a == kInt32Min ? kInt32Max : -a);
  const int32_t e = ExpOnNegativeValuesQ31(-abs_a, int_bits + 1);
  const int32_t r = OneOverOnePlusXQ31(e);  // in (1/2, 1]
  const int32_t positive = SaturatingLeftShift(r - kQ31Half, 1);
  return a > 0 ? positive : -positive;
}

// int16 forms used by the int8-full cells: input Q(int_bits).(15 - int_bits), int_bits in
// [0, 15] (Q3.12 for gate pre-activations), output Q0.15. Both read one 1,025-entry table of
// tanh on [0, 8] in Q0.16 (fixed_point_tanh_table.h, 2 KiB) with linear interpolation, exact in
// integers until the one final rounding, so a microcontroller needs no 128 KiB table and every
// target, vector or scalar, computes the same bits. Error vs. the real functions: below 1 LSB
// (2^-15): tanh <= 0.19 (interpolation) + 0.25 (table) + 0.5 (rounding) LSB; sigmoid
// (1/2 + tanh(x/2)/2) about 0.72 LSB (tests/fixed_point_test.cc checks all inputs).

// Fraction bits the interpolation keeps beyond the table's Q0.16 for an input with
// `frac_bits` fraction bits (the table has 7: 128 steps per unit).
constexpr int TanhTableExtraBits(int frac_bits) { return frac_bits > 7 ? frac_bits - 7 : 0; }

// tanh(a / 2^frac_bits) for 0 <= a <= 2^15, frac_bits in [0, 16], in
// Q0.(16 + TanhTableExtraBits(frac_bits)), unrounded: entry i = floor(a / 2^s) plus the next
// entry's difference times the remaining s bits; inputs at or past 8 read the last entry.
constexpr int32_t TanhTableInterpolated(int32_t a, int frac_bits) {
  const int s = TanhTableExtraBits(frac_bits);
  const int32_t i = frac_bits >= 7 ? (a >> s) : (a << (7 - frac_bits));
  if (i >= kTanhTableLast) return static_cast<int32_t>(kTanhTableQ16[kTanhTableLast]) << s;
  const int32_t f = frac_bits >= 7 ? (a & ((1 << s) - 1)) : 0;
  const int32_t lo = kTanhTableQ16[i];
  return (lo << s) + (static_cast<int32_t>(kTanhTableQ16[i + 1]) - lo) * f;
}

constexpr int16_t TanhS16(int16_t x, int int_bits) {
  const int32_t a = x < 0 ? -static_cast<int32_t>(x) : x;
  const int s = TanhTableExtraBits(15 - int_bits);
  const int32_t w = TanhTableInterpolated(a, 15 - int_bits);  // Q0.(16 + s)
  const int32_t rounded = (w + (1 << s)) >> (s + 1);          // Q0.15, ties up
  const int32_t magnitude = rounded > 32767 ? 32767 : rounded;
  return static_cast<int16_t>(x < 0 ? -magnitude : magnitude);
}

// sigmoid(x) = 1/2 + tanh(x / 2) / 2: x / 2 is the same bits with one more fraction bit.
// sigmoid(-x) = 1 - sigmoid(x), exactly.
constexpr int16_t LogisticS16(int16_t x, int int_bits) {
  const int32_t a = x < 0 ? -static_cast<int32_t>(x) : x;
  const int s = TanhTableExtraBits(16 - int_bits);
  const int32_t w = TanhTableInterpolated(a, 16 - int_bits);            // Q0.(16 + s)
  const int32_t p = ((1 << (s + 16)) + w + (1 << (s + 1))) >> (s + 2);  // Q0.15, in [2^14, 2^15]
  return static_cast<int16_t>(x < 0 ? 32768 - p : (p > 32767 ? 32767 : p));
}

// ---- natural log --------------------------------------------------------------------------------

// ln(m) for m in [1, 2) given as m_minus_one in Q0.31 (m - 1); result in Q0.31, in [0, ln 2).
// ln m = 2 atanh(y), y = (m - 1) / (m + 1) in [0, 1/3): the odd series until terms vanish.
constexpr int32_t LogOneToTwoQ31(int32_t m_minus_one) {
  if (m_minus_one <= 0) return 0;
  // y = (m - 1) / (m + 1) in Q0.31: exact integer division (deterministic everywhere).
  const int64_t numerator = static_cast<int64_t>(m_minus_one) * (int64_t{1} << 31);
  const int64_t denominator = static_cast<int64_t>(m_minus_one) + (int64_t{1} << 32);  // (m+1)*2^31
  const int32_t y = static_cast<int32_t>((numerator + denominator / 2) / denominator);
  const int32_t y2 = SaturatingRoundingDoublingHighMul(y, y);
  int32_t power = y;  // y^(2k+1)
  int64_t sum = 0;
  for (int k = 1; power != 0 && k < 64; k += 2) {
    sum += (static_cast<int64_t>(power) + k / 2) / k;
    power = SaturatingRoundingDoublingHighMul(power, y2);
  }
  return SaturateToInt32(2 * sum);
}

// ln(v) for v = x * 2^-frac_bits, x > 0 (64-bit); result in Q(31-out_frac_bits).out_frac_bits
// as int32 (saturating), e.g. out_frac_bits = 16 for Q15.16 log-probs. x <= 0 gives INT32_MIN.
constexpr int32_t LogPositiveQ(uint64_t x, int frac_bits, int out_frac_bits) {
  if (x == 0) return kInt32Min;
  const int msb = 63 - CountLeadingZeros64(x);
  // m = x / 2^msb in [1, 2); m - 1 in Q0.31.
  const uint64_t rest = x - (uint64_t{1} << msb);
  const int32_t m_minus_one =
      static_cast<int32_t>(msb >= 31 ? (rest >> (msb - 31)) : (rest << (31 - msb)));
  const int64_t log_q31 =
      static_cast<int64_t>(msb - frac_bits) * kLn2Q31 + LogOneToTwoQ31(m_minus_one);
  return SaturateToInt32(RoundingDivideByPOT64(log_q31, 31 - out_frac_bits));
}

}  // namespace fxp
}  // namespace edgenmt

#endif  // EDGENMT_FIXED_POINT_FUNCTIONS_H_
