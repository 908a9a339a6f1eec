// AVX2 layer norm and ReLU (simd_layer_norm.h): 8 lanes, scalar tails.
#if defined(__x86_64__)
#include <immintrin.h>
#include <math.h>

#include "kernels/simd/simd_layer_norm.h"

namespace edgenmt {
namespace simd {
namespace {

inline float Sum8(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

}  // namespace

void LayerNormF32Avx2(int32_t n, const float* x, const float* gain, const float* shift, float eps,
                      float* y) {
  __m256 acc = _mm256_setzero_ps();
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) acc = _mm256_add_ps(acc, _mm256_loadu_ps(x + i));
  float sum = Sum8(acc);
  for (; i < n; ++i) sum += x[i];
  const float mean = sum / static_cast<float>(n);
  const __m256 m = _mm256_set1_ps(mean);
  acc = _mm256_setzero_ps();
  for (i = 0; i + 8 <= n; i += 8) {
    const __m256 d = _mm256_sub_ps(_mm256_loadu_ps(x + i), m);
    acc = _mm256_add_ps(acc, _mm256_mul_ps(d, d));
  }
  float squares = Sum8(acc);
  for (; i < n; ++i) squares += (x[i] - mean) * (x[i] - mean);
  const float inv = 1.0f / sqrtf(squares / static_cast<float>(n) + eps);
  const __m256 s = _mm256_set1_ps(inv);
  for (i = 0; i + 8 <= n; i += 8) {
    const __m256 d = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(x + i), m), s);
    _mm256_storeu_ps(y + i, _mm256_add_ps(_mm256_mul_ps(d, _mm256_loadu_ps(gain + i)),
                                          _mm256_loadu_ps(shift + i)));
  }
  for (; i < n; ++i) y[i] = (x[i] - mean) * inv * gain[i] + shift[i];
}

void ReluF32Avx2(int32_t n, const float* x, float* y) {
  const __m256 zero = _mm256_setzero_ps();
  int32_t i = 0;
  // max(x, 0) returns its second operand for NaN and for -0: +0, as the reference.
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_max_ps(_mm256_loadu_ps(x + i), zero));
  for (; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
