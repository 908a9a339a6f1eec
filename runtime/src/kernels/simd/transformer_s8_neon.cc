// NEON versions of the int8-full Transformer's kernels (simd_transformer_s8.h): 4 int32 lanes,
// scalar tails; exact integer sums, the scalar rounding per lane (fixed_point_neon.h).
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "edgenmt/fixed_point.h"
#include "kernels/transformer_s8_elements.h"
#include "kernels/simd/fixed_point_neon.h"
#include "kernels/simd/simd_transformer_s8.h"

namespace edgenmt {
namespace simd {

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
    const int32x4_t a = vqaddq_s32(vmovl_s16(vget_low_s16(r)), RoundingDivideByPOT(vld1q_s32(x + i), shift));
    const int32x4_t b = vqaddq_s32(vmovl_s16(vget_high_s16(r)), RoundingDivideByPOT(vld1q_s32(x + i + 4), shift));
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

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
