// Helium (MVE) int8-full softmax and log-softmax (simd_helium.h): ref_softmax_s32_s16 and
// ref_log_softmax_s32 with the exp terms on 4 lanes. Each function below mirrors the scalar
// one of edgenmt/internal/fixed_point.h with the same name (the exp is fixed_point_exp_lanes.h's
// over fixed_point_helium.h's lanes), so the terms, their 64-bit sum (VADDLVA) and the outputs are
// bit-exact; the reciprocal and the log of the sum are the scalar functions themselves (once
// per call).
#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/log_softmax_output.h"
#include "kernels/arm_m/helium/fixed_point_helium.h"
#include "kernels/simd/simd_helium.h"

namespace edgenmt {
namespace simd {
namespace {

// The max of x[0..n), and the exp terms of x - max (halved: one more integer bit) on 4 lanes.
inline int32_t MaxOf(int32_t n, const int32_t* x) {
  int32_t m = x[0];
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    m = vmaxvq_p_s32(m, vldrwq_z_s32(x + i, p), p);
  }
  return m;
}

// One copy (not inlined into each of the four loops): flash is the M55's scarce resource, and a
// call per four terms costs little beside the exp's ~40 instructions.
__attribute__((noinline)) V Terms(const int32_t* x, int32_t max_value, int32_t input_int_bits,
                                  mve_pred16_t p) {
  // (x - max) / 2 rounded as fxp::RoundingDivideByPOT64(diff, 1): for diff <= 0 that is the
  // floor, VHSUB's result (no overflow: it works on the 33-bit difference).
  return ExpOnNegativeValuesQ31(vhsubq_s32(vldrwq_z_s32(x, p), Set(max_value)), input_int_bits + 1);
}

inline int64_t SumOfTerms(int32_t n, const int32_t* x, int32_t max_value, int32_t input_int_bits) {
  int64_t sum = 0;
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    sum = vaddlvaq_p_s32(sum, Terms(x + i, max_value, input_int_bits, p), p);
  }
  return sum;
}

// The scalar kernels' formats with int_bits + 1 > 29 take their own path (and none is used).
constexpr int32_t kMaxVectorIntBits = 28;

}  // namespace

void SoftmaxS32S16Helium(int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y) {
  if (input_int_bits < 0 || input_int_bits > kMaxVectorIntBits) {
    ref_softmax_s32_s16(n, x, input_int_bits, y);
    return;
  }
  const int32_t max_value = MaxOf(n, x);
  const fxp::ScaledQ31 reciprocal =
      fxp::ReciprocalOfSumQ31(static_cast<uint64_t>(SumOfTerms(n, x, max_value, input_int_bits)));
  const int shift = 31 - 15 - reciprocal.exponent;  // >= 15
  if (shift > 31) {
    ref_softmax_s32_s16(n, x, input_int_bits, y);
    return;
  }
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    const V e = Terms(x + i, max_value, input_int_bits, p);
    const V v = RoundingRightShift(vqrdmulhq_n_s32(e, reciprocal.mantissa), shift);
    vstrhq_p_s32(y + i, vminq_s32(vmaxq_s32(v, Set(-32768)), Set(32767)), p);
  }
}

void LogSoftmaxS32Helium(int32_t n, const int32_t* x, int32_t input_int_bits, int32_t* y) {
  if (input_int_bits < 0 || input_int_bits > kMaxVectorIntBits) {
    ref_log_softmax_s32(n, x, input_int_bits, y);
    return;
  }
  const int32_t max_value = MaxOf(n, x);
  const uint64_t sum = static_cast<uint64_t>(SumOfTerms(n, x, max_value, input_int_bits));
  const int32_t log_sum_q16 = fxp::LogPositiveQ(sum, 31, 16);
  for (int32_t i = 0; i < n; ++i)
    y[i] = LogSoftmaxOutputQ16(x[i], max_value, input_int_bits, log_sum_q16);
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_FEATURE_MVE)
