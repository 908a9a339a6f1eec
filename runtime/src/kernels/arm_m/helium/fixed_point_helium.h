// The scalar fixed-point primitives of edgenmt/internal/fixed_point.h on 4 int32 lanes of Helium
// (MVE), bit-exact: VQRDMULH is fxp::SaturatingRoundingDoublingHighMul, VQSHL a saturating left
// shift, and a rounding shift (ties up) of x - [x < 0] is fxp::RoundingDivideByPOT (ties away from
// zero); the exp is fixed_point_exp_lanes.h's over these lanes. Included only by the Helium
// files; anonymous namespace, like fixed_point_neon.h.
#ifndef EDGENMT_KERNELS_ARM_M_HELIUM_FIXED_POINT_HELIUM_H_
#define EDGENMT_KERNELS_ARM_M_HELIUM_FIXED_POINT_HELIUM_H_

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>
#include <stdint.h>

#include "kernels/simd/fixed_point_exp_lanes.h"

namespace edgenmt {
namespace simd {
namespace {

using V = int32x4_t;

inline V Set(int32_t v) { return vdupq_n_s32(v); }

// fxp::RoundingDivideByPOT with per-lane exponents e in [0, 31] given as -e.
inline V RoundingDivideByPOT(V x, V minus_exponent) {
  const V fixup = vshrq_n_s32(vandq_s32(x, minus_exponent), 31);  // -1 where x < 0 and e > 0
  return vrshlq_s32(vqaddq_s32(x, fixup), minus_exponent);
}

// fxp::RoundingDivideByPOT with one exponent in [1, 31] for every lane, as a scalar operand
// (no vector register held for it).
inline V RoundingRightShift(V x, int32_t exponent) {
  return vrshlq_n_s32(vqaddq_s32(x, vshrq_n_s32(x, 31)), -exponent);  // x - [x < 0], ties up
}

inline V Clamp(V x, int32_t lo, int32_t hi) { return vminq_s32(vmaxq_s32(x, Set(lo)), Set(hi)); }

// x saturated to int16 by VQMOVNB (into the low half of each lane) and sign-extended back by
// VMOVLB: no bounds held in vector registers.
inline V SaturateS16(V x) { return vmovlbq_s16(vqmovnbq_s32(vreinterpretq_s16_s32(x), x)); }

// x saturated to int8 in each lane's low byte (two saturating narrowings), which VSTRB.32
// stores; the other bytes are not meaningful.
inline V SaturateS8LowByte(V x) {
  const int16x8_t x16 = vqmovnbq_s32(vreinterpretq_s16_s32(x), x);
  return vreinterpretq_s32_s8(vqmovnbq_s16(vreinterpretq_s8_s16(x16), x16));
}

// fxp::MultiplyByQuantizedMultiplier(x, multiplier, shift), shift in [-31, 30].
inline V MultiplyByQuantizedMultiplier(V x, V multiplier, V shift) {
  const V left = vmaxq_s32(shift, Set(0));
  const V minus_right = vminq_s32(shift, Set(0));
  return RoundingDivideByPOT(vqrdmulhq_s32(vqshlq_s32(x, left), multiplier), minus_right);
}

// The lane operations of fixed_point_exp_lanes.h. MVE has no VTST: a lane's bits are tested by
// VAND and a compare with zero, and the predicate selects (VPSEL).
struct HeliumLanes {
  using V = int32x4_t;
  static V Set(int32_t v) { return vdupq_n_s32(v); }
  static V Add(V a, V b) { return vaddq_s32(a, b); }
  static V Sub(V a, V b) { return vsubq_s32(a, b); }
  static V And(V a, V b) { return vandq_s32(a, b); }
  static V ShiftLeft(V x, int n) { return vshlq_r_s32(x, n); }
  static V SaturatingRoundingDoublingHighMul(V a, V b) { return vqrdmulhq_s32(a, b); }
  static V RoundingDivideByPOT(V x, int exponent) { return RoundingRightShift(x, exponent); }
  static V SelectWhereAnyBit(V x, int32_t bits, V if_set, V otherwise) {
    return vpselq_s32(if_set, otherwise, vcmpneq_n_s32(vandq_s32(x, Set(bits)), 0));
  }
  static V SelectWhereNonNegative(V a, V if_set, V otherwise) {
    return vpselq_s32(if_set, otherwise, vcmpgeq_n_s32(a, 0));
  }
};

// a <= 0 in Q(int_bits).(31 - int_bits), int_bits in [0, 29]: fxp::ExpOnNegativeValuesQ31.
inline V ExpOnNegativeValuesQ31(V a, int int_bits) {
  return ExpOnNegativeValuesQ31Lanes<HeliumLanes>(a, int_bits);
}

}  // namespace
}  // namespace simd
}  // namespace edgenmt

#endif  // defined(__ARM_FEATURE_MVE)
#endif  // EDGENMT_KERNELS_ARM_M_HELIUM_FIXED_POINT_HELIUM_H_
