// AVX-512 narrow_s32_s16 and requantize_s16_s8 (simd_cell.h): fxp::RoundingDivideByPOT then
// saturation, 16 values at a time in int32 lanes. The rounding is the reference's own
// overflow-free form, (x >> e) + (remainder > threshold), so every int32 input is exact.
#if defined(__x86_64__)
#include "kernels/x86/avx512_vnni/avx512_intrinsics.h"
#include "kernels/simd/simd_cell.h"

namespace edgenmt {
namespace simd {
namespace {

using W = __m512i;  // 16 int32 lanes

inline W RoundingDivideByPOT(W x, int exponent) {
  if (exponent <= 0) return x;
  const W mask = _mm512_set1_epi32(static_cast<int32_t>((int64_t{1} << exponent) - 1));
  const W remainder = _mm512_and_si512(x, mask);
  const __mmask16 negative = _mm512_cmplt_epi32_mask(x, _mm512_setzero_si512());
  const W half = _mm512_srai_epi32(mask, 1);
  const W threshold = _mm512_mask_add_epi32(half, negative, half, _mm512_set1_epi32(1));
  const W shifted = _mm512_sra_epi32(x, _mm_cvtsi32_si128(exponent));
  const __mmask16 up = _mm512_cmpgt_epi32_mask(remainder, threshold);
  return _mm512_mask_add_epi32(shifted, up, shifted, _mm512_set1_epi32(1));
}

inline __mmask16 TailMask(int32_t left) {
  return left >= 16 ? 0xFFFFu : static_cast<__mmask16>((1u << left) - 1);
}

}  // namespace

void NarrowS32S16Avx512(int32_t n, const int32_t* x, int32_t shift, int16_t* y) {
  for (int32_t i = 0; i < n; i += 16) {
    const __mmask16 mask = TailMask(n - i);
    const W v = RoundingDivideByPOT(_mm512_maskz_loadu_epi32(mask, x + i), shift);
    _mm512_mask_storeu_epi16(y + i, mask,
                             _mm512_castsi256_si512(_mm512_cvtsepi32_epi16(v)));  // saturating
  }
}

void RequantizeS16S8Avx512(int32_t n, const int16_t* x, int32_t shift, int8_t* y) {
  for (int32_t i = 0; i < n; i += 16) {
    const __mmask16 mask = TailMask(n - i);
    const W v =
        _mm512_cvtepi16_epi32(_mm512_castsi512_si256(_mm512_maskz_loadu_epi16(mask, x + i)));
    _mm512_mask_storeu_epi8(
        y + i, mask, _mm512_castsi128_si512(_mm512_cvtsepi32_epi8(RoundingDivideByPOT(v, shift))));
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
