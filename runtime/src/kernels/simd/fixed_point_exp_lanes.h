// fxp::ExpOnIntervalNegativeQuarterTo0Q31 and fxp::ExpOnNegativeValuesQ31
// (edgenmt/internal/fixed_point_functions.h) written once over an instruction set's lanes,
// bit-exact. L, the including file's lane operations (its fixed-point header, anonymous namespace):
//   V;  Set(int32_t);  Add, Sub, And (V, V);  ShiftLeft(V, int), exact for the values here;
//   SaturatingRoundingDoublingHighMul(V, V);  RoundingDivideByPOT(V, int), ties away from zero;
//   SelectWhereAnyBit(V x, int32_t bits, V if_set, V otherwise): lanes where x & bits != 0;
//   SelectWhereNonNegative(V a, V if_set, V otherwise).
// Included only by instruction-set headers (fixed_point_avx2.h, fixed_point_exp_avx512.h,
// fixed_point_neon.h, fixed_point_helium.h) after their lane operations; anonymous namespace, so
// every instantiation stays in a file compiled with its own flags.
#ifndef EDGENMT_KERNELS_SIMD_FIXED_POINT_EXP_LANES_H_
#define EDGENMT_KERNELS_SIMD_FIXED_POINT_EXP_LANES_H_

#include <stdint.h>

namespace edgenmt {
namespace simd {
namespace {

// a in [-1/4, 0): every intermediate fits 32 bits, as in the scalar code.
template <typename L>
inline typename L::V ExpOnIntervalNegativeQuarterTo0Q31Lanes(typename L::V a) {
  using V = typename L::V;
  const V exp_minus_one_eighth = L::Set(1895147668);
  const V x = L::Add(a, L::Set(1 << 28));
  const V x2 = L::SaturatingRoundingDoublingHighMul(x, x);
  const V x3 = L::SaturatingRoundingDoublingHighMul(x2, x);
  const V x4 = L::SaturatingRoundingDoublingHighMul(x2, x2);
  const V x5 = L::SaturatingRoundingDoublingHighMul(x4, x);
  const V t5 = L::Add(L::SaturatingRoundingDoublingHighMul(x5, L::Set(429496730)), x4);
  const V t4 = L::Add(L::RoundingDivideByPOT(t5, 2), x3);
  const V t3 = L::Add(L::SaturatingRoundingDoublingHighMul(t4, L::Set(715827883)), x2);
  const V poly = L::RoundingDivideByPOT(t3, 1);
  return L::Add(exp_minus_one_eighth,
                L::SaturatingRoundingDoublingHighMul(exp_minus_one_eighth, L::Add(x, poly)));
}

// a <= 0 in Q(int_bits).(31 - int_bits), int_bits in [0, 29] (the scalar code's quarter split;
// lanes with a >= 0 give 1, as the scalar early return does).
template <typename L>
inline typename L::V ExpOnNegativeValuesQ31Lanes(typename L::V a, int int_bits) {
  using V = typename L::V;
  static constexpr int32_t kExpMinusPow2[7] = {1672461947, 1302514674, 790015084, 290630308,
                                               39332535,   720401,     242};
  const int frac_bits = 31 - int_bits;
  const int32_t one_quarter = int32_t{1} << (frac_bits - 2);
  const V a_mod_quarter_minus_quarter =
      L::Sub(L::And(a, L::Set(one_quarter - 1)), L::Set(one_quarter));
  // In [-2^(frac_bits - 2), 0): the scalar code's 64-bit product by 2^int_bits fits 32 bits.
  V result = ExpOnIntervalNegativeQuarterTo0Q31Lanes<L>(
      L::ShiftLeft(a_mod_quarter_minus_quarter, int_bits));
  const V remainder = L::Sub(a_mod_quarter_minus_quarter, a);  // >= 0 where a < 0
  for (int k = -2; k <= 4 && k < int_bits; ++k) {
    const int bit = frac_bits + k;
    if (bit > 30) break;
    result = L::SelectWhereAnyBit(
        remainder, int32_t{1} << bit,
        L::SaturatingRoundingDoublingHighMul(result, L::Set(kExpMinusPow2[k + 2])), result);
  }
  // Any bit for k > 4 (exp(-32) and below) makes the scalar loop return 0: one test for all.
  if (int_bits > 5 && frac_bits + 5 <= 30) {
    const int32_t high_bits = static_cast<int32_t>(0x7FFFFFFFu & ~((1u << (frac_bits + 5)) - 1));
    result = L::SelectWhereAnyBit(remainder, high_bits, L::Set(0), result);
  }
  return L::SelectWhereNonNegative(a, L::Set(2147483647), result);  // fxp::kQ31One
}

}  // namespace
}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_FIXED_POINT_EXP_LANES_H_
