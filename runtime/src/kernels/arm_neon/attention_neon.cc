// NEON int8-full attention products over the Q0.15 memory (simd_attention.h), ARMv7-A and
// ARMv8-A: int16 x int16 products are exact in int32 (vmull: |a|, |b| <= 2^15), added into
// int64 lanes (vpadal / vaddw), so every sum is the reference's exact one. Two int32 products
// may already overflow (2 * 2^30), hence no int32 accumulation in between.
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "edgenmt/internal/fixed_point.h"
#include "kernels/score_scale.h"
#include "kernels/simd/simd_attention.h"

namespace edgenmt {
namespace simd {
namespace {

// sum_{i < n} a[i] * b[i], exact.
int64_t DotS16S64(int32_t n, const int16_t* a, const int16_t* b) {
  int64x2_t low = vdupq_n_s64(0), high = vdupq_n_s64(0);
  int32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const int16x8_t av = vld1q_s16(a + i), bv = vld1q_s16(b + i);
    low = vpadalq_s32(low, vmull_s16(vget_low_s16(av), vget_low_s16(bv)));
    high = vpadalq_s32(high, vmull_s16(vget_high_s16(av), vget_high_s16(bv)));
  }
  if (i + 4 <= n) {
    low = vpadalq_s32(low, vmull_s16(vld1_s16(a + i), vld1_s16(b + i)));
    i += 4;
  }
  const int64x2_t sum = vaddq_s64(low, high);
  int64_t total = vgetq_lane_s64(sum, 0) + vgetq_lane_s64(sum, 1);
  for (; i < n; ++i) total += static_cast<int32_t>(a[i]) * b[i];
  return total;
}

// Adds weight * memory[0, 4) to the two int64 accumulators of those columns.
inline void Accumulate4(int16x4_t memory, int16_t weight, int64x2_t* low, int64x2_t* high) {
  const int32x4_t products = vmull_n_s16(memory, weight);
  *low = vaddw_s32(*low, vget_low_s32(products));
  *high = vaddw_s32(*high, vget_high_s32(products));
}

// round(sum / 2^23), ties away from zero (the fixup of fixed_point_neon.h: -1 on negative sums,
// then vqrshrn's ties-up rounding), saturated to int32 and then, by the caller, to int8.
inline int32x2_t Round23(int64x2_t sum) {
  return vqrshrn_n_s64(vaddq_s64(sum, vshrq_n_s64(sum, 63)), 23);
}

}  // namespace

void ScoreWindowS16Neon(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo,
                        int32_t hi, int32_t to_q20, int32_t* scores) {
  for (int32_t s = lo; s <= hi; ++s) {
    scores[s] =
        ScaleScoreQ20(DotS16S64(dim, query, memory + static_cast<int64_t>(s) * dim), to_q20);
  }
}

void ContextS16S8Neon(int32_t count, const int16_t* weights, const int16_t* memory, int32_t dim,
                      int8_t* context) {
  int32_t j = 0;
  for (; j + 8 <= dim; j += 8) {  // columns j .. j + 7 in four int64x2 accumulators
    int64x2_t a0 = vdupq_n_s64(0), a1 = a0, a2 = a0, a3 = a0;
    for (int32_t s = 0; s < count; ++s) {
      const int16x8_t m = vld1q_s16(memory + static_cast<int64_t>(s) * dim + j);
      Accumulate4(vget_low_s16(m), weights[s], &a0, &a1);
      Accumulate4(vget_high_s16(m), weights[s], &a2, &a3);
    }
    const int16x8_t wide = vcombine_s16(vqmovn_s32(vcombine_s32(Round23(a0), Round23(a1))),
                                        vqmovn_s32(vcombine_s32(Round23(a2), Round23(a3))));
    vst1_s8(context + j, vqmovn_s16(wide));  // saturating in steps is saturating to int8
  }
  for (; j < dim; ++j) {  // the last columns as the reference sums them
    int64_t acc = 0;
    for (int32_t s = 0; s < count; ++s) {
      acc += static_cast<int32_t>(weights[s]) * memory[static_cast<int64_t>(s) * dim + j];
    }
    context[j] = fxp::SaturateToInt8(static_cast<int32_t>(fxp::RoundingDivideByPOT64(acc, 23)));
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
