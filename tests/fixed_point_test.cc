// edgenmt/internal/fixed_point.h against exact 128-bit integer references and double-precision
// math. Integer primitives are checked bit-exactly; transcendental functions within stated bounds.
#include "edgenmt/internal/fixed_point.h"
#include "edgenmt/internal/int8_requantization.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace edgenmt {
namespace fxp {
namespace {

using int128 = __int128;

// floor(n / 2^e) for any sign.
int128 FloorDivPow2(int128 n, int e) {
  return n >= 0 ? n >> e : -((-n + (int128{1} << e) - 1) >> e);
}

int32_t ExpectedSrdhm(int32_t a, int32_t b) {
  if (a == kInt32Min && b == kInt32Min) return kInt32Max;
  // round(2ab / 2^32) with ties up = floor((2ab + 2^31) / 2^32).
  return static_cast<int32_t>(FloorDivPow2(int128{2} * a * b + (int128{1} << 31), 32));
}

int32_t ExpectedRdbpot(int64_t x, int e) {
  if (e == 0) return static_cast<int32_t>(x);
  const int64_t magnitude = x >= 0 ? x : -x;
  const int64_t rounded = (magnitude + (int64_t{1} << (e - 1))) >> e;  // ties away from zero
  return static_cast<int32_t>(x >= 0 ? rounded : -rounded);
}

std::mt19937 Rng(uint32_t seed) { return std::mt19937(seed); }

int32_t RandomInt32(std::mt19937& rng) {
  // Mix magnitudes: full range, small values and the extremes.
  switch (rng() % 4) {
    case 0: return static_cast<int32_t>(rng());
    case 1: return static_cast<int32_t>(rng() % 2001) - 1000;
    case 2: return static_cast<int32_t>(rng() >> (rng() % 31)) * ((rng() & 1) ? 1 : -1);
    default: {
      const int32_t edges[] = {kInt32Min, kInt32Min + 1, -1,      0,         1,
                               kInt32Max, kInt32Max - 1, 1 << 30, -(1 << 30)};
      return edges[rng() % 9];
    }
  }
}

TEST(FixedPoint, SaturatingCasts) {
  EXPECT_EQ(SaturateToInt8(200), 127);
  EXPECT_EQ(SaturateToInt8(-200), -128);
  EXPECT_EQ(SaturateToInt8(-128), -128);
  EXPECT_EQ(SaturateToInt8(5), 5);
  EXPECT_EQ(SaturateToInt16(40000), 32767);
  EXPECT_EQ(SaturateToInt16(-40000), -32768);
  EXPECT_EQ(SaturateToInt32(int64_t{1} << 40), kInt32Max);
  EXPECT_EQ(SaturateToInt32(-(int64_t{1} << 40)), kInt32Min);
  EXPECT_EQ(SaturatingAdd(kInt32Max, 1), kInt32Max);
  EXPECT_EQ(SaturatingAdd(kInt32Min, -1), kInt32Min);
}

TEST(FixedPoint, SaturatingRoundingDoublingHighMulIsExact) {
  auto rng = Rng(1);
  for (int i = 0; i < 200000; ++i) {
    const int32_t a = RandomInt32(rng), b = RandomInt32(rng);
    ASSERT_EQ(SaturatingRoundingDoublingHighMul(a, b), ExpectedSrdhm(a, b)) << a << " * " << b;
  }
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(kInt32Min, kInt32Min), kInt32Max);
  // Ties round up: 2 * (2^15) * (2^15) / 2^32 = 0.5 -> 1; the negative tie -0.5 -> 0.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(1 << 15, 1 << 15), 1);
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(-(1 << 15), 1 << 15), 0);
}

TEST(FixedPoint, RoundingDivideByPOTIsExact) {
  auto rng = Rng(2);
  for (int i = 0; i < 200000; ++i) {
    const int32_t x = RandomInt32(rng);
    const int e = static_cast<int>(rng() % 32);
    ASSERT_EQ(RoundingDivideByPOT(x, e), ExpectedRdbpot(x, e)) << x << " / 2^" << e;
  }
  EXPECT_EQ(RoundingDivideByPOT(3, 1), 2);    // 1.5 -> 2
  EXPECT_EQ(RoundingDivideByPOT(-3, 1), -2);  // -1.5 -> -2
  EXPECT_EQ(RoundingDivideByPOT(-5, 2), -1);  // -1.25 -> -1
  EXPECT_EQ(RoundingDivideByPOT64(-(int64_t{3} << 40), 41), -2);
}

TEST(FixedPoint, MultiplyByQuantizedMultiplierMatchesItsDefinition) {
  auto rng = Rng(3);
  for (int i = 0; i < 100000; ++i) {
    const int32_t x = RandomInt32(rng);
    const int32_t m = static_cast<int32_t>((1u << 30) + (rng() % (1u << 30)));
    const int shift = static_cast<int>(rng() % 40) - 31;  // [-31, 8]
    // Definition: saturating left shift, SRDHM, rounding right shift.
    const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
    const int64_t shifted = static_cast<int64_t>(x) * (int64_t{1} << left);
    const int32_t sat = shifted > kInt32Max
                            ? kInt32Max
                            : (shifted < kInt32Min ? kInt32Min : static_cast<int32_t>(shifted));
    const int32_t expected = ExpectedRdbpot(ExpectedSrdhm(sat, m), right);
    ASSERT_EQ(MultiplyByQuantizedMultiplier(x, m, shift), expected);
    // And it is the real product to within one unit when nothing saturates.
    const double real = static_cast<double>(x) * m / 2147483648.0 * std::ldexp(1.0, shift);
    if (std::fabs(real) < 2e9 && sat == shifted) {
      ASSERT_LE(std::fabs(real - expected), 1.0) << x;
    }
  }
}

TEST(FixedPoint, QuantizeMultiplier) {
  int32_t m = 0;
  int shift = 0;
  ASSERT_TRUE(QuantizeMultiplier(0.0, &m, &shift));
  EXPECT_EQ(m, 0);
  ASSERT_TRUE(QuantizeMultiplier(0.5, &m, &shift));
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(shift, 0);
  ASSERT_TRUE(QuantizeMultiplier(1.0, &m, &shift));
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(shift, 1);
  ASSERT_TRUE(QuantizeMultiplier(1e-12, &m, &shift));  // below 2^-31 underflows to 0
  EXPECT_EQ(m, 0);
  EXPECT_FALSE(QuantizeMultiplier(-1.0, &m, &shift));
  EXPECT_FALSE(QuantizeMultiplier(std::ldexp(1.0, 31), &m, &shift));
  EXPECT_FALSE(QuantizeMultiplier(std::nan(""), &m, &shift));
  // 1 - 2^-40 rounds up to 2^31: renormalised to (2^30, shift + 1).
  ASSERT_TRUE(QuantizeMultiplier(1.0 - std::ldexp(1.0, -40), &m, &shift));
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(shift, 1);
  auto rng = Rng(4);
  std::uniform_real_distribution<double> exponent(-30.0, 20.0);
  for (int i = 0; i < 10000; ++i) {
    const double real = std::exp2(exponent(rng));
    ASSERT_TRUE(QuantizeMultiplier(real, &m, &shift));
    ASSERT_GE(m, 1 << 30);
    const double back = m * std::ldexp(1.0, shift - 31);
    ASSERT_LE(std::fabs(back - real) / real, std::ldexp(1.0, -30)) << real;
  }
}

uint32_t FloatBits(float f) {
  uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

// A power-of-two divisor takes the shift path (no 64-bit division). With c = 2^k the real value
// a * b * 2^(pow2 - k) is exact in a double (a 48-bit product), so QuantizeMultiplier rounds
// it once: both must agree exactly, normal and subnormal divisors alike.
TEST(FixedPoint, MultiplierFromFloatBitsPowerOfTwoDivisorIsExact) {
  auto rng = Rng(13);
  std::uniform_real_distribution<double> exponent(-40.0, 10.0);
  for (int i = 0; i < 100000; ++i) {
    const float a = static_cast<float>(std::exp2(exponent(rng)));
    const float b = static_cast<float>(std::exp2(exponent(rng)));
    const int k = static_cast<int>(rng() % 200) - 149;  // 2^-149 (subnormal) .. 2^50
    const float c = std::ldexp(1.0f, k);
    const int pow2 = static_cast<int>(rng() % 41) - 20;
    const double real = static_cast<double>(a) * b * std::ldexp(1.0, pow2 - k);
    int32_t m_double = 0, m_int = 0;
    int s_double = 0, s_int = 0;
    const bool ok_double = QuantizeMultiplier(real, &m_double, &s_double);
    const bool ok_int = QuantizeMultiplierFromFloatBits(FloatBits(a), FloatBits(b), FloatBits(c),
                                                        pow2, &m_int, &s_int);
    ASSERT_EQ(ok_double, ok_int) << real;
    if (!ok_int) continue;
    ASSERT_EQ(m_double, m_int) << a << " " << b << " 2^" << k;
    if (m_int != 0) ASSERT_EQ(s_double, s_int) << real;
  }
}

// RowRequantizer (Model::Load's row loop) gives MatrixRowRequantization's and
// EmbeddingRowRescale's results, for every kind of float bits: random, zero, subnormal,
// infinite, NaN, negative, huge and tiny.
TEST(FixedPoint, RowRequantizerMatchesTheRowFunctions) {
  auto rng = Rng(17);
  std::vector<uint32_t> bits = {0u,          1u,          0x007FFFFFu, 0x00800000u,
                                0x3F800000u, 0x7F7FFFFFu, 0x7F800000u, 0x7FC00000u,
                                0x80000000u, 0xBF800000u, 0x0DA24260u};
  std::uniform_real_distribution<double> exponent(-60.0, 40.0);
  for (int i = 0; i < 2000; ++i)
    bits.push_back(FloatBits(static_cast<float>(std::exp2(exponent(rng)))));
  for (int i = 0; i < 200; ++i) bits.push_back(static_cast<uint32_t>(rng()));
  for (size_t f = 0; f < bits.size(); f += 7) {
    const RowRequantizer matrix(bits[f], false), rescale(bits[f], true);
    for (uint32_t row : bits) {
      int32_t m_want = 0, s_want = 0, m = -1, s = -1;
      MatrixRowRequantization(bits[f], row, &m_want, &s_want);
      matrix.Row(row, &m, &s);
      ASSERT_EQ(m, m_want) << std::hex << bits[f] << " " << row;
      ASSERT_EQ(s, s_want) << std::hex << bits[f] << " " << row;
      EmbeddingRowRescale(row, bits[f], &m_want, &s_want);
      rescale.Row(row, &m, &s);
      ASSERT_EQ(m, m_want) << std::hex << bits[f] << " " << row;
      ASSERT_EQ(s, s_want) << std::hex << bits[f] << " " << row;
    }
  }
}

TEST(FixedPoint, MultiplierFromFloatBitsMatchesDoubleQuantizeMultiplier) {
  auto rng = Rng(9);
  std::uniform_real_distribution<double> exponent(-40.0, 10.0);
  int differences = 0;
  for (int i = 0; i < 100000; ++i) {
    const float a = static_cast<float>(std::exp2(exponent(rng)));
    const float b = static_cast<float>(std::exp2(exponent(rng)));
    const float c = static_cast<float>(std::exp2(exponent(rng)));
    const int pow2 = static_cast<int>(rng() % 41) - 20;
    const double real = static_cast<double>(a) * b * std::ldexp(1.0, pow2) / c;
    int32_t m_double = 0, m_int = 0;
    int s_double = 0, s_int = 0;
    const bool ok_double = QuantizeMultiplier(real, &m_double, &s_double);
    const bool ok_int = QuantizeMultiplierFromFloatBits(FloatBits(a), FloatBits(b), FloatBits(c),
                                                        pow2, &m_int, &s_int);
    ASSERT_EQ(ok_double, ok_int) << real;
    if (!ok_int) continue;
    // Same value; the integer form is exact, the double form rounds twice (rare 1-unit ties).
    if (m_double != m_int || s_double != s_int) {
      ++differences;
      ASSERT_EQ(s_double, s_int) << real;
      ASSERT_LE(std::abs(m_double - m_int), 1) << real;
    }
    if (m_int != 0) {
      const double back = m_int * std::ldexp(1.0, s_int - 31);
      ASSERT_LE(std::fabs(back - real) / real, std::ldexp(1.0, -30)) << real;
    }
  }
  EXPECT_LE(differences, 10);
  int32_t m = 0;
  int s = 0;
  EXPECT_FALSE(QuantizeMultiplierFromFloatBits(FloatBits(1.0f), FloatBits(1.0f), FloatBits(0.0f), 0,
                                               &m, &s));
  EXPECT_FALSE(QuantizeMultiplierFromFloatBits(FloatBits(-1.0f), FloatBits(1.0f), FloatBits(1.0f),
                                               0, &m, &s));
  EXPECT_FALSE(QuantizeMultiplierFromFloatBits(FloatBits(INFINITY), FloatBits(1.0f),
                                               FloatBits(1.0f), 0, &m, &s));
  ASSERT_TRUE(QuantizeMultiplierFromFloatBits(FloatBits(1.0f), FloatBits(1.0f), FloatBits(2.0f), 0,
                                              &m, &s));
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(s, 0);
  ASSERT_TRUE(QuantizeMultiplierFromFloatBits(FloatBits(0.0f), FloatBits(1.0f), FloatBits(2.0f), 0,
                                              &m, &s));
  EXPECT_EQ(m, 0);
}

TEST(FixedPoint, CountLeadingZeros) {
  EXPECT_EQ(CountLeadingZeros32(0), 32);
  EXPECT_EQ(CountLeadingZeros32(1), 31);
  EXPECT_EQ(CountLeadingZeros32(0x80000000u), 0);
  EXPECT_EQ(CountLeadingZeros64(0), 64);
  EXPECT_EQ(CountLeadingZeros64(1), 63);
  static_assert(CountLeadingZeros32(0x00010000u) == 15, "constexpr");
}

double ToReal(int32_t raw, int frac_bits) {
  return std::ldexp(static_cast<double>(raw), -frac_bits);
}

TEST(FixedPoint, ExpOnNegativeValuesWithinTolerance) {
  auto rng = Rng(5);
  for (int int_bits : {0, 1, 2, 3, 4, 5, 6, 10, 17, 24, 30}) {
    double max_error = 0.0;
    for (int i = 0; i < 20000; ++i) {
      const int32_t a = (i == 0) ? kInt32Min : -static_cast<int32_t>(rng() >> 1);
      const double x = ToReal(a, 31 - int_bits);
      const double expected = std::exp(x);
      const double got = ToReal(ExpOnNegativeValuesQ31(a, int_bits), 31);
      max_error = std::max(max_error, std::fabs(got - expected));
    }
    EXPECT_LE(max_error, 2e-8) << "int_bits " << int_bits;
  }
  EXPECT_EQ(ExpOnNegativeValuesQ31(0, 5), kQ31One);
  EXPECT_EQ(ExpOnNegativeValuesQ31(-(33 << 25), 6), 0);  // exp(-33) < 2^-31
  static_assert(ExpOnNegativeValuesQ31(0, 3) == kQ31One, "constexpr");
}

TEST(FixedPoint, OneOverOnePlusXAndReciprocal) {
  double max_error = 0.0;
  for (int64_t raw = 0; raw < (int64_t{1} << 31); raw += 9999991) {
    const double x = ToReal(static_cast<int32_t>(raw), 31);
    max_error = std::max(
        max_error,
        std::fabs(ToReal(OneOverOnePlusXQ31(static_cast<int32_t>(raw)), 31) - 1.0 / (1.0 + x)));
  }
  EXPECT_LE(max_error, 1e-8);
  auto rng = Rng(6);
  for (int i = 0; i < 20000; ++i) {
    const int int_bits = static_cast<int>(rng() % 31);
    const int32_t x = static_cast<int32_t>(rng() >> 1) | 1;
    const ScaledQ31 r = ReciprocalQ31(x, int_bits);
    const double expected = 1.0 / ToReal(x, 31 - int_bits);
    const double got = ToReal(r.mantissa, 31) * std::ldexp(1.0, r.exponent);
    ASSERT_LE(std::fabs(got - expected) / expected, 2e-8) << x << " Q" << int_bits;
  }
  for (int i = 0; i < 20000; ++i) {
    const uint64_t sum = (static_cast<uint64_t>(rng()) << (rng() % 32)) | (uint64_t{1} << 31);
    const ScaledQ31 r = ReciprocalOfSumQ31(sum);
    const double expected = 2147483648.0 / static_cast<double>(sum);
    const double got = ToReal(r.mantissa, 31) * std::ldexp(1.0, r.exponent);
    ASSERT_LE(std::fabs(got - expected) / expected, 2e-8) << sum;
  }
}

TEST(FixedPoint, LogisticAndTanhQ31WithinTolerance) {
  auto rng = Rng(7);
  for (int int_bits : {0, 3, 4, 5, 8}) {
    double max_logistic = 0.0, max_tanh = 0.0;
    for (int i = 0; i < 20000; ++i) {
      const int32_t a = static_cast<int32_t>(rng());
      const double x = ToReal(a, 31 - int_bits);
      max_logistic = std::max(max_logistic, std::fabs(ToReal(LogisticQ31(a, int_bits), 31) -
                                                      1.0 / (1.0 + std::exp(-x))));
      max_tanh = std::max(max_tanh, std::fabs(ToReal(TanhQ31(a, int_bits), 31) - std::tanh(x)));
    }
    EXPECT_LE(max_logistic, 3e-8) << int_bits;
    EXPECT_LE(max_tanh, 6e-8) << int_bits;
  }
  EXPECT_EQ(LogisticQ31(0, 3), kQ31Half);
  EXPECT_EQ(TanhQ31(0, 3), 0);
  EXPECT_GT(LogisticQ31(kInt32Max, 3), kQ31One - 1000000);
  EXPECT_LT(TanhQ31(kInt32Min, 3), -kQ31One + 1000000);
}

// The generated table (tools/codegen/tanh_table.py) against std::tanh: each entry the correctly
// rounded Q0.16 value, saturated at 65535, plus the repeated last entry.
TEST(FixedPoint, TanhTableEntriesAreRoundedTanh) {
  for (int32_t k = 0; k <= kTanhTableLast; ++k) {
    const double exact = std::tanh(static_cast<double>(k) / kTanhTableStepsPerUnit) * 65536.0;
    ASSERT_EQ(kTanhTableQ16[k], std::min(65535.0, std::round(exact))) << k;
  }
  EXPECT_EQ(kTanhTableQ16[kTanhTableLast + 1], kTanhTableQ16[kTanhTableLast]);
}

TEST(FixedPoint, LogisticAndTanhS16ExhaustiveWithinOneLsb) {
  for (int int_bits : {0, 1, 2, 3, 4, 5, 8, 9, 12, 15}) {
    for (int32_t raw = -32768; raw <= 32767; ++raw) {
      const double x = std::ldexp(static_cast<double>(raw), -(15 - int_bits));
      const double sigmoid = 1.0 / (1.0 + std::exp(-x));
      const int16_t s = LogisticS16(static_cast<int16_t>(raw), int_bits);
      ASSERT_LE(std::fabs(s - std::min(sigmoid * 32768.0, 32767.0)), 1.0)
          << raw << " Q" << int_bits;
      const int16_t t = TanhS16(static_cast<int16_t>(raw), int_bits);
      ASSERT_LE(std::fabs(t - std::max(std::min(std::tanh(x) * 32768.0, 32767.0), -32768.0)), 1.0)
          << raw;
      // Odd / point symmetry, exactly.
      // Odd symmetry, exactly (up to int16's asymmetric saturation at -1).
      if (raw > -32768) {
        ASSERT_EQ(std::max<int32_t>(TanhS16(static_cast<int16_t>(-raw), int_bits), -32767),
                  -std::max<int32_t>(t, -32767));
      }
    }
  }
}

TEST(FixedPoint, LogWithinTolerance) {
  EXPECT_EQ(LogOneToTwoQ31(0), 0);
  EXPECT_EQ(LogPositiveQ(uint64_t{1} << 31, 31, 16), 0);
  EXPECT_EQ(LogPositiveQ(0, 31, 16), kInt32Min);
  auto rng = Rng(8);
  double max_error = 0.0;
  for (int i = 0; i < 20000; ++i) {
    const uint64_t x = (static_cast<uint64_t>(rng()) << (rng() % 32)) | 1;
    const int frac_bits = static_cast<int>(rng() % 40);
    const double expected = std::log(static_cast<double>(x)) - frac_bits * std::log(2.0);
    const double got = ToReal(LogPositiveQ(x, frac_bits, 24), 24);
    max_error = std::max(max_error, std::fabs(got - expected));
  }
  EXPECT_LE(max_error, 1e-7);
  for (int64_t raw = 0; raw < (int64_t{1} << 31); raw += 7777777) {
    const double m = 1.0 + ToReal(static_cast<int32_t>(raw), 31);
    ASSERT_LE(std::fabs(ToReal(LogOneToTwoQ31(static_cast<int32_t>(raw)), 31) - std::log(m)), 5e-9)
        << raw;
  }
}

}  // namespace
}  // namespace fxp
}  // namespace edgenmt
