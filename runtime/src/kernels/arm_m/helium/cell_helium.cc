// Helium (MVE) int8-full LSTM cell and tanh (simd_helium.h): ref_lstm_cell_s16 / ref_tanh_s16 on
// 4 int32 lanes, the activations interpolated from the 2 KiB tanh table (fxp::TanhS16 /
// fxp::LogisticS16) with two halfword gathers per activation (VLDRH.U32 with shifted offsets:
// entries i and i + 1). Every intermediate fits 32 bits; the last 1-3 units or values take the
// reference. Bit-exact: tests/kernels_simd_test.cc in the Cortex-M55 firmware.
#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/arm_m/helium/fixed_point_helium.h"
#include "kernels/simd/simd_helium.h"

namespace edgenmt {
namespace simd {
namespace {

// MVE has 8 vector registers: the constants below enter as scalar operands (the _n / _r
// forms, VDUP under a predicate) or as immediates, so GCC has none to keep in vector
// registers, which it would spill to the stack and reload in the loop.

// fxp::TanhTableInterpolated on 4 lanes, a in [0, 2^15].
inline V TanhTableInterpolated(V a, int frac_bits) {
  const int s = fxp::TanhTableExtraBits(frac_bits);
  const V position = vshlq_r_s32(a, frac_bits >= 7 ? -s : 7 - frac_bits);
  const mve_pred16_t past_end = vcmpgeq_n_s32(position, fxp::kTanhTableLast);
  const V index = vdupq_m_n_s32(position, fxp::kTanhTableLast, past_end);
  // a's low s bits, none past the end; none at all below 7 fraction bits (position = a << k).
  const V fraction = frac_bits >= 7
                         ? vdupq_m_n_s32(vsubq_s32(a, vshlq_r_s32(position, s)), 0, past_end)
                         : vdupq_n_s32(0);
  const uint32x4_t offsets = vreinterpretq_u32_s32(index);
  const V lo = vreinterpretq_s32_u32(vldrhq_gather_shifted_offset_u32(fxp::kTanhTableQ16, offsets));
  const V hi =
      vreinterpretq_s32_u32(vldrhq_gather_shifted_offset_u32(fxp::kTanhTableQ16 + 1, offsets));
  return vaddq_s32(vshlq_r_s32(lo, s), vmulq_s32(vsubq_s32(hi, lo), fraction));
}

inline V TanhS16(V x, int int_bits) {
  const int s = fxp::TanhTableExtraBits(15 - int_bits);
  const V w = TanhTableInterpolated(vabsq_s32(x), 15 - int_bits);
  const V magnitude = SaturateS16(vshlq_r_s32(vaddq_n_s32(w, 1 << s), -(s + 1)));  // >= 0
  return vpselq_s32(vnegq_s32(magnitude), magnitude, vcmpltq_n_s32(x, 0));
}

inline V LogisticS16(V x, int int_bits) {
  const int s = fxp::TanhTableExtraBits(16 - int_bits);
  const V w = TanhTableInterpolated(vabsq_s32(x), 16 - int_bits);
  const V p = vshlq_r_s32(vaddq_n_s32(w, (1 << (s + 16)) + (1 << (s + 1))), -(s + 2));
  return vpselq_s32(vaddq_n_s32(vnegq_s32(p), 32768), SaturateS16(p), vcmpltq_n_s32(x, 0));
}

// ref_lstm_cell_s16 for units j .. j + 3.
inline void LstmCell4(int32_t hidden, int32_t j, const int16_t* gates, int32_t cell_int_bits,
                      int16_t* cell, int8_t* h, int16_t* h16) {
  constexpr int kGateIntBits = 3;
  const V i = LogisticS16(vldrhq_s32(gates + j), kGateIntBits);
  const V f = LogisticS16(vldrhq_s32(gates + hidden + j), kGateIntBits);
  const V g = TanhS16(vldrhq_s32(gates + 2 * hidden + j), kGateIntBits);
  const V o = LogisticS16(vldrhq_s32(gates + 3 * hidden + j), kGateIntBits);
  const V f_c = RoundingRightShift(vmulq_s32(f, vldrhq_s32(cell + j)), 15);
  const V i_g = RoundingRightShift(vmulq_s32(i, g), 15 + cell_int_bits);
  const V c_new = SaturateS16(vaddq_s32(f_c, i_g));
  vstrhq_s32(cell + j, c_new);
  const V o_tanh_c = vmulq_s32(o, TanhS16(c_new, cell_int_bits));
  vstrbq_s32(h + j, SaturateS8LowByte(RoundingRightShift(o_tanh_c, 23)));
  if (h16 != nullptr) vstrhq_s32(h16 + j, SaturateS16(RoundingRightShift(o_tanh_c, 15)));
}

}  // namespace

void LstmCellS16Helium(int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell,
                       int8_t* h, int16_t* h16) {
  if (cell_int_bits < 0 || cell_int_bits > 15) {  // not a format (Model::Load refuses it)
    ref_lstm_cell_s16(hidden, gates, cell_int_bits, cell, h, h16);
    return;
  }
  const int32_t full = hidden & ~3;
  for (int32_t j = 0; j < full; j += 4) LstmCell4(hidden, j, gates, cell_int_bits, cell, h, h16);
  const int32_t rest = hidden - full;
  if (rest > 0) {
    // The last 1-3 units by the reference (no second, predicated copy of the vector code in a
    // microcontroller's flash), on their gates gathered into the reference's layout.
    int16_t tail_gates[4 * 3];
    for (int32_t g = 0; g < 4; ++g) {
      for (int32_t u = 0; u < rest; ++u) tail_gates[g * rest + u] = gates[g * hidden + full + u];
    }
    ref_lstm_cell_s16(rest, tail_gates, cell_int_bits, cell + full, h + full,
                      h16 != nullptr ? h16 + full : nullptr);
  }
}

void TanhS16Helium(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y) {
  if (input_int_bits < 0 || input_int_bits > 15) {
    ref_tanh_s16(n, x, input_int_bits, y);
    return;
  }
  const int32_t full = n & ~3;
  for (int32_t i = 0; i < full; i += 4) {
    vstrhq_s32(y + i, TanhS16(vldrhq_s32(x + i), input_int_bits));
  }
  if (full < n) ref_tanh_s16(n - full, x + full, input_int_bits, y + full);
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_FEATURE_MVE)
