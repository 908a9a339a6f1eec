// AVX2 + FMA sigmoid and tanh (simd_activation.h). Tails go through a zero-padded stack block
// of 8, so every element takes the same vector path.
#if defined(__x86_64__)
#include <immintrin.h>
#include <math.h>

#include "kernels/simd/padded_tail.h"
#include "kernels/simd/simd_activation.h"
#include "kernels/simd/simd_softmax.h"

namespace edgenmt {
namespace simd {
namespace {

// e^v for v <= 0 (v >= -87.3 keeps 2^n a normal float; below, the value is clamped there:
// e^-87.3 ~ 1e-38 is zero for both functions' purposes).
inline __m256 ExpNonPositive(__m256 v) {
  v = _mm256_max_ps(v, _mm256_set1_ps(-87.3f));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(v, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), v);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i exponent = _mm256_slli_epi32(_mm256_cvtps_epi32(n), 23);
  return _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(p), exponent));
}

inline __m256 Abs(__m256 v) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v); }

inline __m256 KeepNan(__m256 x, __m256 result) {
  return _mm256_blendv_ps(result, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

inline __m256 Sigmoid8(__m256 x) {
  const __m256 e = ExpNonPositive(_mm256_sub_ps(_mm256_setzero_ps(), Abs(x)));
  const __m256 s = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_add_ps(_mm256_set1_ps(1.0f), e));
  const __m256 negative = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ);
  return KeepNan(x, _mm256_blendv_ps(s, _mm256_mul_ps(e, s), negative));
}

inline __m256 Tanh8(__m256 x) {
  const __m256 a = Abs(x);
  const __m256 e = ExpNonPositive(_mm256_mul_ps(a, _mm256_set1_ps(-2.0f)));
  const __m256 t =
      _mm256_div_ps(_mm256_sub_ps(_mm256_set1_ps(1.0f), e), _mm256_add_ps(_mm256_set1_ps(1.0f), e));
  const __m256 sign = _mm256_and_ps(x, _mm256_set1_ps(-0.0f));
  return KeepNan(x, _mm256_or_ps(t, sign));
}

template <__m256 (*F)(__m256)>
void Apply(int32_t n, const float* x, float* y) {
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, F(_mm256_loadu_ps(x + i)));
  PaddedTail<8>(i, n, x, y,
                [](const float* in, float* out) { _mm256_storeu_ps(out, F(_mm256_loadu_ps(in))); });
}

// Lanes [0, count) of 8 as a blend / load mask (count <= 8).
inline __m256i LaneMask(int32_t count) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

float Max(int32_t n, const float* x) {
  float max_value = x[0];
  for (int32_t i = 1; i < n; ++i) max_value = x[i] > max_value ? x[i] : max_value;
  return max_value;
}

// Writes e^(x[i] - max) to y (when y is not null) and returns their sum; lanes past n add 0.
float ExpOfDifferences(int32_t n, const float* x, float max_value, float* y) {
  const __m256 max_v = _mm256_set1_ps(max_value);
  __m256 sum = _mm256_setzero_ps();
  for (int32_t i = 0; i < n; i += 8) {
    const __m256i lanes = LaneMask(n - i);
    const __m256 d = _mm256_sub_ps(_mm256_maskload_ps(x + i, lanes), max_v);
    // Below -87.3 ExpNonPositive stops at its clamp; there (a -inf score too) the term is 0.
    const __m256 in_range = _mm256_cmp_ps(d, _mm256_set1_ps(-87.3f), _CMP_GE_OQ);
    const __m256 e = _mm256_and_ps(ExpNonPositive(d), in_range);
    const __m256 live = _mm256_and_ps(e, _mm256_castsi256_ps(lanes));
    sum = _mm256_add_ps(sum, live);
    if (y != nullptr) _mm256_maskstore_ps(y + i, lanes, live);
  }
  const __m128 half = _mm_add_ps(_mm256_castps256_ps128(sum), _mm256_extractf128_ps(sum, 1));
  const __m128 quarter = _mm_add_ps(half, _mm_movehl_ps(half, half));
  return _mm_cvtss_f32(_mm_add_ss(quarter, _mm_shuffle_ps(quarter, quarter, 1)));
}

}  // namespace

void SigmoidF32Avx2(int32_t n, const float* x, float* y) { Apply<Sigmoid8>(n, x, y); }
void TanhF32Avx2(int32_t n, const float* x, float* y) { Apply<Tanh8>(n, x, y); }

void SoftmaxF32Avx2(int32_t n, const float* x, float* y) {
  const float inv = 1.0f / ExpOfDifferences(n, x, Max(n, x), y);
  const __m256 inv_v = _mm256_set1_ps(inv);
  for (int32_t i = 0; i < n; i += 8) {
    const __m256i lanes = LaneMask(n - i);
    _mm256_maskstore_ps(y + i, lanes, _mm256_mul_ps(_mm256_maskload_ps(y + i, lanes), inv_v));
  }
}

void LogSoftmaxF32Avx2(int32_t n, const float* x, float* y) {
  const float max_value = Max(n, x);
  const __m256 max_v = _mm256_set1_ps(max_value);
  const __m256 log_sum = _mm256_set1_ps(logf(ExpOfDifferences(n, x, max_value, nullptr)));
  for (int32_t i = 0; i < n; i += 8) {
    // (x - max) first, as the reference: x - (max + log_sum) would round log_sum to max's ulp.
    const __m256i lanes = LaneMask(n - i);
    const __m256 shifted = _mm256_sub_ps(_mm256_maskload_ps(x + i, lanes), max_v);
    _mm256_maskstore_ps(y + i, lanes, _mm256_sub_ps(shifted, log_sum));
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
