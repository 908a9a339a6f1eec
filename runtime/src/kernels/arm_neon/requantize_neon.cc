// NEON requantization of the int8-full product kernels' int32 dot products (simd_dot.h's
// RequantizeColumnBlock / RequantizeEmbeddingBlock contracts), ARMv7-A and ARMv8-A: the
// per-output arithmetic of kernels/product_outputs.h on 4 outputs at once, bit-exact. The
// column block stays in int32 lanes (fixed_point_neon.h); the embedding's single rounding of
// the exact 64-bit product uses widening multiplies into int64 lanes. The last n % 4 outputs go
// through padded copies after the loop, so the loop itself calls nothing and keeps its
// constants in registers.
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "kernels/arm_neon/fixed_point_neon.h"
#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {
namespace {

// Copies n < 4 values into a zero-padded block of 4 (null stays null).
inline const int32_t* Padded(const int32_t* p, int32_t n, int32_t* block) {
  if (p == nullptr) return nullptr;
  for (int32_t t = 0; t < 4; ++t) block[t] = t < n ? p[t] : 0;
  return block;
}

// StoreStridedS32Output for outputs 0..3.
inline void Column4(const int32_t* dots, const int32_t* multiplier, const int32_t* shift,
                    V shift_offset, const int32_t* bias, bool accumulate, int32_t* y) {
  const V sh = vminq_s32(vmaxq_s32(vaddq_s32(vld1q_s32(shift), shift_offset), Set(-31)), Set(30));
  V v = MultiplyByQuantizedMultiplier(vld1q_s32(dots), vld1q_s32(multiplier), sh);
  if (bias != nullptr) v = vqaddq_s32(v, vld1q_s32(bias));
  if (accumulate) v = vqaddq_s32(vld1q_s32(y), v);
  vst1q_s32(y, v);
}

// fxp::MultiplyByQuantizedMultiplierSingleRounding of 4 values by one (multiplier, shift):
// SaturateToInt32(RoundingDivideByPOT64(x * multiplier, 31 - shift)), 0 past a 62-bit shift
// (the caller's `right`), no rounding for right <= 0 (exponent 0).
inline V SingleRounding(V x, int32x2_t multiplier, int32_t right, int64x2_t exponent) {
  if (right > 62) return Set(0);
  const int64x2_t low = RoundingDivideByPOT64(vmull_s32(vget_low_s32(x), multiplier), exponent);
  const int64x2_t high = RoundingDivideByPOT64(vmull_s32(vget_high_s32(x), multiplier), exponent);
  return vcombine_s32(vqmovn_s64(low), vqmovn_s64(high));  // saturating
}

// EmbeddingS32Output for outputs 0..3.
inline void Embedding4(const int32_t* dots, int32x2_t row_multiplier, int32_t right,
                       int64x2_t exponent, const int32_t* multiplier, const int32_t* shift,
                       const int32_t* bias, int32_t* y) {
  constexpr int32_t kExtraBits = 6;  // kernels/product_outputs.h EmbeddingS32Output
  const V scaled = SingleRounding(vld1q_s32(dots), row_multiplier, right, exponent);
  const V sh = vmaxq_s32(vsubq_s32(vld1q_s32(shift), Set(kExtraBits)), Set(-31));
  V v = MultiplyByQuantizedMultiplier(scaled, vld1q_s32(multiplier), sh);
  if (bias != nullptr) v = vqaddq_s32(v, vld1q_s32(bias));
  vst1q_s32(y, v);
}

}  // namespace

void RequantizeColumnBlockNeon(int32_t n, const int32_t* dots, const int32_t* multiplier,
                               const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                               bool accumulate, int32_t* y) {
  const V offset = Set(shift_offset);
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    Column4(dots + i, multiplier + i, shift + i, offset, bias != nullptr ? bias + i : nullptr,
            accumulate, y + i);
  }
  if (i < n) {
    int32_t d[4], m[4], s[4], b[4], out[4];
    const int32_t left = n - i;
    Padded(y + i, left, out);
    Column4(Padded(dots + i, left, d), Padded(multiplier + i, left, m), Padded(shift + i, left, s),
            offset, bias != nullptr ? Padded(bias + i, left, b) : nullptr, accumulate, out);
    for (int32_t t = 0; t < left; ++t) y[i + t] = out[t];
  }
}

void RequantizeEmbeddingBlockNeon(int32_t n, const int32_t* dots, int32_t id,
                                  const int32_t* row_multiplier, const int32_t* row_shift,
                                  const int32_t* multiplier, const int32_t* shift,
                                  const int32_t* bias, int32_t* y) {
  constexpr int32_t kExtraBits = 6;
  const int32_t right = 31 - (row_shift[id] + kExtraBits);
  const int64x2_t exponent = vdupq_n_s64(right > 0 ? right : 0);
  const int32x2_t row_m = vdup_n_s32(row_multiplier[id]);
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    Embedding4(dots + i, row_m, right, exponent, multiplier + i, shift + i,
               bias != nullptr ? bias + i : nullptr, y + i);
  }
  if (i < n) {
    int32_t d[4], m[4], s[4], b[4], out[4];
    const int32_t left = n - i;
    Embedding4(Padded(dots + i, left, d), row_m, right, exponent, Padded(multiplier + i, left, m),
               Padded(shift + i, left, s), bias != nullptr ? Padded(bias + i, left, b) : nullptr,
               out);
    for (int32_t t = 0; t < left; ++t) y[i + t] = out[t];
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
