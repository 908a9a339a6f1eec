// NEON int8-full GRU cell (simd_cell.h), ARMv7-A and ARMv8-A: ref_gru_cell_s16 line by line on
// 4 units at a time, its Q0.31 logistic / tanh from fixed_point_neon.h. Every intermediate fits
// int32 as in the reference: (gi + gh) * 2^15 lies in [-2^31, 2^31 - 2^16], gi_n * 2^15 + r * gh_n
// in [-2^31, 2^31), h * 2^15 - n / 2 in (-2^31, 2^31). Bit-exact: tests/kernels_simd_test.cc.
#if defined(__ARM_NEON)
#include <arm_neon.h>
#include <string.h>

#include "kernels/arm_neon/fixed_point_neon.h"
#include "kernels/simd/simd_cell.h"

namespace edgenmt {
namespace simd {
namespace {

inline V LoadS16(const int16_t* p) { return vmovl_s16(vld1_s16(p)); }

// (a + b) * 2^15 of two int16 vectors (Q3.12 sums read as Q4.27).
inline V SumQ27(const int16_t* a, const int16_t* b) {
  return vshlq_n_s32(vaddl_s16(vld1_s16(a), vld1_s16(b)), 15);
}

// Four units of ref_gru_cell_s16 (gate blocks `hidden` apart).
inline void GruCell4(const int16_t* gi, const int16_t* gh, int32_t hidden, int16_t* state,
                     int8_t* h_s8) {
  constexpr int kIntBits = 4;  // Q4.27
  const V r = LogisticQ31(SumQ27(gi, gh), kIntBits);
  const V z = LogisticQ31(SumQ27(gi + hidden, gh + hidden), kIntBits);
  const V r_ghn = SaturatingRoundingDoublingHighMul(r, vshlq_n_s32(LoadS16(gh + 2 * hidden), 15));
  const V n = TanhQ31(vaddq_s32(vshlq_n_s32(LoadS16(gi + 2 * hidden), 15), r_ghn), kIntBits);
  const V n_q30 = RoundingDivideByPOT(n, 1);
  const V h_minus_n = vsubq_s32(vshlq_n_s32(LoadS16(state), 15), n_q30);
  const V h_new_q30 = vaddq_s32(n_q30, SaturatingRoundingDoublingHighMul(z, h_minus_n));
  const int16x4_t h16 = vqmovn_s32(RoundingDivideByPOT(h_new_q30, 15));
  vst1_s16(state, h16);
  const int16x4_t h8 = vqmovn_s32(RoundingDivideByPOT(vmovl_s16(h16), 8));  // within int16
  const int8x8_t bytes = vqmovn_s16(vcombine_s16(h8, h8));
  memcpy(h_s8, &bytes, 4);  // the first 4 bytes (lane order is memory order)
}

}  // namespace

void GruCellS16Neon(int32_t hidden, const int16_t* gi, const int16_t* gh, int16_t* state,
                    int8_t* h_s8) {
  int32_t j = 0;
  for (; j + 4 <= hidden; j += 4) GruCell4(gi + j, gh + j, hidden, state + j, h_s8 + j);
  if (j < hidden) {  // the last units through padded copies of their gates and state
    const int32_t n = hidden - j;
    int16_t gi_block[3 * 4] = {}, gh_block[3 * 4] = {}, state_block[4] = {};
    int8_t h_block[4];
    for (int32_t t = 0; t < n; ++t) {
      for (int32_t gate = 0; gate < 3; ++gate) {
        gi_block[gate * 4 + t] = gi[gate * hidden + j + t];
        gh_block[gate * 4 + t] = gh[gate * hidden + j + t];
      }
      state_block[t] = state[j + t];
    }
    GruCell4(gi_block, gh_block, 4, state_block, h_block);
    for (int32_t t = 0; t < n; ++t) {
      state[j + t] = state_block[t];
      h_s8[j + t] = h_block[t];
    }
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
