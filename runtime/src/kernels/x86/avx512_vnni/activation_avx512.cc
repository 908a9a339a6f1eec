// AVX-512 sigmoid and tanh (simd_activation.h): activation_avx2.cc's computation on 16 lanes,
// the same IEEE operations in the same order per lane (exp by range reduction and a degree-6
// polynomial with FMA, one division), so each value is bit-identical to the AVX2 kernel's.
// Tails take a masked load and store.
#if defined(__x86_64__)
#include <immintrin.h>

#include "kernels/simd/simd_activation.h"

namespace edgenmt {
namespace simd {
namespace {

inline __m512 ExpNonPositive(__m512 v) {
  v = _mm512_max_ps(v, _mm512_set1_ps(-87.3f));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(v, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), v);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  const __m512i exponent = _mm512_slli_epi32(_mm512_cvtps_epi32(n), 23);
  return _mm512_castsi512_ps(_mm512_add_epi32(_mm512_castps_si512(p), exponent));
}

inline __m512 Abs(__m512 v) {
  return _mm512_castsi512_ps(
      _mm512_andnot_si512(_mm512_castps_si512(_mm512_set1_ps(-0.0f)), _mm512_castps_si512(v)));
}

inline __m512 KeepNan(__m512 x, __m512 result) {
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), result, x);
}

inline __m512 Sigmoid16(__m512 x) {
  const __m512 e = ExpNonPositive(_mm512_sub_ps(_mm512_setzero_ps(), Abs(x)));
  const __m512 s = _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_add_ps(_mm512_set1_ps(1.0f), e));
  const __mmask16 negative = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
  return KeepNan(x, _mm512_mask_blend_ps(negative, s, _mm512_mul_ps(e, s)));
}

inline __m512 Tanh16(__m512 x) {
  const __m512 e = ExpNonPositive(_mm512_mul_ps(Abs(x), _mm512_set1_ps(-2.0f)));
  const __m512 t =
      _mm512_div_ps(_mm512_sub_ps(_mm512_set1_ps(1.0f), e), _mm512_add_ps(_mm512_set1_ps(1.0f), e));
  const __m512i sign =
      _mm512_and_si512(_mm512_castps_si512(x), _mm512_castps_si512(_mm512_set1_ps(-0.0f)));
  return KeepNan(x, _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(t), sign)));
}

template <__m512 (*F)(__m512)>
void Apply(int32_t n, const float* x, float* y) {
  int32_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, F(_mm512_loadu_ps(x + i)));
  if (i < n) {
    // Lanes past n compute on zeros (as the AVX2 kernel's padded block) and are not stored.
    const __mmask16 lanes = static_cast<__mmask16>((1u << (n - i)) - 1u);
    _mm512_mask_storeu_ps(y + i, lanes, F(_mm512_maskz_loadu_ps(lanes, x + i)));
  }
}

}  // namespace

void SigmoidF32Avx512(int32_t n, const float* x, float* y) { Apply<Sigmoid16>(n, x, y); }
void TanhF32Avx512(int32_t n, const float* x, float* y) { Apply<Tanh16>(n, x, y); }

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
