// DSP-extension requantization of the int8-full products (simd_dot.h's RequantizeColumnBlock /
// RequantizeEmbeddingBlock contracts), bit-exact with kernels/product_outputs.h: the same
// arithmetic written for a 32-bit core, one SMULL for each 64-bit product, the doubling high
// product's rounding as an add with carry, and QADD (the saturating add these cores have) for
// the bias and the accumulation. The portable code builds the same results from generic
// 64-bit arithmetic at about three times the instructions.
#if defined(__ARM_FEATURE_DSP) && !defined(__ARM_FEATURE_MVE) && !defined(__ARM_NEON) && \
    !defined(__aarch64__)
#include <arm_acle.h>

#include "kernels/simd/simd_dsp.h"

namespace edgenmt {
namespace simd {
namespace {

constexpr int32_t kMax = 2147483647;
constexpr int32_t kMin = -2147483647 - 1;

// fxp::SaturatingRoundingDoublingHighMul for multipliers in [0, 2^31) (never INT32_MIN, so the
// one saturating case cannot occur): floor((x * m + 2^30) / 2^31).
inline int32_t DoublingHighMul(int32_t x, int32_t m) {
  const int64_t p = static_cast<int64_t>(x) * m + (int64_t{1} << 30);
  return static_cast<int32_t>(p >> 31);
}

// x * 2^shift saturated to int32, shift in [0, 30]: it fits exactly when shifting back
// returns x; else the bound of x's sign ((x >> 31) ^ INT32_MAX is INT32_MIN for x < 0).
inline int32_t SaturatingLeftShift(int32_t x, int32_t shift) {
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << shift);
  return (shifted >> shift) == x ? shifted : (x >> 31) ^ kMax;
}

// fxp::RoundingDivideByPOT for exponent in [1, 31] without a branch: the floor plus a carry
// from the remainder, (remainder + half - [v < 0]) >> exponent, which is 1 exactly when the
// quotient rounds up (ties away from zero); unsigned, it cannot overflow (remainder < 2^31).
inline int32_t RoundingRightShift(int32_t v, int32_t exponent) {
  const uint32_t u = static_cast<uint32_t>(v);
  const uint32_t mask = (uint32_t{1} << exponent) - 1u;
  const uint32_t up = ((u & mask) + (uint32_t{1} << (exponent - 1)) - (u >> 31)) >> exponent;
  return (v >> exponent) + static_cast<int32_t>(up);
}

// fxp::MultiplyByQuantizedMultiplier, shift in [-31, 30].
inline int32_t MultiplyByQuantizedMultiplier(int32_t x, int32_t multiplier, int32_t shift) {
  if (shift >= 0) return DoublingHighMul(SaturatingLeftShift(x, shift), multiplier);
  return RoundingRightShift(DoublingHighMul(x, multiplier), -shift);
}

// The column block with its two options fixed, so the loop tests neither.
template <bool kBias, bool kAccumulate>
void RequantizeColumns(int32_t n, const int32_t* dots, const int32_t* multiplier,
                       const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                       int32_t* y) {
  for (int32_t i = 0; i < n; ++i) {
    int32_t sh = shift[i] + shift_offset;
    sh = sh < -31 ? -31 : (sh > 30 ? 30 : sh);
    int32_t v = MultiplyByQuantizedMultiplier(dots[i], multiplier[i], sh);
    if (kBias) v = __qadd(v, bias[i]);
    y[i] = kAccumulate ? __qadd(y[i], v) : v;
  }
}

}  // namespace

void RequantizeColumnBlockDsp(int32_t n, const int32_t* dots, const int32_t* multiplier,
                              const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                              bool accumulate, int32_t* y) {
  const auto columns =
      bias != nullptr
          ? (accumulate ? RequantizeColumns<true, true> : RequantizeColumns<true, false>)
          : (accumulate ? RequantizeColumns<false, true> : RequantizeColumns<false, false>);
  columns(n, dots, multiplier, shift, shift_offset, bias, y);
}

void RequantizeEmbeddingBlockDsp(int32_t n, const int32_t* dots, int32_t id,
                                 const int32_t* row_multiplier, const int32_t* row_shift,
                                 const int32_t* multiplier, const int32_t* shift,
                                 const int32_t* bias, int32_t* y) {
  constexpr int32_t kExtraBits = 6;  // as EmbeddingS32Output
  const int64_t row_m = row_multiplier[id];
  const int32_t right = 31 - (row_shift[id] + kExtraBits);
  for (int32_t i = 0; i < n; ++i) {
    // fxp::MultiplyByQuantizedMultiplierSingleRounding: (p + 2^(right-1) - [p < 0]) >> right
    // is its ties-away rounding; right <= 0 leaves the product unshifted, right > 62 gives 0.
    const int64_t product = dots[i] * row_m;
    int64_t r = product;
    if (right > 62) {
      r = 0;
    } else if (right > 0) {
      r = (product + (int64_t{1} << (right - 1)) - (product < 0 ? 1 : 0)) >> right;
    }
    const int32_t scaled = r > kMax ? kMax : (r < kMin ? kMin : static_cast<int32_t>(r));
    int32_t sh = shift[i] - kExtraBits;
    sh = sh < -31 ? -31 : sh;
    int32_t v = MultiplyByQuantizedMultiplier(scaled, multiplier[i], sh);
    if (bias != nullptr) v = __qadd(v, bias[i]);
    y[i] = v;
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif
