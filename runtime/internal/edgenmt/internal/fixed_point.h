// Fixed-point integer math shared by the converter, the runtime and the tests: the one place
// where rounding, requantization and the fixed-point transcendental functions are defined (the
// functions in fixed_point_functions.h, which this header includes).
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
  return RoundingDivideByPOT(
      SaturatingRoundingDoublingHighMul(SaturatingLeftShift(x, left), multiplier), right);
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
  while (fraction >= 1.0) {
    fraction *= 0.5;
    ++exponent;
  }
  while (fraction < 0.5) {
    fraction *= 2.0;
    --exponent;
  }
  int64_t q = static_cast<int64_t>(fraction * 2147483648.0 + 0.5);  // fraction > 0
  if (q == (int64_t{1} << 31)) {
    q >>= 1;
    ++exponent;
  }
  if (exponent < -31) return true;  // underflows to 0
  if (exponent > 30) return false;
  *multiplier = static_cast<int32_t>(q);
  *shift = exponent;
  return true;
}

// Number of leading zero bits of a 32-bit / 64-bit value (32 / 64 for 0). GCC's and Clang's
// builtins fold in constant expressions and are one or two CLZ instructions at run time (Model::
// Load derives a multiplier for every matrix row: a bit-by-bit loop here cost a Cortex-M7 about
// a million instructions a boot).
constexpr int CountLeadingZeros32(uint32_t x) { return x == 0 ? 32 : __builtin_clz(x); }
constexpr int CountLeadingZeros64(uint64_t x) { return x == 0 ? 64 : __builtin_clzll(x); }

// ---- multipliers from float32 scales, integer operations only ------------------------------

// A positive finite float32 given by its bit pattern, as mantissa * 2^exponent (mantissa < 2^24).
// Decoding uses integer operations only, so a runtime without an FPU (and without soft-float
// code) can derive requantization multipliers from the float scales stored in a model file.
struct FloatParts {
  uint32_t mantissa;  // 0 when the value is zero
  int exponent;
  bool valid;  // false for negative, infinite or NaN
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
// QuantizeMultiplierFromParts: the same from decoded inputs (a loop over rows decodes its fixed
// operands once).
constexpr bool QuantizeMultiplierFromParts(FloatParts fa, FloatParts fb, FloatParts fc, int pow2,
                                           int32_t* multiplier, int* shift) {
  *multiplier = 0;
  *shift = 0;
  if (!fa.valid || !fb.valid || !fc.valid || fc.mantissa == 0) return false;
  if (fa.mantissa == 0 || fb.mantissa == 0) return true;
  // numerator = ma * mb * 2^15 < 2^63; quotient >= 2^(15 + 2 - 24) ... normalised below.
  const uint64_t numerator = (static_cast<uint64_t>(fa.mantissa) * fb.mantissa) << 15;
  // Truncation is safe for round-half-up. A power-of-two divisor (c = 1.0: every matrix row's
  // requantization) is a shift, the same truncated quotient without a 64-bit division, which a
  // 32-bit core calls a library routine for.
  const uint64_t quotient = (fc.mantissa & (fc.mantissa - 1)) == 0
                                ? numerator >> __builtin_ctz(fc.mantissa)
                                : numerator / fc.mantissa;
  if (quotient == 0) return true;
  int exponent =
      fa.exponent + fb.exponent - fc.exponent - 15 + pow2;  // value = quotient * 2^exponent
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
  if (q31 == (uint64_t{1} << 31)) {
    q31 >>= 1;
    ++exponent;
  }
  // value = q31 * 2^exponent = q31 * 2^(shift - 31).
  const int s = exponent + 31;
  if (s < -31) return true;
  if (s > 30) return false;
  *multiplier = static_cast<int32_t>(q31);
  *shift = s;
  return true;
}
constexpr bool QuantizeMultiplierFromFloatBits(uint32_t a, uint32_t b, uint32_t c, int pow2,
                                               int32_t* multiplier, int* shift) {
  return QuantizeMultiplierFromParts(DecodeFloat32Bits(a), DecodeFloat32Bits(b),
                                     DecodeFloat32Bits(c), pow2, multiplier, shift);
}

}  // namespace fxp
}  // namespace edgenmt

// The fixed-point functions built on these primitives (exp, reciprocal, logistic, tanh, log),
// in their own file for its length; every includer of this header gets them.
#include "edgenmt/internal/fixed_point_functions.h"

#endif  // EDGENMT_FIXED_POINT_H_
