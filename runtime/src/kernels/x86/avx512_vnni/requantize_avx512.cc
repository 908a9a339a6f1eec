// AVX-512F requantization of the int8-full product kernels' int32 dot products (simd_dot.h's
// RequantizeColumnBlock / RequantizeEmbeddingBlock contracts): the per-output arithmetic of
// kernels/product_outputs.h on 8 outputs at once (fixed_point_avx512.h), bit-exact.
#if defined(__x86_64__)
#include "kernels/x86/avx512_vnni/avx512_intrinsics.h"
#include "kernels/x86/avx512_vnni/fixed_point_avx512.h"
#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {
namespace {

// Runs body(offset, lanes) over [0, n) in groups of 8; the last group through padded copies.
template <typename Body>
inline void ForEachGroupOf8(int32_t n, Body body) {
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) body(i, 8);
  if (i < n) body(i, n - i);
}

// Loads `lanes` (<= 8) int32 values, zero-padded.
inline V LoadS32Partial(const int32_t* p, int32_t lanes) {
  if (lanes == 8) return LoadS32(p);
  int32_t block[8] = {};
  for (int32_t t = 0; t < lanes; ++t) block[t] = p[t];
  return LoadS32(block);
}

inline void StoreS32Partial(int32_t* p, V v, int32_t lanes) {
  if (lanes == 8) return StoreS32(p, v);
  int32_t block[8];
  StoreS32(block, v);
  for (int32_t t = 0; t < lanes; ++t) p[t] = block[t];
}

// ---- 16 int32 lanes: the column block's arithmetic without widening ----------------------
// Each step is the scalar function's integer result for every int32 input: the saturating
// left shift checks that shifting back restores x, the doubling high product takes the even
// and odd lanes' exact 64-bit products, the rounding is the overflow-free form.
using W = __m512i;

inline W ClampW(W x, int32_t lo, int32_t hi) {
  return _mm512_min_epi32(_mm512_max_epi32(x, _mm512_set1_epi32(lo)), _mm512_set1_epi32(hi));
}

// INT32_MAX where x >= 0, INT32_MIN where x < 0.
inline W SaturationOf(W x) {
  return _mm512_xor_si512(_mm512_srai_epi32(x, 31), _mm512_set1_epi32(0x7FFFFFFF));
}

inline W SaturatingAddW(W a, W b) {
  const W sum = _mm512_add_epi32(a, b);
  // Overflow: a and b share a sign that the sum lacks.
  const __mmask16 overflow = _mm512_cmplt_epi32_mask(
      _mm512_and_si512(_mm512_xor_si512(a, sum), _mm512_xor_si512(b, sum)), _mm512_setzero_si512());
  return _mm512_mask_mov_epi32(sum, overflow, SaturationOf(a));
}

inline W SaturatingLeftShiftW(W x, W exponent) {  // exponent in [0, 30]
  const W shifted = _mm512_sllv_epi32(x, exponent);
  const __mmask16 lost = _mm512_cmpneq_epi32_mask(_mm512_srav_epi32(shifted, exponent), x);
  return _mm512_mask_mov_epi32(shifted, lost, SaturationOf(x));
}

inline W SaturatingRoundingDoublingHighMulW(W a, W b) {
  const W nudge = _mm512_set1_epi64(int64_t{1} << 30);
  const W max = _mm512_set1_epi64(0x7FFFFFFF);
  const W even =
      _mm512_min_epi64(_mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(a, b), nudge), 31), max);
  const W odd = _mm512_min_epi64(
      _mm512_srai_epi64(
          _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32)),
                           nudge),
          31),
      max);
  return _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
}

inline W RoundingDivideByPOTW(W x, W exponent) {  // exponent in [0, 31]
  const W mask =
      _mm512_sub_epi32(_mm512_sllv_epi32(_mm512_set1_epi32(1), exponent), _mm512_set1_epi32(1));
  const W remainder = _mm512_and_si512(x, mask);
  const W half = _mm512_srai_epi32(mask, 1);
  const W threshold = _mm512_sub_epi32(half, _mm512_srai_epi32(x, 31));  // + 1 where x < 0
  const W shifted = _mm512_srav_epi32(x, exponent);
  const __mmask16 up = _mm512_cmpgt_epi32_mask(remainder, threshold);
  return _mm512_mask_add_epi32(shifted, up, shifted, _mm512_set1_epi32(1));
}

inline W MultiplyByQuantizedMultiplierW(W x, W multiplier, W shift) {
  const W zero = _mm512_setzero_si512();
  const W left = _mm512_max_epi32(shift, zero);
  const W right = _mm512_max_epi32(_mm512_sub_epi32(zero, shift), zero);
  return RoundingDivideByPOTW(
      SaturatingRoundingDoublingHighMulW(SaturatingLeftShiftW(x, left), multiplier), right);
}

}  // namespace

void RequantizeColumnBlockAvx512(int32_t n, const int32_t* dots, const int32_t* multiplier,
                                 const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                                 bool accumulate, int32_t* y) {
  for (int32_t i = 0; i < n; i += 16) {
    const __mmask16 lanes = n - i >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << (n - i)) - 1);
    const W sh = ClampW(_mm512_add_epi32(_mm512_maskz_loadu_epi32(lanes, shift + i),
                                         _mm512_set1_epi32(shift_offset)),
                        -31, 30);
    W v = MultiplyByQuantizedMultiplierW(_mm512_maskz_loadu_epi32(lanes, dots + i),
                                         _mm512_maskz_loadu_epi32(lanes, multiplier + i), sh);
    if (bias != nullptr) v = SaturatingAddW(v, _mm512_maskz_loadu_epi32(lanes, bias + i));
    if (accumulate) v = SaturatingAddW(_mm512_maskz_loadu_epi32(lanes, y + i), v);
    _mm512_mask_storeu_epi32(y + i, lanes, v);
  }
}

void RequantizeEmbeddingBlockAvx512(int32_t n, const int32_t* dots, int32_t id,
                                    const int32_t* row_multiplier, const int32_t* row_shift,
                                    const int32_t* multiplier, const int32_t* shift,
                                    const int32_t* bias, int32_t* y) {
  constexpr int32_t kExtraBits = 6;  // kernels/product_outputs.h EmbeddingS32Output
  const int32_t right = 31 - (row_shift[id] + kExtraBits);
  const V row_multiplier_v = Set(row_multiplier[id]);
  ForEachGroupOf8(n, [&](int32_t i, int32_t lanes) {
    // One rounding of the exact 64-bit product (MultiplyByQuantizedMultiplierSingleRounding).
    const V product = _mm512_mul_epi32(LoadS32Partial(dots + i, lanes), row_multiplier_v);
    const V scaled = right > 62 ? _mm512_setzero_si512()
                                : Clamp(RoundingDivideByPOT(product, right), kInt32Min, kInt32Max);
    const V sh = _mm512_max_epi64(
        _mm512_sub_epi64(LoadS32Partial(shift + i, lanes), Set(kExtraBits)), Set(-31));
    V v = MultiplyByQuantizedMultiplier(scaled, LoadS32Partial(multiplier + i, lanes), sh);
    if (bias != nullptr) v = SaturatingAdd(v, LoadS32Partial(bias + i, lanes));
    StoreS32Partial(y + i, v, lanes);
  });
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
