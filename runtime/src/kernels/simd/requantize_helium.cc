// Helium (MVE) requantization, narrowing and attention scores (simd_helium.h), bit-exact with
// the reference: VQRDMULH is fxp::SaturatingRoundingDoublingHighMul, VQSHL a saturating left
// shift, and a rounding shift (ties up) of x - [x < 0] is fxp::RoundingDivideByPOT (ties away
// from zero). Four int32 lanes per step; the last partial vector is predicated (its lanes
// never touch memory). (Inline project code is safe here, unlike in the x86 files: a
// Cortex-M build compiles everything for its one core.)
#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

#include "kernels/score_scale.h"
#include "kernels/simd/simd_helium.h"

namespace edgenmt {
namespace simd {
namespace {

using V = int32x4_t;

inline V Set(int32_t v) { return vdupq_n_s32(v); }

// fxp::RoundingDivideByPOT with per-lane exponents e in [0, 31] given as -e.
inline V RoundingDivideByPOT(V x, V minus_exponent) {
  const V fixup = vshrq_n_s32(vandq_s32(x, minus_exponent), 31);  // -1 where x < 0 and e > 0
  return vrshlq_s32(vqaddq_s32(x, fixup), minus_exponent);
}

inline V Clamp(V x, int32_t lo, int32_t hi) { return vminq_s32(vmaxq_s32(x, Set(lo)), Set(hi)); }

// fxp::MultiplyByQuantizedMultiplier(x, multiplier, shift), shift in [-31, 30].
inline V MultiplyByQuantizedMultiplier(V x, V multiplier, V shift) {
  const V left = vmaxq_s32(shift, Set(0));
  const V minus_right = vminq_s32(shift, Set(0));
  return RoundingDivideByPOT(vqrdmulhq_s32(vqshlq_s32(x, left), multiplier), minus_right);
}

}  // namespace

// StoreStridedS32Output (kernels/product_outputs.h) for outputs 0..n-1.
void RequantizeColumnBlockHelium(int32_t n, const int32_t* dots, const int32_t* multiplier,
                                 const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                                 bool accumulate, int32_t* y) {
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    const V sh = Clamp(vaddq_s32(vldrwq_z_s32(shift + i, p), Set(shift_offset)), -31, 30);
    V v = MultiplyByQuantizedMultiplier(vldrwq_z_s32(dots + i, p), vldrwq_z_s32(multiplier + i, p), sh);
    if (bias != nullptr) v = vqaddq_s32(v, vldrwq_z_s32(bias + i, p));
    if (accumulate) v = vqaddq_s32(vldrwq_z_s32(y + i, p), v);
    vstrwq_p_s32(y + i, v, p);
  }
}

// EmbeddingS32Output (kernels/product_outputs.h) for outputs 0..n-1: the row's single-rounding
// rescale in 64-bit scalar arithmetic (MVE has no 64-bit lanes), written as one multiply, one
// add and one shift (x + 2^(e-1) - [x < 0]) >> e is RoundingDivideByPOT64's ties away from
// zero), then the per-output requantization on 4 lanes.
void RequantizeEmbeddingBlockHelium(int32_t n, const int32_t* dots, int32_t id,
                                    const int32_t* row_multiplier, const int32_t* row_shift,
                                    const int32_t* multiplier, const int32_t* shift,
                                    const int32_t* bias, int32_t* y) {
  constexpr int32_t kExtraBits = 6;  // as EmbeddingS32Output
  const int64_t row_m = row_multiplier[id];
  const int32_t right = 31 - (row_shift[id] + kExtraBits);
  int32_t scaled[4];
  for (int32_t i = 0; i < n; i += 4) {
    const int32_t lanes = n - i < 4 ? n - i : 4;
    for (int32_t l = 0; l < lanes; ++l) {
      const int64_t product = dots[i + l] * row_m;
      int64_t r = product;  // right <= 0: as fxp::RoundingDivideByPOT64, no shift
      if (right > 62) {
        r = 0;
      } else if (right > 0) {
        r = (product + (int64_t{1} << (right - 1)) - (product < 0 ? 1 : 0)) >> right;
      }
      scaled[l] = r > 2147483647 ? 2147483647 : (r < -2147483647 - 1 ? -2147483647 - 1 : static_cast<int32_t>(r));
    }
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(lanes));
    const V sh = vmaxq_s32(vsubq_s32(vldrwq_z_s32(shift + i, p), Set(kExtraBits)), Set(-31));
    V v = MultiplyByQuantizedMultiplier(vldrwq_z_s32(scaled, p), vldrwq_z_s32(multiplier + i, p), sh);
    if (bias != nullptr) v = vqaddq_s32(v, vldrwq_z_s32(bias + i, p));
    vstrwq_p_s32(y + i, v, p);
  }
}

void NarrowS32S16Helium(int32_t n, const int32_t* x, int32_t shift, int16_t* y) {
  const V minus_shift = Set(-shift);
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    const V v = RoundingDivideByPOT(vldrwq_z_s32(x + i, p), minus_shift);
    vstrhq_p_s32(y + i, Clamp(v, -32768, 32767), p);
  }
}

void RequantizeS16S8Helium(int32_t n, const int16_t* x, int32_t shift, int8_t* y) {
  const V minus_shift = Set(-shift);
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    const V v = RoundingDivideByPOT(vldrhq_z_s32(x + i, p), minus_shift);
    vstrbq_p_s32(y + i, Clamp(v, -128, 127), p);
  }
}

// VMLALDAVA.S16: 8 int16 products summed into a 64-bit scalar, exact as the reference's int64.
void ScoreWindowS16Helium(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo,
                          int32_t hi, int32_t to_q20, int32_t* scores) {
  const int32_t full = dim & ~7;
  const mve_pred16_t p = vctp16q(static_cast<uint32_t>(dim - full));
  for (int32_t s = lo; s <= hi; ++s) {
    const int16_t* h = memory + s * dim;
    int64_t acc = 0;
    for (int32_t j = 0; j < full; j += 8) acc = vmlaldavaq_s16(acc, vldrhq_s16(query + j), vldrhq_s16(h + j));
    if (full < dim) acc = vmlaldavaq_s16(acc, vldrhq_z_s16(query + full, p), vldrhq_z_s16(h + full, p));
    scores[s] = ScaleScoreQ20(acc, to_q20);
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_FEATURE_MVE)
