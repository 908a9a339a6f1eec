// AVX2 requantization of the int8-full product kernels' int32 dot products (simd_dot.h's
// RequantizeColumnBlock / RequantizeEmbeddingBlock contracts): kernels/product_outputs.h's
// StoreStridedS32Output and EmbeddingS32Output on 8 outputs at once in int32 lanes
// (fixed_point_avx2.h; the embedding row's single rounding on int64 lanes), bit-exact for
// every int32 input.
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "kernels/x86/avx2/fixed_point_avx2.h"
#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {

void RequantizeColumnBlockAvx2(int32_t n, const int32_t* dots, const int32_t* multiplier,
                               const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                               bool accumulate, int32_t* y) {
  int32_t i = 0;
  const auto load = [](const int32_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  };
  for (; i + 8 <= n; i += 8) {
    const V sh = _mm256_min_epi32(
        _mm256_max_epi32(_mm256_add_epi32(load(shift + i), Set(shift_offset)), Set(-31)), Set(30));
    V v = MultiplyByQuantizedMultiplier(load(dots + i), load(multiplier + i), sh);
    if (bias != nullptr) v = SaturatingAdd(v, load(bias + i));
    if (accumulate) v = SaturatingAdd(load(y + i), v);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), v);
  }
  if (i < n) {  // the last outputs through padded copies
    const int32_t lanes = n - i;
    const size_t bytes = static_cast<size_t>(lanes) * sizeof(int32_t);
    int32_t d[8] = {}, m[8] = {}, s[8] = {}, b[8] = {}, out[8] = {};
    memcpy(d, dots + i, bytes);
    memcpy(m, multiplier + i, bytes);
    memcpy(s, shift + i, bytes);
    if (bias != nullptr) memcpy(b, bias + i, bytes);
    if (accumulate) memcpy(out, y + i, bytes);
    RequantizeColumnBlockAvx2(8, d, m, s, shift_offset, bias != nullptr ? b : nullptr, accumulate,
                              out);
    memcpy(y + i, out, bytes);
  }
}

namespace {

// fxp::MultiplyByQuantizedMultiplierSingleRounding's int64 step on 4 values: the exact products
// x * multiplier (|p| < 2^62), divided by 2^right (right in [1, 62]) rounding ties away from
// zero as floor((p + 2^(right-1) - [p < 0]) / 2^right) (AVX2 has no 64-bit arithmetic shift:
// a logical one with the sign bits put back), saturated to int32; the 4 results in the low half.
inline __m128i SingleRounding4(__m128i x, __m256i multiplier, int32_t right) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i product = _mm256_mul_epi32(_mm256_cvtepi32_epi64(x), multiplier);
  const __m256i biased =
      _mm256_add_epi64(_mm256_add_epi64(product, _mm256_set1_epi64x(int64_t{1} << (right - 1))),
                       _mm256_cmpgt_epi64(zero, product));  // -1 where p < 0
  const __m256i sign = _mm256_cmpgt_epi64(zero, biased);
  __m256i q = _mm256_or_si256(_mm256_srl_epi64(biased, _mm_cvtsi32_si128(right)),
                              _mm256_sll_epi64(sign, _mm_cvtsi32_si128(64 - right)));
  const __m256i hi = _mm256_set1_epi64x(INT32_MAX), lo = _mm256_set1_epi64x(INT32_MIN);
  q = _mm256_blendv_epi8(q, hi, _mm256_cmpgt_epi64(q, hi));
  q = _mm256_blendv_epi8(q, lo, _mm256_cmpgt_epi64(lo, q));
  return _mm256_castsi256_si128(
      _mm256_permutevar8x32_epi32(q, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
}

}  // namespace

// kernels/product_outputs.h's EmbeddingS32Output on 8 outputs at once: the row's single
// rounding on int64 lanes, then the column's requantization on int32 lanes.
void RequantizeEmbeddingBlockAvx2(int32_t n, const int32_t* dots, int32_t id,
                                  const int32_t* row_multiplier, const int32_t* row_shift,
                                  const int32_t* multiplier, const int32_t* shift,
                                  const int32_t* bias, int32_t* y) {
  constexpr int32_t kExtraBits = 6;  // kernels/product_outputs.h EmbeddingS32Output
  const int32_t right = 31 - (row_shift[id] + kExtraBits);
  const __m256i row_multiplier_v = _mm256_set1_epi64x(row_multiplier[id]);
  const auto load = [](const int32_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  };
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    V scaled = _mm256_setzero_si256();
    if (right <= 62) {
      const V d = load(dots + i);
      scaled =
          _mm256_set_m128i(SingleRounding4(_mm256_extracti128_si256(d, 1), row_multiplier_v, right),
                           SingleRounding4(_mm256_castsi256_si128(d), row_multiplier_v, right));
    }
    const V sh = _mm256_max_epi32(_mm256_sub_epi32(load(shift + i), Set(kExtraBits)), Set(-31));
    V v = MultiplyByQuantizedMultiplier(scaled, load(multiplier + i), sh);
    if (bias != nullptr) v = SaturatingAdd(v, load(bias + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), v);
  }
  if (i < n) {  // the last outputs through padded copies
    const size_t bytes = static_cast<size_t>(n - i) * sizeof(int32_t);
    int32_t d[8] = {}, m[8] = {}, s[8] = {}, b[8] = {}, out[8];
    memcpy(d, dots + i, bytes);
    memcpy(m, multiplier + i, bytes);
    memcpy(s, shift + i, bytes);
    if (bias != nullptr) memcpy(b, bias + i, bytes);
    RequantizeEmbeddingBlockAvx2(8, d, id, row_multiplier, row_shift, m, s,
                                 bias != nullptr ? b : nullptr, out);
    memcpy(y + i, out, bytes);
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
