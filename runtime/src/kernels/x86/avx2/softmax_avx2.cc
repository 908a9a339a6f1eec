// AVX2 exp terms of int8-full's softmax, log-softmax and local-p Gaussian (simd_softmax.h): the
// reference's ExpOfDifference on 8 int32 lanes at a time (fixed_point_avx2.h), bit-exact; the
// scalar steps around them are softmax_s32.cc's, shared with AVX-512.
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "kernels/x86/avx2/fixed_point_avx2.h"
#include "kernels/simd/simd_softmax.h"

namespace edgenmt {
namespace simd {
namespace {

// Lanes [0, count) all ones, count <= 8.
inline V FirstLanes(int32_t count) {
  return _mm256_cmpgt_epi32(Set(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

// 8 values from x, or the first count < 8 of them padded with `pad`.
inline V Load8(const int32_t* x, int32_t count, int32_t pad) {
  if (count >= 8) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x));
  int32_t block[8] = {pad, pad, pad, pad, pad, pad, pad, pad};
  memcpy(block, x, static_cast<size_t>(count) * sizeof(int32_t));
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block));
}

// The first count <= 8 lanes to y, saturated to int16 by the pack.
inline void Store8S16(int16_t* y, V v, int32_t count) {
  const __m128i packed =
      _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packs_epi32(v, v), 0x08));
  if (count >= 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y), packed);
    return;
  }
  int16_t block[8];
  _mm_storeu_si128(reinterpret_cast<__m128i*>(block), packed);
  memcpy(y, block, static_cast<size_t>(count) * sizeof(int16_t));
}

// exp(x - max) in Q0.31 for x, max in Q(int_bits).(31 - int_bits). The reference halves the
// difference (in [-2^32, 0]) rounding ties away from zero, which for a value <= 0 is floor:
// (x >> 1) - (max >> 1), less 1 where max is odd and x even, never overflows.
inline V ExpOfDifference(V x, V max, int32_t int_bits) {
  const V borrow = _mm256_and_si256(_mm256_andnot_si256(x, max), Set(1));
  const V halved = _mm256_sub_epi32(
      _mm256_sub_epi32(_mm256_srai_epi32(x, 1), _mm256_srai_epi32(max, 1)), borrow);
  return ExpOnNegativeValuesQ31(halved, int_bits + 1);
}

}  // namespace

uint64_t SumExpOfDifferenceAvx2(int32_t n, const int32_t* x, int32_t max, int32_t input_int_bits) {
  const V max_v = Set(max);
  V sum = _mm256_setzero_si256();  // 4 uint64 lanes; each term is in [0, 2^31)
  for (int32_t i = 0; i < n; i += 8) {
    V e = ExpOfDifference(Load8(x + i, n - i, max), max_v, input_int_bits);
    if (n - i < 8) e = _mm256_and_si256(e, FirstLanes(n - i));  // padding: none
    sum = _mm256_add_epi64(sum, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(e)));
    sum = _mm256_add_epi64(sum, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(e, 1)));
  }
  uint64_t lanes[4];
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(lanes), sum);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

void SoftmaxOutputsAvx2(int32_t n, const int32_t* x, int32_t max, int32_t input_int_bits,
                        int32_t mantissa, int32_t shift, int16_t* y) {
  const V max_v = Set(max), mantissa_v = Set(mantissa);
  for (int32_t i = 0; i < n; i += 8) {
    const V e = ExpOfDifference(Load8(x + i, n - i, max), max_v, input_int_bits);
    const V scaled = RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(e, mantissa_v), shift);
    Store8S16(y + i, scaled, n - i);  // the pack saturates to int16
  }
}

void GaussianWeightsAvx2(int32_t n, const int32_t* r_squared, int16_t* weights) {
  int16_t w[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  memcpy(w, weights, static_cast<size_t>(n) * sizeof(int16_t));
  const V gaussian =
      ExpOnNegativeValuesQ31(_mm256_sub_epi32(_mm256_setzero_si256(), Load8(r_squared, n, 0)), 3);
  const V w32 = _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w)));
  // An int16 weight times a Q0.31 factor <= 1 stays within int16 (the reference's cast).
  Store8S16(weights, SaturatingRoundingDoublingHighMul(w32, gaussian), n);
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
