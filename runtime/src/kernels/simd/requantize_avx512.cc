// AVX-512F requantization of the int8-full product kernels' int32 dot products (simd_dot.h's
// RequantizeColumnBlock / RequantizeEmbeddingBlock contracts): the per-output arithmetic of
// kernels/product_outputs.h on 8 outputs at once (fixed_point_avx512.h), bit-exact.
#if defined(__x86_64__)
#include "kernels/simd/avx512_intrinsics.h"
#include "kernels/simd/fixed_point_avx512.h"
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

}  // namespace

void RequantizeColumnBlockAvx512(int32_t n, const int32_t* dots, const int32_t* multiplier,
                                 const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                                 bool accumulate, int32_t* y) {
  ForEachGroupOf8(n, [&](int32_t i, int32_t lanes) {
    const V sh = Clamp(_mm512_add_epi64(LoadS32Partial(shift + i, lanes), Set(shift_offset)), -31, 30);
    V v = MultiplyByQuantizedMultiplier(LoadS32Partial(dots + i, lanes),
                                        LoadS32Partial(multiplier + i, lanes), sh);
    if (bias != nullptr) v = SaturatingAdd(v, LoadS32Partial(bias + i, lanes));
    if (accumulate) v = SaturatingAdd(LoadS32Partial(y + i, lanes), v);
    StoreS32Partial(y + i, v, lanes);
  });
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
    const V sh = _mm512_max_epi64(_mm512_sub_epi64(LoadS32Partial(shift + i, lanes), Set(kExtraBits)), Set(-31));
    V v = MultiplyByQuantizedMultiplier(scaled, LoadS32Partial(multiplier + i, lanes), sh);
    if (bias != nullptr) v = SaturatingAdd(v, LoadS32Partial(bias + i, lanes));
    StoreS32Partial(y + i, v, lanes);
  });
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
