// NEON versions of the int8-full Transformer's kernels (simd_transformer_s8.h): 4 int32 lanes
// (2 int64 lanes where the scalar code multiplies in 64 bits), scalar tails from
// kernels/transformer_s8_elements.h; exact integer sums, the scalar rounding per lane
// (fixed_point_neon.h).
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "edgenmt/internal/fixed_point.h"
#include "edgenmt/internal/fixed_point_gelu_table.h"
#include "kernels/kernels_s8.h"
#include "kernels/transformer_s8_elements.h"
#include "kernels/arm_neon/fixed_point_neon.h"
#include "kernels/simd/simd_transformer_s8.h"

namespace edgenmt {
namespace simd {
namespace {

inline int8x8_t NarrowS8(int32x4_t a, int32x4_t b) {
  return vqmovn_s16(vcombine_s16(vqmovn_s32(a), vqmovn_s32(b)));
}

// fxp::GeluQ20 on 4 lanes: the index and the interpolation in vectors, the two table entries
// of each lane loaded one by one (NEON has no gather). x * Phi / 2^15 is split at bit 15 of x
// so every product fits 32 bits: x = hi 2^15 + lo, lo in [0, 2^15).
inline int32x4_t GeluQ20(int32x4_t x) {
  const int32x4_t low = vdupq_n_s32(-4 * (1 << 20));
  const int32x4_t t =
      vminq_s32(vmaxq_s32(vsubq_s32(x, low), vdupq_n_s32(0)), vdupq_n_s32((8 << 20) - 1));
  const int32x4_t frac_mask = vdupq_n_s32((1 << 15) - 1);
  int32_t index[4], a[4], b[4];
  vst1q_s32(index, vshrq_n_s32(t, 15));
  for (int k = 0; k < 4; ++k) {
    a[k] = fxp::kNormalCdfTableQ15[index[k]];
    b[k] = fxp::kNormalCdfTableQ15[index[k] + 1];
  }
  const int32x4_t av = vld1q_s32(a);
  const int32x4_t phi = vaddq_s32(
      av, RoundingDivideByPOT(vmulq_s32(vsubq_s32(vld1q_s32(b), av), vandq_s32(t, frac_mask)), 15));
  const int32x4_t lo_product = vmulq_s32(vandq_s32(x, frac_mask), phi);  // < 2^30
  const int32x4_t negative = vshrq_n_s32(x, 31);                         // -1 where x < 0
  const uint32x4_t up =
      vcgtq_s32(vandq_s32(lo_product, frac_mask), vsubq_s32(vdupq_n_s32((1 << 14) - 1), negative));
  const int32x4_t gelu =
      vsubq_s32(vaddq_s32(vmulq_s32(vshrq_n_s32(x, 15), phi), vshrq_n_s32(lo_product, 15)),
                vreinterpretq_s32_u32(up));
  const uint32x4_t below = vcleq_s32(x, low);
  const uint32x4_t above = vcgeq_s32(x, vdupq_n_s32(4 * (1 << 20)));
  return vbslq_s32(above, x, vbicq_s32(gelu, vreinterpretq_s32_u32(below)));
}

// One layer-norm output pair (pass 3 of LayerNormS32Neon) in int64 lanes: c r = c 2^31 +
// c (r - 2^31), z = round(c r / 2^(42 - q)), y = sat32(round(z gain / 2^20) + shift).
inline int32x2_t LayerNormPair(int32x2_t c, int32x2_t r_low, int64x2_t z_exponent, int32x2_t gain,
                               int32x2_t shift) {
  const int64x2_t cr = vaddq_s64(vshll_n_s32(c, 31), vmull_s32(c, r_low));
  const int32x2_t z = vmovn_s64(RoundingDivideByPOT64(cr, z_exponent));  // |z| < 2^27
  const int64x2_t scaled = RoundingDivideByPOT64(vmull_s32(z, gain), vdupq_n_s64(20));
  return vqmovn_s64(vaddq_s64(scaled, vmovl_s32(shift)));
}

}  // namespace

void RequantizeS32S8Neon(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y) {
  const int32x4_t floor = vdupq_n_s32(relu ? 0 : fxp::kInt32Min);
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const int32x4_t a = RoundingDivideByPOT(vmaxq_s32(vld1q_s32(x + i), floor), shift);
    const int32x4_t b = RoundingDivideByPOT(vmaxq_s32(vld1q_s32(x + i + 4), floor), shift);
    vst1_s8(y + i, vqmovn_s16(vcombine_s16(vqmovn_s32(a), vqmovn_s32(b))));
  }
  for (; i < n; ++i) y[i] = transformer_s8::Requantize(x[i], shift, relu);
}

void ResidualAddS32S16Neon(int32_t n, const int32_t* x, int32_t shift, int16_t* residual) {
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const int16x8_t r = vld1q_s16(residual + i);
    // The saturating add is exact here: |residual| < 2^15, so only a sum beyond int32 (which
    // saturates int16 anyway) would clip.
    const int32x4_t a =
        vqaddq_s32(vmovl_s16(vget_low_s16(r)), RoundingDivideByPOT(vld1q_s32(x + i), shift));
    const int32x4_t b =
        vqaddq_s32(vmovl_s16(vget_high_s16(r)), RoundingDivideByPOT(vld1q_s32(x + i + 4), shift));
    vst1q_s16(residual + i, vcombine_s16(vqmovn_s32(a), vqmovn_s32(b)));
  }
  for (; i < n; ++i) residual[i] = transformer_s8::ResidualAdd(residual[i], x[i], shift);
}

void AttentionScoresS8Neon(int32_t n, const int8_t* query, const int8_t* const* rows,
                           int32_t offset, int32_t dim, int32_t multiplier, int32_t shift,
                           int32_t* scores) {
  const int32_t blocks = dim / 8 * 8;
  for (int32_t j = 0; j < n; ++j) {
    const int8_t* key = rows[j] + offset;
    int32x4_t acc = vdupq_n_s32(0);
    for (int32_t i = 0; i < blocks; i += 8) {
      const int16x8_t p = vmull_s8(vld1_s8(query + i), vld1_s8(key + i));
      acc = vpadalq_s16(acc, p);
    }
    int32_t dot = vgetq_lane_s32(acc, 0) + vgetq_lane_s32(acc, 1) + vgetq_lane_s32(acc, 2) +
                  vgetq_lane_s32(acc, 3);
    for (int32_t i = blocks; i < dim; ++i) dot += static_cast<int32_t>(query[i]) * key[i];
    scores[j] = fxp::MultiplyByQuantizedMultiplier(dot, multiplier, shift);
  }
}

void AttentionContextS8Neon(int32_t n, const int16_t* weights, const int8_t* const* rows,
                            int32_t offset, int32_t dim, int8_t* out) {
  int32_t i = 0;
  for (; i + 8 <= dim; i += 8) {
    int32x4_t lo = vdupq_n_s32(0), hi = vdupq_n_s32(0);
    for (int32_t j = 0; j < n; ++j) {
      const int16x8_t v = vmovl_s8(vld1_s8(rows[j] + offset + i));
      const int16x4_t w = vdup_n_s16(weights[j]);
      lo = vmlal_s16(lo, vget_low_s16(v), w);
      hi = vmlal_s16(hi, vget_high_s16(v), w);
    }
    const int16x8_t narrowed = vcombine_s16(vqmovn_s32(RoundingDivideByPOT(lo, 15)),
                                            vqmovn_s32(RoundingDivideByPOT(hi, 15)));
    vst1_s8(out + i, vqmovn_s16(narrowed));
  }
  for (; i < dim; ++i) out[i] = transformer_s8::ContextColumn(n, weights, rows, offset + i);
}

void GeluS32S8Neon(int32_t n, const int32_t* x, int32_t shift, int8_t* y) {
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    vst1_s8(y + i, NarrowS8(RoundingDivideByPOT(GeluQ20(vld1q_s32(x + i)), shift),
                            RoundingDivideByPOT(GeluQ20(vld1q_s32(x + i + 4)), shift)));
  }
  for (; i < n; ++i) y[i] = transformer_s8::Gelu(x[i], shift);
}

void EmbeddingLookupS8S32Neon(int32_t count, const int32_t* ids, const int8_t* table,
                              const int32_t* row_multiplier, const int32_t* row_shift, int32_t dim,
                              int32_t scale_multiplier, int32_t scale_shift, int32_t* out,
                              int32_t out_stride) {
  const int32x4_t scale_m = Set(scale_multiplier), scale_s = Set(scale_shift);
  transformer_s8::EmbeddingLookupRows(
      count, ids, table, row_multiplier, row_shift, dim, scale_multiplier, scale_shift, out,
      out_stride,
      [&](const int8_t* row, int32_t* dst, int32_t row_multiplier_r, int32_t row_shift_r) {
        const int32x4_t row_m = Set(row_multiplier_r), row_s = Set(row_shift_r);
        int32_t d = 0;
        for (; d + 8 <= dim; d += 8) {
          const int16x8_t v = vmovl_s8(vld1_s8(row + d));
          const int32x4_t halves[2] = {vmovl_s16(vget_low_s16(v)), vmovl_s16(vget_high_s16(v))};
          for (int h = 0; h < 2; ++h) {
            const int32x4_t scaled = MultiplyByQuantizedMultiplier(halves[h], row_m, row_s);
            vst1q_s32(dst + d + 4 * h, MultiplyByQuantizedMultiplier(scaled, scale_m, scale_s));
          }
        }
        return d;
      });
}

void LayerNormS32Neon(int32_t n, const int32_t* x, int32_t x_frac_bits, const int32_t* gain,
                      const int32_t* shift, int32_t* y) {
  const int32_t blocks = n / 4 * 4;
  // Pass 1: sum (int64 lanes), minimum and maximum.
  int64x2_t sum = vdupq_n_s64(0);
  int32x4_t lowest = vdupq_n_s32(x[0]), highest = lowest;
  for (int32_t i = 0; i < blocks; i += 4) {
    const int32x4_t v = vld1q_s32(x + i);
    lowest = vminq_s32(lowest, v);
    highest = vmaxq_s32(highest, v);
    sum = vpadalq_s32(sum, v);
  }
  int32_t lows[4], highs[4];
  vst1q_s32(lows, lowest);
  vst1q_s32(highs, highest);
  transformer_s8::LayerNormStats stats{vgetq_lane_s64(sum, 0) + vgetq_lane_s64(sum, 1), x[0], x[0]};
  stats.AddLanes(lows, highs, 4);
  stats = transformer_s8::AddLayerNormStats(stats, x, blocks, n);
  if (!stats.CentersFitInt32()) {  // the reference's steps, in int64
    ref_layer_norm_s32(n, x, x_frac_bits, gain, shift, y);
    return;
  }
  const transformer_s8::LayerNormCentering centering = transformer_s8::CenterLayerNorm(stats, n);
  const int32x4_t mean = vdupq_n_s32(static_cast<int32_t>(centering.mean));
  // Pass 2: the squares of the centered values (|c| < 2^25), exact in int64 lanes.
  int64x2_t squares = vdupq_n_s64(0);
  for (int32_t i = 0; i < blocks; i += 4) {
    const int32x4_t c = RoundingDivideByPOT(vsubq_s32(vld1q_s32(x + i), mean), centering.pre);
    squares = vmlal_s32(squares, vget_low_s32(c), vget_low_s32(c));
    squares = vmlal_s32(squares, vget_high_s32(c), vget_high_s32(c));
  }
  const int64_t square_sum = transformer_s8::AddLayerNormSquares(
      vgetq_lane_s64(squares, 0) + vgetq_lane_s64(squares, 1), x, blocks, n, centering);
  const fxp::InverseSqrt inv =
      transformer_s8::LayerNormInverseSqrt(square_sum, n, x_frac_bits, centering.pre);
  // Pass 3 (r = 2^32, a variance of exactly a power of 4, takes the scalar step).
  int32_t i = 0;
  if (inv.r < (int64_t{1} << 32)) {
    const int32x2_t r_low = vdup_n_s32(static_cast<int32_t>(inv.r - (int64_t{1} << 31)));
    const int64x2_t z_exponent = vdupq_n_s64(42 - inv.q);
    for (; i < blocks; i += 4) {
      const int32x4_t c = RoundingDivideByPOT(vsubq_s32(vld1q_s32(x + i), mean), centering.pre);
      const int32x4_t g = vld1q_s32(gain + i), b = vld1q_s32(shift + i);
      vst1q_s32(y + i, vcombine_s32(LayerNormPair(vget_low_s32(c), r_low, z_exponent,
                                                  vget_low_s32(g), vget_low_s32(b)),
                                    LayerNormPair(vget_high_s32(c), r_low, z_exponent,
                                                  vget_high_s32(g), vget_high_s32(b))));
    }
  }
  transformer_s8::LayerNormOutputs(x, i, n, centering, inv, gain, shift, y);
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
