// fxp::ExpOnNegativeValuesQ31 (edgenmt/internal/fixed_point.h) on 8 values in int64 lanes
// (fixed_point_avx512.h's conventions), bit-exact: fixed_point_exp_lanes.h over these lanes.
// The cell's logistic / tanh (cell_avx512.cc) and the softmax kernels (softmax_avx512.cc)
// share it. AVX-512 files only (anonymous namespace, like fixed_point_avx512.h).
#ifndef EDGENMT_KERNELS_X86_AVX512_VNNI_FIXED_POINT_EXP_AVX512_H_
#define EDGENMT_KERNELS_X86_AVX512_VNNI_FIXED_POINT_EXP_AVX512_H_

#include "kernels/x86/avx512_vnni/fixed_point_avx512.h"
#include "kernels/simd/fixed_point_exp_lanes.h"

namespace edgenmt {
namespace simd {
namespace {

// The lane operations of fixed_point_exp_lanes.h on int64 lanes holding int32 values.
struct Avx512Lanes {
  using V = __m512i;
  static V Set(int32_t v) { return _mm512_set1_epi64(v); }
  static V Add(V a, V b) { return _mm512_add_epi64(a, b); }
  static V Sub(V a, V b) { return _mm512_sub_epi64(a, b); }
  static V And(V a, V b) { return _mm512_and_si512(a, b); }
  static V ShiftLeft(V x, int n) { return _mm512_sll_epi64(x, _mm_cvtsi32_si128(n)); }
  static V SaturatingRoundingDoublingHighMul(V a, V b) {
    return simd::SaturatingRoundingDoublingHighMul(a, b);
  }
  static V RoundingDivideByPOT(V x, int exponent) { return simd::RoundingDivideByPOT(x, exponent); }
  static V SelectWhereAnyBit(V x, int32_t bits, V if_set, V otherwise) {
    return _mm512_mask_blend_epi64(_mm512_test_epi64_mask(x, Set(bits)), otherwise, if_set);
  }
  static V SelectWhereNonNegative(V a, V if_set, V otherwise) {
    return _mm512_mask_blend_epi64(_mm512_cmpge_epi64_mask(a, _mm512_setzero_si512()), otherwise,
                                   if_set);
  }
};

// a <= 0 in Q(int_bits).(31 - int_bits), int_bits in [0, 29]: fxp::ExpOnNegativeValuesQ31.
inline V ExpOnNegativeValuesQ31(V a, int int_bits) {
  return ExpOnNegativeValuesQ31Lanes<Avx512Lanes>(a, int_bits);
}

}  // namespace
}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_X86_AVX512_VNNI_FIXED_POINT_EXP_AVX512_H_
