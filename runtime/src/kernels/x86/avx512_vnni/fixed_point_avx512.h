// The scalar fixed-point primitives of edgenmt/internal/fixed_point.h on 8 int32 values at once,
// each held sign-extended in a 64-bit lane of an AVX-512 register so that 32x32 -> 64-bit products
// and roundings are exactly the scalar ones. Included only by AVX-512 files (cell_avx512.cc,
// requantize_avx512.cc); everything is in an anonymous namespace, so no copy can leave them.
#ifndef EDGENMT_KERNELS_X86_AVX512_VNNI_FIXED_POINT_AVX512_H_
#define EDGENMT_KERNELS_X86_AVX512_VNNI_FIXED_POINT_AVX512_H_

#include <stdint.h>

#include "kernels/x86/avx512_vnni/avx512_intrinsics.h"

namespace edgenmt {
namespace simd {
namespace {

using V = __m512i;  // 8 lanes, each an int32 value sign-extended to 64 bits

constexpr int64_t kInt32Max = 2147483647;
constexpr int64_t kInt32Min = -2147483648LL;
constexpr int64_t kQ31One = kInt32Max;
constexpr int64_t kQ31Half = int64_t{1} << 30;

inline V Set(int64_t v) { return _mm512_set1_epi64(v); }
inline V Clamp(V x, int64_t lo, int64_t hi) {
  return _mm512_min_epi64(_mm512_max_epi64(x, Set(lo)), Set(hi));
}

// round(a * b / 2^31), ties up. The scalar version adds 2^30 (or 1 - 2^30 for a negative
// product) and divides truncating toward zero; for a negative product that is
// ceil((ab + 1 - 2^30) / 2^31) = floor((ab + 2^30) / 2^31), the same expression as for a
// positive one, so one add and an arithmetic shift give both. Only a = b = INT32_MIN exceeds
// int32 (2^31), which the min saturates as the scalar version does.
inline V SaturatingRoundingDoublingHighMul(V a, V b) {
  const V ab = _mm512_mul_epi32(a, b);  // exact signed 64-bit products of the low halves
  return _mm512_min_epi64(_mm512_srai_epi64(_mm512_add_epi64(ab, Set(int64_t{1} << 30)), 31),
                          Set(kInt32Max));
}

// Per-lane exponents in [0, 62] (exponent 0 returns x, like the scalar version).
inline V RoundingDivideByPOT(V x, V exponent) {
  const V mask = _mm512_sub_epi64(_mm512_sllv_epi64(Set(1), exponent), Set(1));
  const V remainder = _mm512_and_si512(x, mask);
  const __mmask8 negative = _mm512_cmplt_epi64_mask(x, _mm512_setzero_si512());
  const V half = _mm512_srai_epi64(mask, 1);
  const V threshold = _mm512_mask_add_epi64(half, negative, half, Set(1));
  const V shifted = _mm512_srav_epi64(x, exponent);
  const __mmask8 up = _mm512_cmpgt_epi64_mask(remainder, threshold);
  return _mm512_mask_add_epi64(shifted, up, shifted, Set(1));
}

// Ties away from zero: floor((x + 2^(e-1) - [x < 0]) / 2^e), the scalar version's result.
inline V RoundingDivideByPOT(V x, int exponent) {
  if (exponent <= 0) return x;
  const V negative_one = _mm512_srai_epi64(x, 63);  // -1 where x < 0, else 0
  const V biased =
      _mm512_add_epi64(_mm512_add_epi64(x, Set(int64_t{1} << (exponent - 1))), negative_one);
  return _mm512_sra_epi64(biased, _mm_cvtsi32_si128(exponent));
}

inline V SaturatingAdd(V a, V b) { return Clamp(_mm512_add_epi64(a, b), kInt32Min, kInt32Max); }
// Per-lane exponents in [0, 31].
inline V SaturatingLeftShift(V x, V exponent) {
  return Clamp(_mm512_sllv_epi64(x, exponent), kInt32Min, kInt32Max);
}

inline V SaturatingLeftShift(V x, int exponent) {
  return Clamp(_mm512_sll_epi64(x, _mm_cvtsi32_si128(exponent)), kInt32Min, kInt32Max);
}

// MultiplyByQuantizedMultiplier with per-lane multipliers and shifts (shift in [-31, 30]).
inline V MultiplyByQuantizedMultiplier(V x, V multiplier, V shift) {
  const V left = _mm512_max_epi64(shift, _mm512_setzero_si512());
  const V right =
      _mm512_max_epi64(_mm512_sub_epi64(_mm512_setzero_si512(), shift), _mm512_setzero_si512());
  return RoundingDivideByPOT(
      SaturatingRoundingDoublingHighMul(SaturatingLeftShift(x, left), multiplier), right);
}

inline V LoadS32(const int32_t* p) {
  return _mm512_cvtepi32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
inline void StoreS32(int32_t* p, V v) {  // v within int32
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm512_cvtepi64_epi32(v));
}

}  // namespace
}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_X86_AVX512_VNNI_FIXED_POINT_AVX512_H_
