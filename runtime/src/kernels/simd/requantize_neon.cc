// NEON requantization of the int8-full product kernels' int32 dot products (simd_dot.h's
// RequantizeColumnBlock / RequantizeEmbeddingBlock contracts), ARMv7-A and ARMv8-A: the
// per-output arithmetic of kernels/product_outputs.h on 4 outputs at once, bit-exact. The
// column block stays in int32 lanes (fixed_point_neon.h); the embedding's single rounding of
// the exact 64-bit product uses widening multiplies into int64 lanes.
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "kernels/simd/fixed_point_neon.h"
#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {
namespace {

// fxp::MultiplyByQuantizedMultiplierSingleRounding of 4 values by one (multiplier, shift):
// SaturateToInt32(RoundingDivideByPOT64(x * multiplier, 31 - shift)), 0 past a 62-bit shift.
inline V SingleRounding(V x, int32_t multiplier, int32_t shift) {
  const int32_t right = 31 - shift;
  if (right > 62) return Set(0);
  const int64x2_t exponent = vdupq_n_s64(right > 0 ? right : 0);  // <= 0: no rounding
  const int32x2_t m = vdup_n_s32(multiplier);
  const int64x2_t low = RoundingDivideByPOT64(vmull_s32(vget_low_s32(x), m), exponent);
  const int64x2_t high = RoundingDivideByPOT64(vmull_s32(vget_high_s32(x), m), exponent);
  return vcombine_s32(vqmovn_s64(low), vqmovn_s64(high));  // saturating
}

}  // namespace

void RequantizeColumnBlockNeon(int32_t n, const int32_t* dots, const int32_t* multiplier,
                               const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                               bool accumulate, int32_t* y) {
  const V offset = Set(shift_offset);
  for (int32_t i = 0; i < n; i += 4) {
    const int32_t lanes = n - i;
    const V sh = vminq_s32(vmaxq_s32(vaddq_s32(LoadS32Partial(shift + i, lanes), offset), Set(-31)), Set(30));
    V v = MultiplyByQuantizedMultiplier(LoadS32Partial(dots + i, lanes),
                                        LoadS32Partial(multiplier + i, lanes), sh);
    if (bias != nullptr) v = vqaddq_s32(v, LoadS32Partial(bias + i, lanes));
    if (accumulate) v = vqaddq_s32(LoadS32Partial(y + i, lanes), v);
    StoreS32Partial(y + i, v, lanes);
  }
}

void RequantizeEmbeddingBlockNeon(int32_t n, const int32_t* dots, int32_t id,
                                  const int32_t* row_multiplier, const int32_t* row_shift,
                                  const int32_t* multiplier, const int32_t* shift,
                                  const int32_t* bias, int32_t* y) {
  constexpr int32_t kExtraBits = 6;  // kernels/product_outputs.h EmbeddingS32Output
  const int32_t row_m = row_multiplier[id], row_s = row_shift[id] + kExtraBits;
  for (int32_t i = 0; i < n; i += 4) {
    const int32_t lanes = n - i;
    const V scaled = SingleRounding(LoadS32Partial(dots + i, lanes), row_m, row_s);
    const V sh = vmaxq_s32(vsubq_s32(LoadS32Partial(shift + i, lanes), Set(kExtraBits)), Set(-31));
    V v = MultiplyByQuantizedMultiplier(scaled, LoadS32Partial(multiplier + i, lanes), sh);
    if (bias != nullptr) v = vqaddq_s32(v, LoadS32Partial(bias + i, lanes));
    StoreS32Partial(y + i, v, lanes);
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
