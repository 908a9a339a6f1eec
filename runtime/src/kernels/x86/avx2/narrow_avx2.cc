// AVX2 narrow_s32_s16 and requantize_s16_s8 (simd_cell.h): fxp::RoundingDivideByPOT then
// saturation (the saturating packs), 8 values at a time in int32 lanes (fixed_point_avx2.h),
// bit-exact for every int32 input.
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "kernels/x86/avx2/fixed_point_avx2.h"
#include "kernels/simd/simd_cell.h"

namespace edgenmt {
namespace simd {

void NarrowS32S16Avx2(int32_t n, const int32_t* x, int32_t shift, int16_t* y) {
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const V v =
        RoundingDivideByPOT(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i)), shift);
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(v, v), 0x08);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm256_castsi256_si128(packed));
  }
  if (i < n) {  // the last values through a padded copy
    int32_t in[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int16_t out[8];
    memcpy(in, x + i, static_cast<size_t>(n - i) * sizeof(int32_t));
    NarrowS32S16Avx2(8, in, shift, out);
    memcpy(y + i, out, static_cast<size_t>(n - i) * sizeof(int16_t));
  }
}

void RequantizeS16S8Avx2(int32_t n, const int16_t* x, int32_t shift, int8_t* y) {
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const V v = RoundingDivideByPOT(
        _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i))), shift);
    // int32 -> int16 -> int8, each saturating: the same as saturating to int8 at once.
    const __m128i s16 =
        _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packs_epi32(v, v), 0x08));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(y + i), _mm_packs_epi16(s16, s16));
  }
  if (i < n) {
    int16_t in[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int8_t out[8];
    memcpy(in, x + i, static_cast<size_t>(n - i) * sizeof(int16_t));
    RequantizeS16S8Avx2(8, in, shift, out);
    memcpy(y + i, out, static_cast<size_t>(n - i));
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
