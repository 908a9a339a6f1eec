// NEON narrow_s32_s16 and requantize_s16_s8 (simd_cell.h), ARMv7-A and ARMv8-A:
// fxp::RoundingDivideByPOT then saturation, 8 values at a time in int32 lanes (the rounding of
// fixed_point_neon.h is exact for every int32 and every shift in [0, 31]; vqmovn saturates).
// int16 inputs are widened first: in int16 lanes the ties-away fixup would saturate at -32768,
// and at shift 16 -32768 / 2^16 = -1/2 must round to -1.
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "kernels/arm_neon/fixed_point_neon.h"
#include "kernels/simd/simd_cell.h"

namespace edgenmt {
namespace simd {
namespace {

inline int16x8_t Narrow8(const int32_t* x, int32_t shift) {
  return vcombine_s16(vqmovn_s32(RoundingDivideByPOT(vld1q_s32(x), shift)),
                      vqmovn_s32(RoundingDivideByPOT(vld1q_s32(x + 4), shift)));
}

inline int8x8_t Requantize8(const int16_t* x, int32_t shift) {
  const int16x8_t v = vld1q_s16(x);
  const int16x8_t narrowed =
      vcombine_s16(vqmovn_s32(RoundingDivideByPOT(vmovl_s16(vget_low_s16(v)), shift)),
                   vqmovn_s32(RoundingDivideByPOT(vmovl_s16(vget_high_s16(v)), shift)));
  return vqmovn_s16(narrowed);  // saturating to int16, then to int8, is saturating to int8
}

}  // namespace

void NarrowS32S16Neon(int32_t n, const int32_t* x, int32_t shift, int16_t* y) {
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) vst1q_s16(y + i, Narrow8(x + i, shift));
  if (i < n) {  // the last values through a padded copy
    int32_t in[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int16_t out[8];
    for (int32_t t = 0; t < n - i; ++t) in[t] = x[i + t];
    vst1q_s16(out, Narrow8(in, shift));
    for (int32_t t = 0; t < n - i; ++t) y[i + t] = out[t];
  }
}

void RequantizeS16S8Neon(int32_t n, const int16_t* x, int32_t shift, int8_t* y) {
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) vst1_s8(y + i, Requantize8(x + i, shift));
  if (i < n) {
    int16_t in[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int8_t out[8];
    for (int32_t t = 0; t < n - i; ++t) in[t] = x[i + t];
    vst1_s8(out, Requantize8(in, shift));
    for (int32_t t = 0; t < n - i; ++t) y[i + t] = out[t];
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
