// NEON int8-full softmax, log-softmax and local-p Gaussian (simd_softmax.h), ARMv7-A and
// ARMv8-A: the reference's exp terms 4 at a time in int32 lanes (fixed_point_neon.h), its
// scalar steps (the one reciprocal or log of the 64-bit sum, the distances) through the same
// functions it calls, so the results are bit-exact. NEON is the baseline of these targets, so
// unlike the AVX-512 files this one may include the shared inline headers.
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/local_p_distance.h"
#include "kernels/arm_neon/fixed_point_neon.h"
#include "kernels/simd/simd_softmax.h"

namespace edgenmt {
namespace simd {
namespace {

// The widest input int bits of the vector exp: it reads the halved difference as
// Q(int_bits + 1) and splits quarters for up to 29 int bits; wider inputs take the reference.
constexpr int32_t kMaxVectorIntBits = 28;

// exp(x - max) in Q0.31 for x, max in Q(int_bits).(31 - int_bits). The reference halves the
// difference (in [-2^32, 0]) rounding ties away from zero, which for a value <= 0 is floor:
// the halving subtract, without overflow.
inline V ExpOfDifference(V x, V max, int int_bits) {
  return ExpOnNegativeValuesQ31(vhsubq_s32(x, max), int_bits + 1);
}

// Lanes [0, count) set, count <= 4.
inline uint32x4_t FirstLanes(int32_t count) {
  static constexpr int32_t kIndex[4] = {0, 1, 2, 3};
  return vcltq_s32(vld1q_s32(kIndex), Set(count));
}

int32_t Max(int32_t n, const int32_t* x) {
  int32_t i = 0, max_value = x[0];
  if (n >= 4) {
    V m = vld1q_s32(x);
    for (i = 4; i + 4 <= n; i += 4) m = vmaxq_s32(m, vld1q_s32(x + i));
    int32x2_t pair = vpmax_s32(vget_low_s32(m), vget_high_s32(m));
    pair = vpmax_s32(pair, pair);
    max_value = vget_lane_s32(pair, 0);
  }
  for (; i < n; ++i) max_value = x[i] > max_value ? x[i] : max_value;
  return max_value;
}

// The sum of the exp terms (each in [0, 2^31)), exact in two uint64 lanes.
uint64_t SumExpOfDifference(int32_t n, const int32_t* x, int32_t max_value, int int_bits) {
  const V max = Set(max_value);
  uint64x2_t sum = vdupq_n_u64(0);
  for (int32_t i = 0; i < n; i += 4) {
    V e = ExpOfDifference(LoadS32Partial(x + i, n - i), max, int_bits);
    if (n - i < 4) e = vandq_s32(e, vreinterpretq_s32_u32(FirstLanes(n - i)));  // padding: none
    sum = vpadalq_u32(sum, vreinterpretq_u32_s32(e));
  }
  return vgetq_lane_u64(sum, 0) + vgetq_lane_u64(sum, 1);
}

// fxp::LogSoftmaxOutputQ16 (kernels/log_softmax_output.h) of 2 values in int64 lanes:
// diff = x - max (in [-2^32, 0]) into Q15.16 (rounded right or exact left shift by
// to_q16 = 16 - frac_bits), minus the log of the sum, saturated.
inline int32x2_t LogSoftmaxOutput2(int32x2_t x, int32x2_t max, int32_t to_q16, int64x2_t log_sum) {
  const int64x2_t diff = vsubl_s32(x, max);
  const int64x2_t diff_q16 = to_q16 >= 0 ? vshlq_s64(diff, vdupq_n_s64(to_q16))
                                         : RoundingDivideByPOT64(diff, vdupq_n_s64(-to_q16));
  return vqmovn_s64(vsubq_s64(diff_q16, log_sum));
}

}  // namespace

void SoftmaxS32S16Neon(int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y) {
  if (input_int_bits < 0 || input_int_bits > kMaxVectorIntBits) {
    ref_softmax_s32_s16(n, x, input_int_bits, y);
    return;
  }
  const int32_t max_value = Max(n, x);
  const fxp::ScaledQ31 reciprocal =
      fxp::ReciprocalOfSumQ31(SumExpOfDifference(n, x, max_value, input_int_bits));
  const int shift = 31 - 15 - reciprocal.exponent;  // >= 15: the sum is >= exp(0)
  if (shift > 31) {  // beyond the int32 rounding's range: as the reference does it
    ref_softmax_s32_s16(n, x, input_int_bits, y);
    return;
  }
  const V max = Set(max_value), mantissa = Set(reciprocal.mantissa);
  const auto outputs4 = [&](const int32_t* in) {
    const V e = ExpOfDifference(vld1q_s32(in), max, input_int_bits);
    return vqmovn_s32(RoundingDivideByPOT(vqrdmulhq_s32(e, mantissa), shift));
  };
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) vst1_s16(y + i, outputs4(x + i));
  if (i < n) {  // the last values through a padded copy
    int32_t in[4] = {max_value, max_value, max_value, max_value};
    int16_t out[4];
    for (int32_t t = 0; t < n - i; ++t) in[t] = x[i + t];
    vst1_s16(out, outputs4(in));
    for (int32_t t = 0; t < n - i; ++t) y[i + t] = out[t];
  }
}

void LogSoftmaxS32Neon(int32_t n, const int32_t* x, int32_t input_int_bits, int32_t* y) {
  if (input_int_bits < 0 || input_int_bits > kMaxVectorIntBits) {
    ref_log_softmax_s32(n, x, input_int_bits, y);
    return;
  }
  const int32_t max_value = Max(n, x);
  const int32_t log_sum_q16 =
      fxp::LogPositiveQ(SumExpOfDifference(n, x, max_value, input_int_bits), 31, 16);
  const int32_t to_q16 = 16 - (31 - input_int_bits);
  const int32x2_t max = vdup_n_s32(max_value);
  const int64x2_t log_sum = vdupq_n_s64(log_sum_q16);
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const V v = vld1q_s32(x + i);
    vst1q_s32(y + i, vcombine_s32(LogSoftmaxOutput2(vget_low_s32(v), max, to_q16, log_sum),
                                  LogSoftmaxOutput2(vget_high_s32(v), max, to_q16, log_sum)));
  }
  for (; i + 2 <= n; i += 2)
    vst1_s32(y + i, LogSoftmaxOutput2(vld1_s32(x + i), max, to_q16, log_sum));
  if (i < n) y[i] = vget_lane_s32(LogSoftmaxOutput2(vdup_n_s32(x[i]), max, to_q16, log_sum), 0);
}

void LocalPGaussianS16Neon(int32_t lo, int32_t hi, int32_t p_q16, int32_t half_width,
                           int16_t* weights) {
  // The distances in plain C++ (a 64-bit division each); exp(-2 r^2) and the product 4 at a
  // time: the product of an int16 weight and a Q0.31 factor <= 1 stays within int16, so the
  // reference's truncating cast is vmovn.
  int32_t r_squared[4];
  int16_t w[4];
  for (int32_t s0 = lo; s0 <= hi; s0 += 4) {
    const int32_t count = hi - s0 + 1 < 4 ? hi - s0 + 1 : 4;
    for (int32_t t = 0; t < 4; ++t) {
      r_squared[t] = t < count ? LocalPScaledSquaredDistance(s0 + t, p_q16, half_width) : 0;
      w[t] = t < count ? weights[s0 - lo + t] : 0;
    }
    const V gaussian = ExpOnNegativeValuesQ31(vnegq_s32(vld1q_s32(r_squared)), 3);
    vst1_s16(w, vmovn_s32(vqrdmulhq_s32(vmovl_s16(vld1_s16(w)), gaussian)));
    for (int32_t t = 0; t < count; ++t) weights[s0 - lo + t] = w[t];
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_NEON)
