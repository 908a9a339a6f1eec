// The scalar steps of int8-full's softmax and log-softmax around the x86 exp terms
// (simd_softmax.h; AVX-512: softmax_avx512.cc, AVX2: softmax_avx2.cc): the same maximum,
// 64-bit sum, reciprocal or log, and outputs as ref_softmax_s32_s16 / ref_log_softmax_s32, so
// the results are bit-exact. Plain C++ (no ISA flags): only the x86 tables point here.
#include "kernels/simd/simd_softmax.h"

#if defined(__x86_64__)
#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/local_p_distance.h"
#include "kernels/log_softmax_output.h"

namespace edgenmt {
namespace simd {
namespace {

// One ISA level's vector parts (simd_softmax.h) and the widest input int bits they take.
struct SoftmaxVectorParts {
  uint64_t (*sum_exp_of_difference)(int32_t n, const int32_t* x, int32_t max,
                                    int32_t input_int_bits);
  void (*outputs)(int32_t n, const int32_t* x, int32_t max, int32_t input_int_bits,
                  int32_t mantissa, int32_t shift, int16_t* y);
  void (*gaussian_weights)(int32_t n, const int32_t* r_squared, int16_t* weights);
  int32_t max_int_bits;
};

constexpr SoftmaxVectorParts kAvx512 = {SumExpOfDifferenceAvx512, SoftmaxOutputsAvx512,
                                        GaussianWeightsAvx512, kMaxSoftmaxIntBits};
constexpr SoftmaxVectorParts kAvx2 = {SumExpOfDifferenceAvx2, SoftmaxOutputsAvx2,
                                      GaussianWeightsAvx2, kMaxSoftmaxIntBitsAvx2};

int32_t Max(int32_t n, const int32_t* x) {
  int32_t max_value = x[0];
  for (int32_t i = 1; i < n; ++i) max_value = x[i] > max_value ? x[i] : max_value;
  return max_value;
}

void Softmax(const SoftmaxVectorParts& parts, int32_t n, const int32_t* x, int32_t input_int_bits,
             int16_t* y) {
  if (input_int_bits < 0 || input_int_bits > parts.max_int_bits) {
    ref_softmax_s32_s16(n, x, input_int_bits, y);
    return;
  }
  const int32_t max_value = Max(n, x);
  const fxp::ScaledQ31 reciprocal =
      fxp::ReciprocalOfSumQ31(parts.sum_exp_of_difference(n, x, max_value, input_int_bits));
  const int shift = 31 - 15 - reciprocal.exponent;  // >= 15: the sum is >= exp(0)
  if (shift > 31) {  // beyond the int32 rounding's range: as the reference does it
    ref_softmax_s32_s16(n, x, input_int_bits, y);
    return;
  }
  parts.outputs(n, x, max_value, input_int_bits, reciprocal.mantissa, shift, y);
}

void LogSoftmax(const SoftmaxVectorParts& parts, int32_t n, const int32_t* x,
                int32_t input_int_bits, int32_t* y) {
  if (input_int_bits < 0 || input_int_bits > parts.max_int_bits) {
    ref_log_softmax_s32(n, x, input_int_bits, y);
    return;
  }
  const int32_t max_value = Max(n, x);
  const int32_t log_sum_q16 =
      fxp::LogPositiveQ(parts.sum_exp_of_difference(n, x, max_value, input_int_bits), 31, 16);
  for (int32_t i = 0; i < n; ++i)
    y[i] = LogSoftmaxOutputQ16(x[i], max_value, input_int_bits, log_sum_q16);
}

void LocalPGaussian(const SoftmaxVectorParts& parts, int32_t lo, int32_t hi, int32_t p_q16,
                    int32_t half_width, int16_t* weights) {
  int32_t r_squared[8];
  for (int32_t s0 = lo; s0 <= hi; s0 += 8) {
    const int32_t count = hi - s0 + 1 < 8 ? hi - s0 + 1 : 8;
    for (int32_t t = 0; t < count; ++t) {
      r_squared[t] = LocalPScaledSquaredDistance(s0 + t, p_q16, half_width);
    }
    parts.gaussian_weights(count, r_squared, weights + (s0 - lo));
  }
}

}  // namespace

void SoftmaxS32S16Avx512(int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y) {
  Softmax(kAvx512, n, x, input_int_bits, y);
}
void LogSoftmaxS32Avx512(int32_t n, const int32_t* x, int32_t input_int_bits, int32_t* y) {
  LogSoftmax(kAvx512, n, x, input_int_bits, y);
}
void LocalPGaussianS16Avx512(int32_t lo, int32_t hi, int32_t p_q16, int32_t half_width,
                             int16_t* weights) {
  LocalPGaussian(kAvx512, lo, hi, p_q16, half_width, weights);
}

void SoftmaxS32S16Avx2(int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y) {
  Softmax(kAvx2, n, x, input_int_bits, y);
}
void LogSoftmaxS32Avx2(int32_t n, const int32_t* x, int32_t input_int_bits, int32_t* y) {
  LogSoftmax(kAvx2, n, x, input_int_bits, y);
}
void LocalPGaussianS16Avx2(int32_t lo, int32_t hi, int32_t p_q16, int32_t half_width,
                           int16_t* weights) {
  LocalPGaussian(kAvx2, lo, hi, p_q16, half_width, weights);
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
