// Fixed-point integer math shared by the converter, the runtime and the tests: the one place
// where rounding, requantization and the fixed-point transcendental functions are defined.
//
// Header-only, no heap, no exceptions, no <cmath>. Everything except QuantizeMultiplier() uses
// integers only, so the int8-full scheme (docs/INT8.md) is bit-identical on every target,
// including cores without an FPU. QuantizeMultiplier() uses double: only the converter (and
// tests) call it; the runtime reads the precomputed (multiplier, shift) pairs from the file.
//
// Notation: Qm.n is a signed two's-complement integer with m integer bits and n fractional bits
// (m + n + 1 = width). Q0.31 "one" is INT32_MAX (1 - 2^-31). Rounding follows gemmlowp / TFLite /
// CMSIS-NN exactly so that optimized kernels can use the same instructions and still agree bit
// for bit: SaturatingRoundingDoublingHighMul rounds ties up (towards +inf, like ARM SQRDMULH),
// RoundingDivideByPOT rounds ties away from zero. Right shifts of negative values are
// arithmetic (guaranteed by every compiler we target; C++20 makes it standard).
#ifndef EDGENMT_FIXED_POINT_H_
#define EDGENMT_FIXED_POINT_H_

#include <stdint.h>

#include "edgenmt/fixed_point_tanh_table.h"

namespace edgenmt {
namespace fxp {

constexpr int32_t kInt32Max = 2147483647;
constexpr int32_t kInt32Min = -2147483647 - 1;
constexpr int32_t kQ31One = kInt32Max;  // 1.0 in Q0.31 (saturated)
constexpr int32_t kQ31Half = 1 << 30;   // 0.5 in Q0.31
// ln(2) in Q0.31 (round(ln 2 * 2^31)).
constexpr int32_t kLn2Q31 = 1488522236;

// Accumulation bounds (docs/INT8.md "Bounds the kernels hold"): the limits below which the
// integer kernels are exact, enforced by Model::Load so no legal file can overflow them.
// An int8 x int8 dot product of this many terms fits int32 for any operands (|a|, |b| <= 128):
// 131071 * 128 * 128 = 2^31 - 2^14.
constexpr int32_t kMaxS8DotLength = 131071;
// The longest source whose local-p position p = S * sigmoid(.) fits Q15.16 in an int32.
constexpr int32_t kMaxQ16PositionLength = 32767;

// ---- saturation -----------------------------------------------------------------------------

constexpr int8_t SaturateToInt8(int32_t x) {
  return static_cast<int8_t>(x < -128 ? -128 : (x > 127 ? 127 : x));
}
constexpr int16_t SaturateToInt16(int32_t x) {
  return static_cast<int16_t>(x < -32768 ? -32768 : (x > 32767 ? 32767 : x));
}
constexpr int32_t SaturateToInt32(int64_t x) {
  return static_cast<int32_t>(x < kInt32Min ? kInt32Min : (x > kInt32Max ? kInt32Max : x));
}
constexpr int32_t SaturatingAdd(int32_t a, int32_t b) {
  return SaturateToInt32(static_cast<int64_t>(a) + b);
}

// ---- rounding primitives --------------------------------------------------------------------

// round(a * b / 2^31) with ties rounded up (ARM SQRDMULH), saturating the single overflow case
// a = b = INT32_MIN.
// For Q formats: Qa.x * Qb.y -> Q(a+b).(31-a-b).
constexpr int32_t SaturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  if (a == kInt32Min && b == kInt32Min) return kInt32Max;
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  return static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));  // division truncates to 0
}

// round(x / 2^exponent), ties away from zero. exponent in [0, 31].
constexpr int32_t RoundingDivideByPOT(int32_t x, int exponent) {
  if (exponent <= 0) return x;
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// The same for 64-bit values, exponent in [0, 62].
constexpr int64_t RoundingDivideByPOT64(int64_t x, int exponent) {
  if (exponent <= 0) return x;
  const int64_t mask = (int64_t{1} << exponent) - 1;
  const int64_t remainder = x & mask;
  const int64_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// x * 2^exponent, saturating. exponent in [0, 31].
constexpr int32_t SaturatingLeftShift(int32_t x, int exponent) {
  return SaturateToInt32(static_cast<int64_t>(x) * (int64_t{1} << exponent));
}

// round(x * multiplier * 2^shift / 2^31): the requantization of TFLite/CMSIS-NN.
// multiplier in [2^30, 2^31) (or 0), shift in [-31, 30]; shift > 0 shifts left (saturating).
constexpr int32_t MultiplyByQuantizedMultiplier(int32_t x, int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  return RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(SaturatingLeftShift(x, left), multiplier),
                             right);
}

// round(x * multiplier * 2^shift / 2^31) with one rounding (ties away from zero), saturated:
// the exact product in 64 bits. Used where x is small (int8 values rescaled by a ratio near 1,
// e.g. embedding rows) and the double rounding above would cost up to 3/4 LSB. shift <= 30.
constexpr int32_t MultiplyByQuantizedMultiplierSingleRounding(int32_t x, int32_t multiplier,
                                                              int shift) {
  const int64_t product = static_cast<int64_t>(x) * multiplier;  // |product| < 2^62
  const int right = 31 - shift;
  if (right > 62) return 0;
  return SaturateToInt32(RoundingDivideByPOT64(product, right));
}

// Splits a real multiplier m >= 0 into multiplier * 2^(shift - 31) with multiplier in
// [2^30, 2^31). Returns false when m is negative or too large (>= 2^30) to represent. Values
// below 2^-31 become (0, 0): the product is then always 0. Converter and tests only (double).
inline bool QuantizeMultiplier(double real, int32_t* multiplier, int* shift) {
  *multiplier = 0;
  *shift = 0;
  if (!(real >= 0.0)) return false;  // negative or NaN
  if (real == 0.0) return true;
  if (real >= 1073741824.0) return false;
  int exponent = 0;
  double fraction = real;
  while (fraction >= 1.0) { fraction *= 0.5; ++exponent; }
  while (fraction < 0.5) { fraction *= 2.0; --exponent; }
  int64_t q = static_cast<int64_t>(fraction * 2147483648.0 + 0.5);  // fraction > 0
  if (q == (int64_t{1} << 31)) { q >>= 1; ++exponent; }
  if (exponent < -31) return true;  // underflows to 0
  if (exponent > 30) return false;
  *multiplier = static_cast<int32_t>(q);
  *shift = exponent;
  return true;
}

// Number of leading zero bits of a 32-bit value (32 for 0).
constexpr int CountLeadingZeros32(uint32_t x) {
  if (x == 0) return 32;
  int n = 0;
  while ((x & 0x80000000u) == 0) { x <<= 1; ++n; }
  return n;
}
constexpr int CountLeadingZeros64(uint64_t x) {
  if (x == 0) return 64;
  int n = 0;
  while ((x & 0x8000000000000000ull) == 0) { x <<= 1; ++n; }
  return n;
}

// ---- multipliers from float32 scales, integer operations only ------------------------------

// A positive finite float32 given by its bit pattern, as mantissa * 2^exponent (mantissa < 2^24).
// Decoding uses integer operations only, so a runtime without an FPU (and without soft-float
// code) can derive requantization multipliers from the float scales stored in a model file.
struct FloatParts {
  uint32_t mantissa;  // 0 when the value is zero
  int exponent;
  bool valid;         // false for negative, infinite or NaN
};
constexpr FloatParts DecodeFloat32Bits(uint32_t bits) {
  const uint32_t biased = (bits >> 23) & 0xFFu;
  const uint32_t fraction = bits & 0x7FFFFFu;
  if ((bits >> 31) != 0 || biased == 0xFFu) return FloatParts{0, 0, (bits & 0x7FFFFFFFu) == 0};
  if (biased == 0) return FloatParts{fraction, -149, true};  // zero or subnormal
  return FloatParts{fraction | 0x800000u, static_cast<int>(biased) - 150, true};
}

// The (multiplier, shift) of QuantizeMultiplier() for the real value a * b * 2^pow2 / c, where
// a, b, c are float32 bit patterns of positive finite numbers, computed exactly in integers:
// round-half-up of the exact quotient to 31 significant bits. Returns false when c is zero or
// an input is not a positive finite float, or the result is >= 2^30; results below 2^-31 give
// (0, 0) and true.
constexpr bool QuantizeMultiplierFromFloatBits(uint32_t a, uint32_t b, uint32_t c, int pow2,
                                               int32_t* multiplier, int* shift) {
  *multiplier = 0;
  *shift = 0;
  const FloatParts fa = DecodeFloat32Bits(a), fb = DecodeFloat32Bits(b), fc = DecodeFloat32Bits(c);
  if (!fa.valid || !fb.valid || !fc.valid || fc.mantissa == 0) return false;
  if (fa.mantissa == 0 || fb.mantissa == 0) return true;
  // numerator = ma * mb * 2^15 < 2^63; quotient >= 2^(15 + 2 - 24) ... normalised below.
  const uint64_t numerator = (static_cast<uint64_t>(fa.mantissa) * fb.mantissa) << 15;
  const uint64_t quotient = numerator / fc.mantissa;  // truncation is safe for round-half-up
  if (quotient == 0) return true;
  int exponent = fa.exponent + fb.exponent - fc.exponent - 15 + pow2;  // value = quotient * 2^exponent
  const int msb = 63 - CountLeadingZeros64(quotient);
  uint64_t q31 = quotient;
  if (msb > 30) {
    const int drop = msb - 30;
    q31 = (quotient + (uint64_t{1} << (drop - 1))) >> drop;
    exponent += drop;
  } else {
    q31 = quotient << (30 - msb);
    exponent -= 30 - msb;
  }
  if (q31 == (uint64_t{1} << 31)) { q31 >>= 1; ++exponent; }
  // value = q31 * 2^exponent = q31 * 2^(shift - 31).
  const int s = exponent + 31;
  if (s < -31) return true;
  if (s > 30) return false;
  *multiplier = static_cast<int32_t>(q31);
  *shift = s;
  return true;
}

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
    const int64_t scaled = static_cast<int64_t>(a) * (int64_t{1} << (2 - frac_bits));  // 2 frac bits
    if (scaled < -(int64_t{32} << 2)) return 0;
    return ExpOnNegativeValuesQ31(static_cast<int32_t>(scaled), 29);
  }
  const int32_t one_quarter = static_cast<int32_t>(int64_t{1} << (frac_bits - 2));
  const int32_t mask = one_quarter - 1;
  const int32_t a_mod_quarter_minus_quarter = (a & mask) - one_quarter;  // in [-1/4, 0)
  int32_t result = ExpOnIntervalNegativeQuarterTo0Q31(
      static_cast<int32_t>(static_cast<int64_t>(a_mod_quarter_minus_quarter) *
                           (int64_t{1} << int_bits)));  // negative: multiply, not shift
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
  constexpr int32_t k48Over17 = 1515870810;       // Q2.29
  constexpr int32_t kMinus32Over17 = -1010580540;  // Q2.29
  // (1 + x) / 2 in Q0.31, rounded.
  const int32_t half_denominator =
      static_cast<int32_t>((static_cast<int64_t>(x) + kQ31One + 1) / 2);
  int32_t r = k48Over17 + SaturatingRoundingDoublingHighMul(half_denominator, kMinus32Over17);
  for (int i = 0; i < 3; ++i) {
    const int32_t d_times_r = SaturatingRoundingDoublingHighMul(half_denominator, r);  // Q2.29
    const int32_t one_minus = kQ29One - d_times_r;                                      // Q2.29
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
  if (x <= 0) return ScaledQ31{kQ31One, 31};  // precondition violated: saturate
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
  const int32_t m_minus_one = static_cast<int32_t>(
      msb >= 31 ? (rest >> (msb - 31)) : (rest << (31 - msb)));
  return ScaledQ31{OneOverOnePlusXQ31(m_minus_one), 31 - msb};
}

// ---- logistic and tanh ------------------------------------------------------------------------

// sigmoid(a) with a in Q(int_bits).(31 - int_bits), int_bits in [0, 30]; result in Q0.31.
constexpr int32_t LogisticQ31(int32_t a, int int_bits) {
  if (a == 0) return kQ31Half;
  const int32_t abs_a = a > 0 ? a : (a == kInt32Min ? kInt32Max : -a);
  const int32_t e = ExpOnNegativeValuesQ31(-abs_a, int_bits);  // exp(-|a|) in (0, 1)
  const int32_t positive = OneOverOnePlusXQ31(e);                // 1 / (1 + exp(-|a|))
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
  const int32_t rounded = (w + (1 << s)) >> (s + 1);           // Q0.15, ties up
  const int32_t magnitude = rounded > 32767 ? 32767 : rounded;
  return static_cast<int16_t>(x < 0 ? -magnitude : magnitude);
}

// sigmoid(x) = 1/2 + tanh(x / 2) / 2: x / 2 is the same bits with one more fraction bit.
// sigmoid(-x) = 1 - sigmoid(x), exactly.
constexpr int16_t LogisticS16(int16_t x, int int_bits) {
  const int32_t a = x < 0 ? -static_cast<int32_t>(x) : x;
  const int s = TanhTableExtraBits(16 - int_bits);
  const int32_t w = TanhTableInterpolated(a, 16 - int_bits);                    // Q0.(16 + s)
  const int32_t p = ((1 << (s + 16)) + w + (1 << (s + 1))) >> (s + 2);      // Q0.15, in [2^14, 2^15]
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
  const int32_t m_minus_one = static_cast<int32_t>(
      msb >= 31 ? (rest >> (msb - 31)) : (rest << (31 - msb)));
  const int64_t log_q31 = static_cast<int64_t>(msb - frac_bits) * kLn2Q31 + LogOneToTwoQ31(m_minus_one);
  return SaturateToInt32(RoundingDivideByPOT64(log_q31, 31 - out_frac_bits));
}

}  // namespace fxp
}  // namespace edgenmt

#endif  // EDGENMT_FIXED_POINT_H_
