// AVX2 requantization of the int8-full product kernels' int32 dot products (simd_dot.h's
// RequantizeColumnBlock contract): kernels/product_outputs.h's StoreStridedS32Output on 8
// outputs at once in int32 lanes (fixed_point_avx2.h), bit-exact for every int32 input.
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "kernels/simd/fixed_point_avx2.h"
#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {

void RequantizeColumnBlockAvx2(int32_t n, const int32_t* dots, const int32_t* multiplier,
                               const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                               bool accumulate, int32_t* y) {
  int32_t i = 0;
  const auto load = [](const int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); };
  for (; i + 8 <= n; i += 8) {
    const V sh = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(load(shift + i), Set(shift_offset)), Set(-31)),
                                  Set(30));
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
    RequantizeColumnBlockAvx2(8, d, m, s, shift_offset, bias != nullptr ? b : nullptr, accumulate, out);
    memcpy(y + i, out, bytes);
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
