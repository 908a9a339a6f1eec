// Helium (MVE) versions of the int8-full Transformer's kernels (simd_transformer_s8.h): 4 int32
// lanes per step with the last partial vector predicated (VCTP), exact integer sums
// (VMLADAVA.S8 for the head's scores), the scalar rounding per lane (fixed_point_helium.h).
#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

#include "edgenmt/fixed_point.h"
#include "kernels/simd/fixed_point_helium.h"
#include "kernels/simd/simd_transformer_s8.h"

namespace edgenmt {
namespace simd {

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

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_FEATURE_MVE)
