// AVX2 + FMA dot products (simd_dot.h). int8: both operands sign-extended to int16 and
// multiplied pairwise into int32 (vpmaddwd), exact for every int8 value including -128 (the
// faster vpmaddubsw would saturate on it). Four weight rows share each activation load.
#if defined(__x86_64__)
#include <immintrin.h>

#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {
namespace {

inline __m256i LoadS8AsS16(const int8_t* p) {
  return _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// The four lane sums of a0..a3, in order.
inline __m128i SumLanes4(__m256i a0, __m256i a1, __m256i a2, __m256i a3) {
  const __m256i s = _mm256_hadd_epi32(_mm256_hadd_epi32(a0, a1), _mm256_hadd_epi32(a2, a3));
  return _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
}

inline __m128 SumLanes4(__m256 a0, __m256 a1, __m256 a2, __m256 a3) {
  const __m256 s = _mm256_hadd_ps(_mm256_hadd_ps(a0, a1), _mm256_hadd_ps(a2, a3));
  return _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
}

}  // namespace

void DotS8Avx2(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride, int32_t count,
               int32_t* acc) {
  const int32_t vector_depth = depth & ~15;
  int32_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const int8_t* w0 = w + static_cast<int64_t>(j) * w_stride;
    const int8_t* w1 = w0 + w_stride;
    const int8_t* w2 = w1 + w_stride;
    const int8_t* w3 = w2 + w_stride;
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    for (int32_t k = 0; k < vector_depth; k += 16) {
      const __m256i xv = LoadS8AsS16(x + k);
      a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(xv, LoadS8AsS16(w0 + k)));
      a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(xv, LoadS8AsS16(w1 + k)));
      a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(xv, LoadS8AsS16(w2 + k)));
      a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(xv, LoadS8AsS16(w3 + k)));
    }
    alignas(16) int32_t sums[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(sums), SumLanes4(a0, a1, a2, a3));
    for (int32_t k = vector_depth; k < depth; ++k) {
      sums[0] += x[k] * w0[k];
      sums[1] += x[k] * w1[k];
      sums[2] += x[k] * w2[k];
      sums[3] += x[k] * w3[k];
    }
    for (int32_t i = 0; i < 4; ++i) acc[j + i] = sums[i];
  }
  for (; j < count; ++j) {
    const int8_t* w0 = w + static_cast<int64_t>(j) * w_stride;
    __m256i a0 = _mm256_setzero_si256();
    for (int32_t k = 0; k < vector_depth; k += 16) {
      a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(LoadS8AsS16(x + k), LoadS8AsS16(w0 + k)));
    }
    const __m256i zero = _mm256_setzero_si256();
    int32_t sum = _mm_cvtsi128_si32(SumLanes4(a0, zero, zero, zero));
    for (int32_t k = vector_depth; k < depth; ++k) sum += x[k] * w0[k];
    acc[j] = sum;
  }
}

void DotF32Avx2Fma(int32_t depth, const float* x, const float* w, int32_t w_stride, int32_t count,
                   float* acc) {
  const int32_t vector_depth = depth & ~7;
  int32_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const float* w0 = w + static_cast<int64_t>(j) * w_stride;
    const float* w1 = w0 + w_stride;
    const float* w2 = w1 + w_stride;
    const float* w3 = w2 + w_stride;
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (int32_t k = 0; k < vector_depth; k += 8) {
      const __m256 xv = _mm256_loadu_ps(x + k);
      a0 = _mm256_fmadd_ps(xv, _mm256_loadu_ps(w0 + k), a0);
      a1 = _mm256_fmadd_ps(xv, _mm256_loadu_ps(w1 + k), a1);
      a2 = _mm256_fmadd_ps(xv, _mm256_loadu_ps(w2 + k), a2);
      a3 = _mm256_fmadd_ps(xv, _mm256_loadu_ps(w3 + k), a3);
    }
    alignas(16) float sums[4];
    _mm_store_ps(sums, SumLanes4(a0, a1, a2, a3));
    for (int32_t k = vector_depth; k < depth; ++k) {
      sums[0] += x[k] * w0[k];
      sums[1] += x[k] * w1[k];
      sums[2] += x[k] * w2[k];
      sums[3] += x[k] * w3[k];
    }
    for (int32_t i = 0; i < 4; ++i) acc[j + i] = sums[i];
  }
  for (; j < count; ++j) {
    const float* w0 = w + static_cast<int64_t>(j) * w_stride;
    __m256 a0 = _mm256_setzero_ps();
    for (int32_t k = 0; k < vector_depth; k += 8) {
      a0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + k), _mm256_loadu_ps(w0 + k), a0);
    }
    const __m256 zero = _mm256_setzero_ps();
    float sum = _mm_cvtss_f32(SumLanes4(a0, zero, zero, zero));
    for (int32_t k = vector_depth; k < depth; ++k) sum += x[k] * w0[k];
    acc[j] = sum;
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
