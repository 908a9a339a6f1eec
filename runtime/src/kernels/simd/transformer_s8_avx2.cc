// AVX2 versions of the int8-full Transformer's kernels (simd_transformer_s8.h): 8 int32 lanes,
// scalar tails; exact integer sums, the scalar rounding per lane.
#if defined(__x86_64__)
#include <immintrin.h>

#include "edgenmt/fixed_point.h"
#include "kernels/transformer_s8_elements.h"
#include "kernels/simd/simd_transformer_s8.h"

namespace edgenmt {
namespace simd {
namespace {

// fxp::RoundingDivideByPOT on 8 lanes, exponent in [0, 31]: (x >> e) + (remainder > threshold).
inline __m256i RoundingDivideByPOT(__m256i x, int exponent) {
  if (exponent <= 0) return x;
  const __m256i mask = _mm256_set1_epi32(static_cast<int32_t>((int64_t{1} << exponent) - 1));
  const __m256i remainder = _mm256_and_si256(x, mask);
  const __m256i negative = _mm256_cmpgt_epi32(_mm256_setzero_si256(), x);  // -1 where x < 0
  const __m256i threshold = _mm256_sub_epi32(_mm256_srli_epi32(mask, 1), negative);
  const __m256i up = _mm256_cmpgt_epi32(remainder, threshold);  // -1 where rounding up
  const __m128i count = _mm_cvtsi32_si128(exponent);
  return _mm256_sub_epi32(_mm256_sra_epi32(x, count), up);
}

inline int32_t Sum8(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
  return _mm_cvtsi128_si32(s);
}

}  // namespace

void RequantizeS32S8Avx2(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y) {
  const __m256i floor = relu ? _mm256_setzero_si256() : _mm256_set1_epi32(fxp::kInt32Min);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  int32_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i r[4];
    for (int k = 0; k < 4; ++k) {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i + 8 * k));
      r[k] = RoundingDivideByPOT(_mm256_max_epi32(v, floor), shift);
    }
    // Saturating packs keep each value's int8 saturation; the permute undoes their lane order.
    const __m256i packed = _mm256_packs_epi16(_mm256_packs_epi32(r[0], r[1]), _mm256_packs_epi32(r[2], r[3]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), _mm256_permutevar8x32_epi32(packed, order));
  }
  for (; i < n; ++i) y[i] = transformer_s8::Requantize(x[i], shift, relu);
}

void ResidualAddS32S16Avx2(int32_t n, const int32_t* x, int32_t shift, int16_t* residual) {
  // |v| beyond 2^16 saturates the sum either way; clamping first keeps the int32 add exact.
  const __m256i lo = _mm256_set1_epi32(-65536), hi = _mm256_set1_epi32(65536);
  int32_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256i sum[2];
    for (int k = 0; k < 2; ++k) {
      const __m256i v = RoundingDivideByPOT(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i + 8 * k)), shift);
      const __m256i r = _mm256_cvtepi16_epi32(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(residual + i + 8 * k)));
      sum[k] = _mm256_add_epi32(r, _mm256_min_epi32(_mm256_max_epi32(v, lo), hi));
    }
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(sum[0], sum[1]), 0xd8);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(residual + i), packed);
  }
  for (; i < n; ++i) residual[i] = transformer_s8::ResidualAdd(residual[i], x[i], shift);
}

void AttentionScoresS8Avx2(int32_t n, const int8_t* query, const int8_t* const* rows,
                           int32_t offset, int32_t dim, int32_t multiplier, int32_t shift,
                           int32_t* scores) {
  const int32_t blocks = dim / 16 * 16;
  for (int32_t j = 0; j < n; ++j) {
    const int8_t* key = rows[j] + offset;
    __m256i acc = _mm256_setzero_si256();
    for (int32_t i = 0; i < blocks; i += 16) {
      const __m256i q = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(query + i)));
      const __m256i k = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(key + i)));
      acc = _mm256_add_epi32(acc, _mm256_madd_epi16(q, k));
    }
    int32_t dot = Sum8(acc);
    for (int32_t i = blocks; i < dim; ++i) dot += static_cast<int32_t>(query[i]) * key[i];
    scores[j] = fxp::MultiplyByQuantizedMultiplier(dot, multiplier, shift);
  }
}

void AttentionContextS8Avx2(int32_t n, const int16_t* weights, const int8_t* const* rows,
                            int32_t offset, int32_t dim, int8_t* out) {
  int32_t i = 0;
  for (; i + 8 <= dim; i += 8) {
    __m256i acc = _mm256_setzero_si256();
    for (int32_t j = 0; j < n; ++j) {
      const __m256i v = _mm256_cvtepi8_epi32(
          _mm_loadl_epi64(reinterpret_cast<const __m128i*>(rows[j] + offset + i)));
      acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(v, _mm256_set1_epi32(weights[j])));
    }
    alignas(32) int32_t sums[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(sums), RoundingDivideByPOT(acc, 15));
    for (int k = 0; k < 8; ++k) out[i + k] = fxp::SaturateToInt8(sums[k]);
  }
  for (; i < dim; ++i) out[i] = transformer_s8::ContextColumn(n, weights, rows, offset + i);
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
