// fxp::ExpOnNegativeValuesQ31 (edgenmt/fixed_point.h) on 8 values in int64 lanes
// (fixed_point_avx512.h's conventions), bit-exact: the cell's logistic / tanh (cell_avx512.cc)
// and the softmax kernels (softmax_avx512.cc) share it. AVX-512 files only (anonymous
// namespace, like fixed_point_avx512.h).
#ifndef EDGENMT_KERNELS_SIMD_FIXED_POINT_EXP_AVX512_H_
#define EDGENMT_KERNELS_SIMD_FIXED_POINT_EXP_AVX512_H_

#include "kernels/simd/fixed_point_avx512.h"

namespace edgenmt {
namespace simd {
namespace {

inline V ExpOnIntervalNegativeQuarterTo0Q31(V a) {
  const V exp_minus_one_eighth = Set(1895147668);
  const V x = _mm512_add_epi64(a, Set(1 << 28));
  const V x2 = SaturatingRoundingDoublingHighMul(x, x);
  const V x3 = SaturatingRoundingDoublingHighMul(x2, x);
  const V x4 = SaturatingRoundingDoublingHighMul(x2, x2);
  const V x5 = SaturatingRoundingDoublingHighMul(x4, x);
  const V t5 = _mm512_add_epi64(SaturatingRoundingDoublingHighMul(x5, Set(429496730)), x4);
  const V t4 = _mm512_add_epi64(RoundingDivideByPOT(t5, 2), x3);
  const V t3 = _mm512_add_epi64(SaturatingRoundingDoublingHighMul(t4, Set(715827883)), x2);
  const V poly = RoundingDivideByPOT(t3, 1);
  return _mm512_add_epi64(exp_minus_one_eighth, SaturatingRoundingDoublingHighMul(
                                                    exp_minus_one_eighth, _mm512_add_epi64(x, poly)));
}

// a <= 0 in Q(int_bits).(31 - int_bits), int_bits in [0, 28] (frac_bits >= 3 here).
inline V ExpOnNegativeValuesQ31(V a, int int_bits) {
  static constexpr int64_t kExpMinusPow2[7] = {1672461947, 1302514674, 790015084, 290630308,
                                               39332535,   720401,     242};
  const int frac_bits = 31 - int_bits;
  const int64_t one_quarter = int64_t{1} << (frac_bits - 2);
  const V a_mod_quarter_minus_quarter =
      _mm512_sub_epi64(_mm512_and_si512(a, Set(one_quarter - 1)), Set(one_quarter));
  V result = ExpOnIntervalNegativeQuarterTo0Q31(
      _mm512_sll_epi64(a_mod_quarter_minus_quarter, _mm_cvtsi32_si128(int_bits)));
  const V remainder = _mm512_sub_epi64(a_mod_quarter_minus_quarter, a);
  for (int k = -2; k < int_bits; ++k) {
    const int bit = frac_bits + k;
    if (bit > 30) break;
    const __mmask8 set = _mm512_test_epi64_mask(remainder, Set(int64_t{1} << bit));
    if (k > 4) {
      result = _mm512_mask_blend_epi64(set, result, _mm512_setzero_si512());
    } else {
      result = _mm512_mask_blend_epi64(
          set, result, SaturatingRoundingDoublingHighMul(result, Set(kExpMinusPow2[k + 2])));
    }
  }
  const __mmask8 non_negative = _mm512_cmpge_epi64_mask(a, _mm512_setzero_si512());
  return _mm512_mask_blend_epi64(non_negative, result, Set(kQ31One));
}

}  // namespace
}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_FIXED_POINT_EXP_AVX512_H_
