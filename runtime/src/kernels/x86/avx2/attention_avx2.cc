// AVX2 int8-full attention products over the Q0.15 memory (simd_attention.h), bit-exact: the
// int16 x int16 products are exact in int32 (|a|, |b| <= 2^15; vpmulld on sign-extended lanes,
// not vpmaddwd, whose pair sum overflows when both pairs are -2^15 * -2^15) and are summed in
// int64 lanes, so every result is the reference's exact sum. The context's last columns go
// through zero-padded rows; no inline function of edgenmt/internal/fixed_point.h is compiled here
// (an AVX2 copy of one could be the one the linker keeps for baseline code: simd_cell.h).
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "kernels/simd/simd_attention.h"

namespace edgenmt {
namespace simd {
namespace {

// 8 int16 values sign-extended to int32.
inline __m256i LoadS16(const int16_t* p) {
  return _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// The 8 int32 products' two halves added to int64 accumulators (lanes 0-3 and 4-7).
inline void Accumulate(__m256i products, __m256i* low, __m256i* high) {
  *low = _mm256_add_epi64(*low, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(products)));
  *high = _mm256_add_epi64(*high, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(products, 1)));
}

// edgenmt/internal/fixed_point.h's RoundingDivideByPOT64(x, 23) then SaturateToInt8, on 4 int64
// lanes, as int32 lanes 0-3 of the result: floor((x + 2^22 - (x < 0)) / 2^23), the floor an
// arithmetic shift that AVX2 lacks for 64-bit lanes (a logical shift with the sign's bits put
// back).
inline __m128i RoundShift23ToS8(__m256i x) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i biased = _mm256_add_epi64(_mm256_add_epi64(x, _mm256_set1_epi64x(int64_t{1} << 22)),
                                          _mm256_cmpgt_epi64(zero, x));  // -1 where x < 0
  const __m256i sign = _mm256_cmpgt_epi64(zero, biased);
  __m256i q = _mm256_or_si256(_mm256_srli_epi64(biased, 23), _mm256_slli_epi64(sign, 64 - 23));
  const __m256i hi = _mm256_set1_epi64x(127), lo = _mm256_set1_epi64x(-128);
  q = _mm256_blendv_epi8(q, hi, _mm256_cmpgt_epi64(q, hi));
  q = _mm256_blendv_epi8(q, lo, _mm256_cmpgt_epi64(lo, q));
  // The low 32 bits of each int64 lane (in [-128, 127], so exact) into lanes 0-3.
  return _mm256_castsi256_si128(
      _mm256_permutevar8x32_epi32(q, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
}

inline int64_t ReduceAdd(__m256i v) {
  const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

}  // namespace

int64_t DotS16S64Avx2(int32_t n, const int16_t* a, const int16_t* b) {
  __m256i low = _mm256_setzero_si256(), high = _mm256_setzero_si256();
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    Accumulate(_mm256_mullo_epi32(LoadS16(a + i), LoadS16(b + i)), &low, &high);
  }
  int64_t sum = ReduceAdd(_mm256_add_epi64(low, high));
  for (; i < n; ++i) sum += static_cast<int32_t>(a[i]) * b[i];
  return sum;
}

void ContextS16S8Avx2(int32_t count, const int16_t* weights, const int16_t* memory, int32_t dim,
                      int8_t* context) {
  for (int32_t j = 0; j < dim; j += 8) {
    const int32_t lanes = dim - j < 8 ? dim - j : 8;
    __m256i low = _mm256_setzero_si256(), high = _mm256_setzero_si256();  // columns j.. and j + 4..
    for (int32_t s = 0; s < count; ++s) {
      const int16_t* row = memory + static_cast<int64_t>(s) * dim + j;
      int16_t padded[8] = {};  // the last columns: zeros past dim, nothing read beyond it
      if (lanes < 8) memcpy(padded, row, sizeof(int16_t) * lanes);
      const __m256i w = _mm256_set1_epi32(weights[s]);
      Accumulate(_mm256_mullo_epi32(w, LoadS16(lanes < 8 ? padded : row)), &low, &high);
    }
    const __m128i s16 = _mm_packs_epi32(RoundShift23ToS8(low), RoundShift23ToS8(high));
    const __m128i s8 = _mm_packs_epi16(s16, _mm_setzero_si128());
    if (lanes == 8) {
      _mm_storel_epi64(reinterpret_cast<__m128i*>(context + j), s8);
    } else {
      int8_t out[16];
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out), s8);
      memcpy(context + j, out, lanes);
    }
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
