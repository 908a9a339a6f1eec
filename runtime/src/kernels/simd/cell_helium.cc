// Helium (MVE) int8-full LSTM cell and tanh (simd_helium.h): ref_lstm_cell_s16 / ref_tanh_s16 on
// 4 int32 lanes, the activations interpolated from the 2 KiB tanh table (fxp::TanhS16 /
// fxp::LogisticS16) with two halfword gathers per activation (VLDRH.U32 with shifted offsets:
// entries i and i + 1). Every intermediate fits 32 bits; the last partial vector of units is
// predicated. Bit-exact: tests/kernels_simd_test.cc in the Cortex-M55 firmware.
#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

#include "edgenmt/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/simd/simd_helium.h"

namespace edgenmt {
namespace simd {
namespace {

using V = int32x4_t;

inline V Set(int32_t v) { return vdupq_n_s32(v); }
inline V Clamp(V x, int32_t lo, int32_t hi) { return vminq_s32(vmaxq_s32(x, Set(lo)), Set(hi)); }

// fxp::RoundingDivideByPOT, exponent in [1, 31].
inline V RoundingDivideByPOT(V x, int exponent) {
  const V fixup = vshrq_n_s32(x, 31);  // -1 where x < 0
  return vrshlq_s32(vqaddq_s32(x, fixup), Set(-exponent));
}

// fxp::TanhTableInterpolated on 4 lanes, a in [0, 2^15].
inline V TanhTableInterpolated(V a, int frac_bits) {
  const int s = fxp::TanhTableExtraBits(frac_bits);
  const V position = vshlq_s32(a, Set(frac_bits >= 7 ? -s : 7 - frac_bits));
  const mve_pred16_t past_end = vcmpgeq_n_s32(position, fxp::kTanhTableLast);
  const V index = vminq_s32(position, Set(fxp::kTanhTableLast));
  const V fraction =
      frac_bits >= 7 ? vpselq_s32(Set(0), vandq_s32(a, Set((1 << s) - 1)), past_end) : Set(0);
  const uint32x4_t offsets = vreinterpretq_u32_s32(index);
  const V lo = vreinterpretq_s32_u32(vldrhq_gather_shifted_offset_u32(fxp::kTanhTableQ16, offsets));
  const V hi =
      vreinterpretq_s32_u32(vldrhq_gather_shifted_offset_u32(fxp::kTanhTableQ16 + 1, offsets));
  return vaddq_s32(vshlq_s32(lo, Set(s)), vmulq_s32(vsubq_s32(hi, lo), fraction));
}

inline V TanhS16(V x, int int_bits) {
  const int s = fxp::TanhTableExtraBits(15 - int_bits);
  const V w = TanhTableInterpolated(vabsq_s32(x), 15 - int_bits);
  const V magnitude = vminq_s32(vshlq_s32(vaddq_s32(w, Set(1 << s)), Set(-(s + 1))), Set(32767));
  return vpselq_s32(vnegq_s32(magnitude), magnitude, vcmpltq_n_s32(x, 0));
}

inline V LogisticS16(V x, int int_bits) {
  const int s = fxp::TanhTableExtraBits(16 - int_bits);
  const V w = TanhTableInterpolated(vabsq_s32(x), 16 - int_bits);
  const V p = vshlq_s32(vaddq_s32(w, Set((1 << (s + 16)) + (1 << (s + 1)))), Set(-(s + 2)));
  return vpselq_s32(vsubq_s32(Set(32768), p), vminq_s32(p, Set(32767)), vcmpltq_n_s32(x, 0));
}

}  // namespace

void LstmCellS16Helium(int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell,
                       int8_t* h, int16_t* h16) {
  if (cell_int_bits < 0 || cell_int_bits > 15) {  // not a format (Model::Load refuses it)
    ref_lstm_cell_s16(hidden, gates, cell_int_bits, cell, h, h16);
    return;
  }
  constexpr int kGateIntBits = 3;
  for (int32_t j = 0; j < hidden; j += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(hidden - j));
    const V i = LogisticS16(vldrhq_z_s32(gates + j, p), kGateIntBits);
    const V f = LogisticS16(vldrhq_z_s32(gates + hidden + j, p), kGateIntBits);
    const V g = TanhS16(vldrhq_z_s32(gates + 2 * hidden + j, p), kGateIntBits);
    const V o = LogisticS16(vldrhq_z_s32(gates + 3 * hidden + j, p), kGateIntBits);
    const V f_c = RoundingDivideByPOT(vmulq_s32(f, vldrhq_z_s32(cell + j, p)), 15);
    const V i_g = RoundingDivideByPOT(vmulq_s32(i, g), 15 + cell_int_bits);
    const V c_new = Clamp(vaddq_s32(f_c, i_g), -32768, 32767);
    vstrhq_p_s32(cell + j, c_new, p);
    const V o_tanh_c = vmulq_s32(o, TanhS16(c_new, cell_int_bits));
    vstrbq_p_s32(h + j, Clamp(RoundingDivideByPOT(o_tanh_c, 23), -128, 127), p);
    if (h16 != nullptr) {
      vstrhq_p_s32(h16 + j, Clamp(RoundingDivideByPOT(o_tanh_c, 15), -32768, 32767), p);
    }
  }
}

void TanhS16Helium(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y) {
  if (input_int_bits < 0 || input_int_bits > 15) {
    ref_tanh_s16(n, x, input_int_bits, y);
    return;
  }
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    vstrhq_p_s32(y + i, TanhS16(vldrhq_z_s32(x + i, p), input_int_bits), p);
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_FEATURE_MVE)
