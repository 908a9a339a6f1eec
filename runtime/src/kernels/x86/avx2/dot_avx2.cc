// AVX2 + FMA dot products (simd_dot.h). int8: both operands sign-extended to int16 and
// multiplied pairwise into int32 (vpmaddwd), exact for every int8 value including -128 (the
// faster vpmaddubsw would saturate on it). Four weight rows share each activation load.
#if defined(__x86_64__)
#include <immintrin.h>

#include "kernels/kernels_s8.h"
#include "kernels/simd/dot_tail.h"
#include "kernels/simd/padded_tail.h"
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
    AddTail4(vector_depth, depth, x, w0, w_stride, sums);
    for (int32_t i = 0; i < 4; ++i) acc[j + i] = sums[i];
  }
  for (; j < count; ++j) {
    const int8_t* w0 = w + static_cast<int64_t>(j) * w_stride;
    __m256i a0 = _mm256_setzero_si256();
    for (int32_t k = 0; k < vector_depth; k += 16) {
      a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(LoadS8AsS16(x + k), LoadS8AsS16(w0 + k)));
    }
    const __m256i zero = _mm256_setzero_si256();
    acc[j] =
        AddTail1(vector_depth, depth, x, w0, _mm_cvtsi128_si32(SumLanes4(a0, zero, zero, zero)));
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
    AddTail4(vector_depth, depth, x, w0, w_stride, sums);
    for (int32_t i = 0; i < 4; ++i) acc[j + i] = sums[i];
  }
  for (; j < count; ++j) {
    const float* w0 = w + static_cast<int64_t>(j) * w_stride;
    __m256 a0 = _mm256_setzero_ps();
    for (int32_t k = 0; k < vector_depth; k += 8) {
      a0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + k), _mm256_loadu_ps(w0 + k), a0);
    }
    const __m256 zero = _mm256_setzero_ps();
    acc[j] = AddTail1(vector_depth, depth, x, w0, _mm_cvtss_f32(SumLanes4(a0, zero, zero, zero)));
  }
}

float QuantizeRowAvx2(int32_t n, const float* x, int8_t* q) {
  // max |x| ignoring NaN, as the reference: maxps returns its second operand when either is NaN.
  const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  __m256 vmax = _mm256_setzero_ps();
  int32_t i = 0;
  for (; i + 8 <= n; i += 8)
    vmax = _mm256_max_ps(_mm256_and_ps(_mm256_loadu_ps(x + i), abs_mask), vmax);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, vmax);
  float max_abs = 0.0f;
  for (float lane : lanes) max_abs = lane > max_abs ? lane : max_abs;
  for (; i < n; ++i) {
    const float a = x[i] >= 0.0f ? x[i] : -x[i];
    max_abs = a > max_abs ? a : max_abs;
  }
  if (!(max_abs >= kQuantizeRowVectorMin && max_abs <= 3.40282347e38f)) {
    return ref_quantize_row_f32_s8(n, x, q);
  }
  const __m256 inverse_scale = _mm256_set1_ps(127.0f / max_abs);
  const __m256 hi = _mm256_set1_ps(127.0f), lo = _mm256_set1_ps(-127.0f);
  const __m256 sign_mask = _mm256_set1_ps(-0.0f), half = _mm256_set1_ps(0.5f);
  const auto quantize8 = [&](const float* in, int8_t* out) {
    const __m256 v = _mm256_mul_ps(_mm256_loadu_ps(in), inverse_scale);
    const __m256 is_nan = _mm256_cmp_ps(v, v, _CMP_UNORD_Q);
    const __m256 clamped = _mm256_min_ps(_mm256_max_ps(v, lo), hi);
    // Ties away from zero: v + copysign(0.5, v), then truncation (the reference's expression).
    const __m256 rounded =
        _mm256_add_ps(clamped, _mm256_or_ps(_mm256_and_ps(clamped, sign_mask), half));
    const __m256i ints =
        _mm256_andnot_si256(_mm256_castps_si256(is_nan), _mm256_cvttps_epi32(rounded));
    const __m128i shorts =
        _mm_packs_epi32(_mm256_castsi256_si128(ints), _mm256_extracti128_si256(ints, 1));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_packs_epi16(shorts, shorts));
  };
  for (i = 0; i + 8 <= n; i += 8) quantize8(x + i, q + i);
  PaddedTail<8>(i, n, x, q, quantize8);
  return max_abs / 127.0f;
}

// StoreHybridOutput over a block, 8 outputs at a time: the same float operations in the same
// order (no FMA: -ffp-contract=off and separate multiply and add), so bit for bit.
void HybridOutputBlockAvx2(int32_t n, const int32_t* dots, float x_scale, const float* w_scales,
                           const float* bias, bool accumulate, float* y) {
  const __m256 xs = _mm256_set1_ps(x_scale);
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 scale = _mm256_mul_ps(xs, _mm256_loadu_ps(w_scales + i));
    __m256 v = _mm256_mul_ps(
        _mm256_cvtepi32_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(dots + i))), scale);
    if (bias != nullptr) v = _mm256_add_ps(v, _mm256_loadu_ps(bias + i));
    if (accumulate) v = _mm256_add_ps(_mm256_loadu_ps(y + i), v);
    _mm256_storeu_ps(y + i, v);
  }
  for (; i < n; ++i) {
    float v = static_cast<float>(dots[i]) * (x_scale * w_scales[i]);
    if (bias != nullptr) v += bias[i];
    y[i] = accumulate ? y[i] + v : v;
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
