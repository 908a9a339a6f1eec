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

// MVE has 8 vector registers: the constants below enter as scalar operands (the _n / _r
// forms, VDUP under a predicate) or as immediates, so GCC has none to keep in vector
// registers, which it would spill to the stack and reload in the loop. Saturation to int16 is
// VQMOVNB (into the low half of each lane) and VMOVLB back, with no bounds to hold.

// x saturated to int16, sign-extended in its lane.
inline V SaturateS16(V x) {
  return vmovlbq_s16(vqmovnbq_s32(vreinterpretq_s16_s32(x), x));
}

// fxp::RoundingDivideByPOT, exponent in [1, 31].
inline V RoundingDivideByPOT(V x, int32_t exponent) {
  return vrshlq_n_s32(vqaddq_s32(x, vshrq_n_s32(x, 31)), -exponent);  // x - [x < 0], ties up
}

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

// Loads and stores of 4 lanes from int16 / int8 arrays: whole (kTail false: no VPST) or the
// lanes of p.
template <bool kTail>
inline V LoadS16(const int16_t* p16, mve_pred16_t p) {
  return kTail ? vldrhq_z_s32(p16, p) : vldrhq_s32(p16);
}
template <bool kTail>
inline void StoreS16(int16_t* p16, V v, mve_pred16_t p) {
  if (kTail) {
    vstrhq_p_s32(p16, v, p);
  } else {
    vstrhq_s32(p16, v);
  }
}

// ref_lstm_cell_s16 for units j .. j + 3 (those in p when kTail).
template <bool kTail>
inline void LstmCell4(int32_t hidden, int32_t j, mve_pred16_t p, const int16_t* gates,
                      int32_t cell_int_bits, int16_t* cell, int8_t* h, int16_t* h16) {
  constexpr int kGateIntBits = 3;
  const V i = LogisticS16(LoadS16<kTail>(gates + j, p), kGateIntBits);
  const V f = LogisticS16(LoadS16<kTail>(gates + hidden + j, p), kGateIntBits);
  const V g = TanhS16(LoadS16<kTail>(gates + 2 * hidden + j, p), kGateIntBits);
  const V o = LogisticS16(LoadS16<kTail>(gates + 3 * hidden + j, p), kGateIntBits);
  const V f_c = RoundingDivideByPOT(vmulq_s32(f, LoadS16<kTail>(cell + j, p)), 15);
  const V i_g = RoundingDivideByPOT(vmulq_s32(i, g), 15 + cell_int_bits);
  const V c_new = SaturateS16(vaddq_s32(f_c, i_g));
  StoreS16<kTail>(cell + j, c_new, p);
  const V o_tanh_c = vmulq_s32(o, TanhS16(c_new, cell_int_bits));
  // int8: two saturating narrowings leave it in each lane's low byte, which VSTRB.32 stores.
  const V h32 = RoundingDivideByPOT(o_tanh_c, 23);
  const int8x16_t h8 = vqmovnbq_s16(vreinterpretq_s8_s32(h32),
                                    vqmovnbq_s32(vreinterpretq_s16_s32(h32), h32));
  if (kTail) {
    vstrbq_p_s32(h + j, vreinterpretq_s32_s8(h8), p);
  } else {
    vstrbq_s32(h + j, vreinterpretq_s32_s8(h8));
  }
  if (h16 != nullptr) StoreS16<kTail>(h16 + j, SaturateS16(RoundingDivideByPOT(o_tanh_c, 15)), p);
}

}  // namespace

void LstmCellS16Helium(int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell,
                       int8_t* h, int16_t* h16) {
  if (cell_int_bits < 0 || cell_int_bits > 15) {  // not a format (Model::Load refuses it)
    ref_lstm_cell_s16(hidden, gates, cell_int_bits, cell, h, h16);
    return;
  }
  const int32_t full = hidden & ~3;
  for (int32_t j = 0; j < full; j += 4) {
    LstmCell4<false>(hidden, j, 0xffff, gates, cell_int_bits, cell, h, h16);
  }
  if (full < hidden) {
    LstmCell4<true>(hidden, full, vctp32q(static_cast<uint32_t>(hidden - full)), gates,
                    cell_int_bits, cell, h, h16);
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
  if (full < n) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - full));
    vstrhq_p_s32(y + full, TanhS16(vldrhq_z_s32(x + full, p), input_int_bits), p);
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_FEATURE_MVE)
