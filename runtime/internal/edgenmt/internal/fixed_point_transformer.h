// The int8-full Transformer's integer math (docs/INT8.md "int8-full Transformer"), beside
// fixed_point.h and with its conventions: integer layer norm (mean, variance and reciprocal
// square root in integers), GELU from a small table, and the division they need. Header-only,
// integers only, so every target computes the same bits.
#ifndef EDGENMT_FIXED_POINT_TRANSFORMER_H_
#define EDGENMT_FIXED_POINT_TRANSFORMER_H_

#include <stdint.h>

#include "edgenmt/internal/fixed_point.h"
#include "edgenmt/internal/fixed_point_gelu_table.h"

namespace edgenmt {
namespace fxp {

// round(x / d), ties away from zero, for d > 0.
constexpr int64_t RoundingDivide64(int64_t x, int64_t d) {
  const int64_t half = d / 2;
  return x >= 0 ? (x + half) / d : -((-x + half) / d);
}

// floor(sqrt(x)), bit by bit (no float, no division).
constexpr uint64_t SquareRootFloor64(uint64_t x) {
  uint64_t root = 0;
  uint64_t bit = uint64_t{1} << 62;
  while (bit > x) bit >>= 2;
  while (bit != 0) {
    if (x >= root + bit) {
      x -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  return root;
}

// Layer norm's eps = 1e-5 (PyTorch's default, the reference's) in the units of a variance of
// values with frac_bits fractional bits: round(2^(2 frac_bits) / 10^5); 0 for frac_bits < 0.
constexpr int64_t LayerNormEpsRaw(int32_t frac_bits) {
  if (frac_bits < 0) return 0;
  const int32_t bits = frac_bits > 30 ? 60 : 2 * frac_bits;
  return RoundingDivide64(int64_t{1} << bits, 100000);
}

// Values whose layer norm the kernels compute exactly in int64: |x - mean| below 2^25 after
// the pre-shift LayerNormPreShift picks, rows of at most 4096.
constexpr int32_t kLayerNormMaxCentered = 1 << 25;
constexpr int32_t kLayerNormMaxLength = 4096;

// The reciprocal square root of variance >= 1: 1 / sqrt(variance) = r / 2^(62 - q), r in
// (2^31, 2^32] (32 significant bits), so c / sqrt(variance) in Q11.20 is
// RoundingDivideByPOT64(c * r, 42 - q) for |c| < 2^25.
struct InverseSqrt {
  int64_t r;
  int32_t q;
};
constexpr InverseSqrt InverseSqrtOfVariance(int64_t variance) {
  const uint64_t v = static_cast<uint64_t>(variance < 1 ? 1 : variance);
  // v << 2q in [2^60, 2^62): its square root in [2^30, 2^31).
  const int32_t q = (CountLeadingZeros64(v) - 2) / 2;
  const uint64_t root = SquareRootFloor64(v << (2 * q));
  const uint64_t r = ((uint64_t{1} << 62) + root / 2) / root;
  return InverseSqrt{static_cast<int64_t>(r), q};
}

// GELU(x) = x Phi(x) (the erf form) for x and the result in Q11.20: Phi interpolated linearly
// between the entries of kNormalCdfTableQ15 (steps of 1/32 over [-4, 4]; 0 below, 1 above),
// error below 2^-14 relative to |x|.
constexpr int32_t GeluQ20(int32_t x) {
  constexpr int32_t kStepBits = 20 - 5;  // 1/32 in Q11.20
  constexpr int32_t kLow = -4 * (1 << 20);
  if (x <= kLow) return 0;
  if (x >= -kLow) return x;
  const int32_t t = x - kLow;
  const int32_t i = t >> kStepBits;
  const int32_t frac = t & ((1 << kStepBits) - 1);
  const int32_t a = kNormalCdfTableQ15[i];
  const int32_t b = kNormalCdfTableQ15[i + 1];
  const int32_t phi = a + RoundingDivideByPOT((b - a) * frac, kStepBits);  // Q0.15
  return static_cast<int32_t>(RoundingDivideByPOT64(static_cast<int64_t>(x) * phi, 15));
}

}  // namespace fxp
}  // namespace edgenmt

#endif  // EDGENMT_FIXED_POINT_TRANSFORMER_H_
