// The scalar fixed-point primitives of edgenmt/internal/fixed_point.h on 4 int32 lanes of NEON
// (ARMv7-A and ARMv8-A), bit-exact: NEON has most of them as single instructions. vqrdmulh is
// SaturatingRoundingDoublingHighMul (its (2ab + 2^31) >> 32 equals the scalar nudge-and-truncate
// form for every product, INT32_MIN * INT32_MIN saturating alike); vqshl is SaturatingLeftShift;
// vqadd is SaturatingAdd. Where the scalar code forms an intermediate in 64 bits it is rewritten
// to fit 32 (noted). Each function mirrors the scalar one with the same name; the exp is
// fixed_point_exp_lanes.h's over these lanes. Included only by the NEON files (requantize,
// narrow, softmax, GRU cell); anonymous namespace, like fixed_point_avx512.h.
#ifndef EDGENMT_KERNELS_ARM_NEON_FIXED_POINT_NEON_H_
#define EDGENMT_KERNELS_ARM_NEON_FIXED_POINT_NEON_H_

#include <arm_neon.h>
#include <stdint.h>

#include "kernels/simd/fixed_point_exp_lanes.h"

namespace edgenmt {
namespace simd {
namespace {

using V = int32x4_t;

constexpr int32_t kQ31One = 2147483647;
constexpr int32_t kQ31Half = 1 << 30;

inline V Set(int32_t v) { return vdupq_n_s32(v); }

inline V SaturatingRoundingDoublingHighMul(V a, V b) { return vqrdmulhq_s32(a, b); }

// Per-lane exponents in [0, 31]. vrshl by -e rounds ties up, (x + 2^(e-1)) >> e without
// overflow; subtracting 1 from negative x first turns that into ties away from zero. The
// saturating add only changes INT32_MIN, whose quotient is exact either way. The fixup is
// (x & -e) >> 31: -1 exactly where x < 0 and e > 0.
inline V RoundingDivideByPOT(V x, V exponent) {
  const V shift = vnegq_s32(exponent);
  const V fixup = vshrq_n_s32(vandq_s32(x, shift), 31);
  return vrshlq_s32(vqaddq_s32(x, fixup), shift);
}
inline V RoundingDivideByPOT(V x, int exponent) { return RoundingDivideByPOT(x, Set(exponent)); }

// The same for int64 lanes, exponents in [0, 62] (no overflow: |x| < 2^63 - 1 here).
inline int64x2_t RoundingDivideByPOT64(int64x2_t x, int64x2_t exponent) {
  const int64x2_t shift = vsubq_s64(vdupq_n_s64(0), exponent);
  const int64x2_t fixup = vshrq_n_s64(vandq_s64(x, shift), 63);
  return vrshlq_s64(vaddq_s64(x, fixup), shift);
}

// MultiplyByQuantizedMultiplier with per-lane multipliers and shifts in [-31, 30]: the left
// part max(shift, 0) saturating, the right part as RoundingDivideByPOT's negated exponent
// min(shift, 0).
inline V MultiplyByQuantizedMultiplier(V x, V multiplier, V shift) {
  const V product = vqrdmulhq_s32(vqshlq_s32(x, vmaxq_s32(shift, Set(0))), multiplier);
  const V right_shift = vminq_s32(shift, Set(0));
  const V fixup = vshrq_n_s32(vandq_s32(product, right_shift), 31);
  return vrshlq_s32(vqaddq_s32(product, fixup), right_shift);
}

// ---- exp, reciprocal, logistic, tanh (Q0.31) ------------------------------------------------

// The lane operations of fixed_point_exp_lanes.h.
struct NeonLanes {
  using V = int32x4_t;
  static V Set(int32_t v) { return vdupq_n_s32(v); }
  static V Add(V a, V b) { return vaddq_s32(a, b); }
  static V Sub(V a, V b) { return vsubq_s32(a, b); }
  static V And(V a, V b) { return vandq_s32(a, b); }
  static V ShiftLeft(V x, int n) { return vshlq_s32(x, Set(n)); }
  static V SaturatingRoundingDoublingHighMul(V a, V b) { return vqrdmulhq_s32(a, b); }
  static V RoundingDivideByPOT(V x, int exponent) { return simd::RoundingDivideByPOT(x, exponent); }
  static V SelectWhereAnyBit(V x, int32_t bits, V if_set, V otherwise) {
    return vbslq_s32(vtstq_s32(x, Set(bits)), if_set, otherwise);
  }
  static V SelectWhereNonNegative(V a, V if_set, V otherwise) {
    return vbslq_s32(vcgeq_s32(a, Set(0)), if_set, otherwise);
  }
};

// a <= 0 in Q(int_bits).(31 - int_bits), int_bits in [0, 29]: fxp::ExpOnNegativeValuesQ31.
inline V ExpOnNegativeValuesQ31(V a, int int_bits) {
  return ExpOnNegativeValuesQ31Lanes<NeonLanes>(a, int_bits);
}

inline V OneOverOnePlusXQ31(V x) {
  // (x + 2^31) / 2 for x in [-2^31, 2^31): floor(x / 2) + 2^30 (the scalar code uses 64 bits).
  const V half_denominator = vaddq_s32(vshrq_n_s32(x, 1), Set(1 << 30));
  V r = vaddq_s32(Set(1515870810),
                  SaturatingRoundingDoublingHighMul(half_denominator, Set(-1010580540)));
  for (int i = 0; i < 3; ++i) {
    const V d_times_r = SaturatingRoundingDoublingHighMul(half_denominator, r);
    const V one_minus = vsubq_s32(Set(1 << 29), d_times_r);
    const V correction = SaturatingRoundingDoublingHighMul(r, one_minus);
    r = vqaddq_s32(r, vqshlq_n_s32(correction, 2));
  }
  return vqshlq_n_s32(r, 1);
}

// |a| with INT32_MIN -> INT32_MAX (the scalar functions' abs_a) is vqabs.
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

// ---- partial blocks ---------------------------------------------------------------------------

// Loads `lanes` (<= 4) int32 values, zero-padded; stores the first `lanes`.
inline V LoadS32Partial(const int32_t* p, int32_t lanes) {
  if (lanes >= 4) return vld1q_s32(p);
  int32_t block[4] = {0, 0, 0, 0};
  for (int32_t t = 0; t < lanes; ++t) block[t] = p[t];
  return vld1q_s32(block);
}
inline void StoreS32Partial(int32_t* p, V v, int32_t lanes) {
  if (lanes >= 4) return vst1q_s32(p, v);
  int32_t block[4];
  vst1q_s32(block, v);
  for (int32_t t = 0; t < lanes; ++t) p[t] = block[t];
}

}  // namespace
}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_ARM_NEON_FIXED_POINT_NEON_H_
