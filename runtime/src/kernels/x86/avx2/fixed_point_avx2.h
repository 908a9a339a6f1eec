// The scalar fixed-point primitives of edgenmt/internal/fixed_point.h that the exp needs, on 8
// int32 lanes of AVX2, bit-exact. AVX2 has no 32x32 -> high-32 product and no 64-bit arithmetic
// shift, so SaturatingRoundingDoublingHighMul forms the even and odd lanes' exact 64-bit
// products (vpmuldq) and takes bits 31-62 of each after the nudge; everything else stays in
// 32 bits where the scalar code's values fit (noted). Each function mirrors the scalar one with
// the same name; the exp is fixed_point_exp_lanes.h's over these lanes. Included only by AVX2
// files (softmax_avx2.cc, narrow_avx2.cc, requantize_avx2.cc); anonymous namespace, like
// fixed_point_avx512.h, so no copy compiled with AVX2 can reach baseline code.
#ifndef EDGENMT_KERNELS_X86_AVX2_FIXED_POINT_AVX2_H_
#define EDGENMT_KERNELS_X86_AVX2_FIXED_POINT_AVX2_H_

#include <immintrin.h>
#include <stdint.h>

#include "kernels/simd/fixed_point_exp_lanes.h"

namespace edgenmt {
namespace simd {
namespace {

using V = __m256i;  // 8 int32 lanes

constexpr int32_t kQ31One = 2147483647;

inline V Set(int32_t v) { return _mm256_set1_epi32(v); }

// round(a * b / 2^31), ties up: the scalar nudge-and-truncate equals floor((ab + 2^30) / 2^31)
// for either sign of ab (fixed_point_avx512.h), whose low 32 bits a logical 64-bit shift gives.
// INT32_MIN * INT32_MIN saturates to INT32_MAX as in the scalar code.
inline V SaturatingRoundingDoublingHighMul(V a, V b) {
  const V nudge = _mm256_set1_epi64x(int64_t{1} << 30);
  const V even = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(a, b), nudge), 31);
  const V odd = _mm256_srli_epi64(
      _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32)), nudge),
      31);
  const V product = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
  const V both_min = _mm256_and_si256(_mm256_cmpeq_epi32(a, Set(INT32_MIN)),
                                      _mm256_cmpeq_epi32(b, Set(INT32_MIN)));
  return _mm256_blendv_epi8(product, Set(kQ31One), both_min);
}

// INT32_MAX where x >= 0, INT32_MIN where x < 0.
inline V SaturationOf(V x) { return _mm256_xor_si256(_mm256_srai_epi32(x, 31), Set(0x7FFFFFFF)); }

inline V SaturatingAdd(V a, V b) {
  const V sum = _mm256_add_epi32(a, b);
  // Overflow: a and b share a sign that the sum lacks.
  const V overflow =
      _mm256_srai_epi32(_mm256_and_si256(_mm256_xor_si256(a, sum), _mm256_xor_si256(b, sum)), 31);
  return _mm256_blendv_epi8(sum, SaturationOf(a), overflow);
}

// Exponents in [0, 30]: saturates where shifting back does not restore x.
inline V SaturatingLeftShift(V x, V exponent) {
  const V shifted = _mm256_sllv_epi32(x, exponent);
  const V kept = _mm256_cmpeq_epi32(_mm256_srav_epi32(shifted, exponent), x);
  return _mm256_blendv_epi8(SaturationOf(x), shifted, kept);
}

// round(x / 2^exponent), ties away from zero, per-lane exponents in [0, 31]: the scalar code's
// overflow-free remainder and threshold, lane by lane, so every int32 input is exact (2^31 - 1
// is the mask at 31: the subtraction wraps as intended).
inline V RoundingDivideByPOT(V x, V exponent) {
  const V mask = _mm256_sub_epi32(_mm256_sllv_epi32(Set(1), exponent), Set(1));
  const V remainder = _mm256_and_si256(x, mask);
  const V threshold =
      _mm256_sub_epi32(_mm256_srai_epi32(mask, 1), _mm256_srai_epi32(x, 31));  // +1 if x < 0
  const V shifted = _mm256_srav_epi32(x, exponent);
  return _mm256_sub_epi32(shifted, _mm256_cmpgt_epi32(remainder, threshold));
}
// One exponent for every lane; exponents <= 0 return x, as the scalar function does.
inline V RoundingDivideByPOT(V x, int exponent) {
  return exponent <= 0 ? x : RoundingDivideByPOT(x, Set(exponent));
}

// Shifts in [-31, 30]: left by max(shift, 0) saturating, the product, right by max(-shift, 0).
inline V MultiplyByQuantizedMultiplier(V x, V multiplier, V shift) {
  const V zero = _mm256_setzero_si256();
  const V left = _mm256_max_epi32(shift, zero);
  const V right = _mm256_max_epi32(_mm256_sub_epi32(zero, shift), zero);
  return RoundingDivideByPOT(
      SaturatingRoundingDoublingHighMul(SaturatingLeftShift(x, left), multiplier), right);
}

// The lane operations of fixed_point_exp_lanes.h.
struct Avx2Lanes {
  using V = __m256i;
  static V Set(int32_t v) { return _mm256_set1_epi32(v); }
  static V Add(V a, V b) { return _mm256_add_epi32(a, b); }
  static V Sub(V a, V b) { return _mm256_sub_epi32(a, b); }
  static V And(V a, V b) { return _mm256_and_si256(a, b); }
  static V ShiftLeft(V x, int n) { return _mm256_sll_epi32(x, _mm_cvtsi32_si128(n)); }
  static V SaturatingRoundingDoublingHighMul(V a, V b) {
    return simd::SaturatingRoundingDoublingHighMul(a, b);
  }
  static V RoundingDivideByPOT(V x, int exponent) { return simd::RoundingDivideByPOT(x, exponent); }
  static V SelectWhereAnyBit(V x, int32_t bits, V if_set, V otherwise) {
    const V clear = _mm256_cmpeq_epi32(_mm256_and_si256(x, Set(bits)), _mm256_setzero_si256());
    return _mm256_blendv_epi8(if_set, otherwise, clear);
  }
  static V SelectWhereNonNegative(V a, V if_set, V otherwise) {
    return _mm256_blendv_epi8(otherwise, if_set, _mm256_cmpgt_epi32(a, Set(-1)));
  }
};

// a <= 0 in Q(int_bits).(31 - int_bits), int_bits in [0, 29]: fxp::ExpOnNegativeValuesQ31.
inline V ExpOnNegativeValuesQ31(V a, int int_bits) {
  return ExpOnNegativeValuesQ31Lanes<Avx2Lanes>(a, int_bits);
}

}  // namespace
}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_X86_AVX2_FIXED_POINT_AVX2_H_
