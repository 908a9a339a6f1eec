// AVX-512 int8-full attention products over the Q0.15 memory (simd_attention.h): int16 x int16
// products are exact in int32 (|a|, |b| <= 2^15), summed in int64 lanes, so every result is the
// reference's exact sum.
#if defined(__x86_64__)
#include "kernels/x86/avx512_vnni/avx512_intrinsics.h"
#include "kernels/x86/avx512_vnni/fixed_point_avx512.h"
#include "kernels/simd/simd_attention.h"

namespace edgenmt {
namespace simd {
namespace {

inline __mmask32 Lanes16(int32_t count) {
  return count >= 16 ? 0xFFFFu : static_cast<__mmask32>((1u << count) - 1);
}

// 16 int16 values (lanes past `mask` read as 0) sign-extended to int32.
inline __m512i LoadS16(const int16_t* p, __mmask32 mask) {
  return _mm512_cvtepi16_epi32(_mm512_castsi512_si256(_mm512_maskz_loadu_epi16(mask, p)));
}

// The 16 int32 products' two halves added to int64 accumulators.
inline void Accumulate(__m512i products, V* low, V* high) {
  *low = _mm512_add_epi64(*low, _mm512_cvtepi32_epi64(_mm512_castsi512_si256(products)));
  *high = _mm512_add_epi64(*high, _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(products, 1)));
}

}  // namespace

int64_t DotS16S64Avx512(int32_t n, const int16_t* a, const int16_t* b) {
  V low = _mm512_setzero_si512(), high = _mm512_setzero_si512();
  for (int32_t i = 0; i < n; i += 16) {
    const __mmask32 mask = Lanes16(n - i);
    Accumulate(_mm512_mullo_epi32(LoadS16(a + i, mask), LoadS16(b + i, mask)), &low, &high);
  }
  return _mm512_reduce_add_epi64(_mm512_add_epi64(low, high));
}

void ContextS16S8Avx512(int32_t count, const int16_t* weights, const int16_t* memory, int32_t dim,
                        int8_t* context) {
  for (int32_t j = 0; j < dim; j += 16) {
    const __mmask32 mask = Lanes16(dim - j);
    V low = _mm512_setzero_si512(), high = _mm512_setzero_si512();  // columns j.. and j + 8..
    for (int32_t s = 0; s < count; ++s) {
      const __m512i w = _mm512_set1_epi32(weights[s]);
      Accumulate(_mm512_mullo_epi32(w, LoadS16(memory + static_cast<int64_t>(s) * dim + j, mask)),
                 &low, &high);
    }
    // round(sum / 2^23): within int32 for count <= 32767, then saturated to int8.
    const __m128i low8 = _mm512_cvtepi64_epi8(Clamp(RoundingDivideByPOT(low, 23), -128, 127));
    const __m128i high8 = _mm512_cvtepi64_epi8(Clamp(RoundingDivideByPOT(high, 23), -128, 127));
    _mm512_mask_storeu_epi8(context + j, mask,
                            _mm512_castsi128_si512(_mm_unpacklo_epi64(low8, high8)));
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
