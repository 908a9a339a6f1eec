// Helium (MVE) versions of the int8-full Transformer's kernels (simd_transformer_s8.h): 4 int32
// lanes per step with the last partial vector predicated (VCTP), exact integer sums
// (VMLADAVA.S8 for the head's scores), the scalar rounding per lane (fixed_point_helium.h).
// MVE has no int64 lanes: layer norm's sums and squares reduce into int64 scalars
// (VADDLVA, VMLALDAVA), and its per-element output, two 64-bit products, stays scalar.
#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

#include "edgenmt/internal/fixed_point.h"
#include "edgenmt/internal/fixed_point_gelu_table.h"
#include "kernels/kernels_s8.h"
#include "kernels/arm_m/helium/fixed_point_helium.h"
#include "kernels/transformer_s8_elements.h"
#include "kernels/simd/simd_transformer_s8.h"

namespace edgenmt {
namespace simd {
namespace {

// fxp::GeluQ20 on 4 lanes: the table entries by two gathers (VLDRH with shifted offsets; the
// index is clamped into the table, so lanes a predicate leaves out read valid entries too).
// x * Phi / 2^15 is split at bit 15 of x so every product fits 32 bits.
inline V GeluQ20(V x) {
  const V low = Set(-4 * (1 << 20));
  const V t = vminq_s32(vmaxq_s32(vsubq_s32(x, low), Set(0)), Set((8 << 20) - 1));
  const V frac_mask = Set((1 << 15) - 1);
  const uint32x4_t index = vreinterpretq_u32_s32(vshrq_n_s32(t, 15));
  const V a = vldrhq_gather_shifted_offset_s32(fxp::kNormalCdfTableQ15, index);
  const V b = vldrhq_gather_shifted_offset_s32(fxp::kNormalCdfTableQ15, vaddq_n_u32(index, 1));
  const V phi = vaddq_s32(
      a, RoundingDivideByPOT(vmulq_s32(vsubq_s32(b, a), vandq_s32(t, frac_mask)), Set(-15)));
  const V lo_product = vmulq_s32(vandq_s32(x, frac_mask), phi);  // < 2^30
  const V negative = vshrq_n_s32(x, 31);                         // -1 where x < 0
  const mve_pred16_t up =
      vcmpgtq_s32(vandq_s32(lo_product, frac_mask), vsubq_s32(Set((1 << 14) - 1), negative));
  V gelu = vaddq_s32(vmulq_s32(vshrq_n_s32(x, 15), phi), vshrq_n_s32(lo_product, 15));
  gelu = vpselq_s32(vaddq_n_s32(gelu, 1), gelu, up);
  gelu = vpselq_s32(Set(0), gelu, vcmpleq_s32(x, low));
  return vpselq_s32(x, gelu, vcmpgeq_s32(x, Set(4 * (1 << 20))));
}

}  // namespace

void RequantizeS32S8Helium(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y) {
  const V minus_shift = Set(-shift);
  const V floor = Set(relu ? 0 : fxp::kInt32Min);
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    const V v = RoundingDivideByPOT(vmaxq_s32(vldrwq_z_s32(x + i, p), floor), minus_shift);
    vstrbq_p_s32(y + i, Clamp(v, -128, 127), p);
  }
}

void ResidualAddS32S16Helium(int32_t n, const int32_t* x, int32_t shift, int16_t* residual) {
  const V minus_shift = Set(-shift);
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    // |residual| < 2^15: the saturating add clips only sums that saturate int16 anyway.
    const V sum = vqaddq_s32(vldrhq_z_s32(residual + i, p),
                             RoundingDivideByPOT(vldrwq_z_s32(x + i, p), minus_shift));
    vstrhq_p_s32(residual + i, Clamp(sum, -32768, 32767), p);
  }
}

void AttentionScoresS8Helium(int32_t n, const int8_t* query, const int8_t* const* rows,
                             int32_t offset, int32_t dim, int32_t multiplier, int32_t shift,
                             int32_t* scores) {
  for (int32_t j = 0; j < n; ++j) {
    const int8_t* key = rows[j] + offset;
    int32_t dot = 0;
    for (int32_t i = 0; i < dim; i += 16) {
      const mve_pred16_t p = vctp8q(static_cast<uint32_t>(dim - i));
      dot = vmladavaq_p_s8(dot, vldrbq_z_s8(query + i, p), vldrbq_z_s8(key + i, p), p);
    }
    scores[j] = fxp::MultiplyByQuantizedMultiplier(dot, multiplier, shift);
  }
}

void AttentionContextS8Helium(int32_t n, const int16_t* weights, const int8_t* const* rows,
                              int32_t offset, int32_t dim, int8_t* out) {
  const V minus_15 = Set(-15);
  for (int32_t i = 0; i < dim; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(dim - i));
    V acc = Set(0);
    for (int32_t j = 0; j < n; ++j) {
      acc = vmlaq_n_s32(acc, vldrbq_z_s32(rows[j] + offset + i, p), weights[j]);
    }
    vstrbq_p_s32(out + i, Clamp(RoundingDivideByPOT(acc, minus_15), -128, 127), p);
  }
}

void GeluS32S8Helium(int32_t n, const int32_t* x, int32_t shift, int8_t* y) {
  const V minus_shift = Set(-shift);
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    vstrbq_p_s32(
        y + i, Clamp(RoundingDivideByPOT(GeluQ20(vldrwq_z_s32(x + i, p)), minus_shift), -128, 127),
        p);
  }
}

void EmbeddingLookupS8S32Helium(int32_t count, const int32_t* ids, const int8_t* table,
                                const int32_t* row_multiplier, const int32_t* row_shift,
                                int32_t dim, int32_t scale_multiplier, int32_t scale_shift,
                                int32_t* out, int32_t out_stride) {
  const V scale_m = Set(scale_multiplier), scale_s = Set(scale_shift);
  transformer_s8::EmbeddingLookupRows(  // predicated: the vector part covers every column
      count, ids, table, row_multiplier, row_shift, dim, scale_multiplier, scale_shift, out,
      out_stride,
      [&](const int8_t* row, int32_t* dst, int32_t row_multiplier_r, int32_t row_shift_r) {
        const V row_m = Set(row_multiplier_r), row_s = Set(row_shift_r);
        for (int32_t d = 0; d < dim; d += 4) {
          const mve_pred16_t p = vctp32q(static_cast<uint32_t>(dim - d));
          const V scaled = MultiplyByQuantizedMultiplier(vldrbq_z_s32(row + d, p), row_m, row_s);
          vstrwq_p_s32(dst + d, MultiplyByQuantizedMultiplier(scaled, scale_m, scale_s), p);
        }
        return dim;
      });
}

void LayerNormS32Helium(int32_t n, const int32_t* x, int32_t x_frac_bits, const int32_t* gain,
                        const int32_t* shift, int32_t* y) {
  transformer_s8::LayerNormStats stats{0, x[0], x[0]};
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    const V v = vldrwq_z_s32(x + i, p);
    stats.sum = vaddlvaq_p_s32(stats.sum, v, p);
    stats.lowest = vminvq_p_s32(stats.lowest, v, p);
    stats.highest = vmaxvq_p_s32(stats.highest, v, p);
  }
  if (!stats.CentersFitInt32()) {  // the reference's steps, in int64
    ref_layer_norm_s32(n, x, x_frac_bits, gain, shift, y);
    return;
  }
  const transformer_s8::LayerNormCentering centering = transformer_s8::CenterLayerNorm(stats, n);
  const V mean = Set(static_cast<int32_t>(centering.mean)), minus_pre = Set(-centering.pre);
  int64_t squares = 0;
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    const V c = RoundingDivideByPOT(vsubq_s32(vldrwq_z_s32(x + i, p), mean), minus_pre);
    squares = vmlaldavaq_p_s32(squares, c, c, p);
  }
  const fxp::InverseSqrt inv =
      transformer_s8::LayerNormInverseSqrt(squares, n, x_frac_bits, centering.pre);
  transformer_s8::LayerNormOutputs(x, 0, n, centering, inv, gain, shift, y);
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_FEATURE_MVE)
