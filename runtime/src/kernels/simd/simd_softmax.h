// The softmax kernels of the SIMD backend: int8-full's softmax_s32_s16 (attention weights),
// local-p's Gaussian over them and log_softmax_s32 (Q15.16 log-probs) on x86 AVX-512 and AVX2
// and on NEON, float32 softmax_f32 / log_softmax_f32 on AVX2. The integer ones evaluate the
// reference's exp terms 8 (AVX-512: fixed_point_exp_avx512.h; AVX2: fixed_point_avx2.h) or 4
// (NEON: fixed_point_neon.h) at a time and keep its scalar steps (maximum, the one log or
// reciprocal of the sum) in plain C++ (softmax_s32.cc; on ARM in softmax_neon.cc itself, NEON being
// the baseline), so they are bit-exact; the float ones are within the tolerance of
// tests/kernels_simd_test.cc. Same file rules as simd_dot.h.
#ifndef EDGENMT_KERNELS_SIMD_SIMD_SOFTMAX_H_
#define EDGENMT_KERNELS_SIMD_SIMD_SOFTMAX_H_

#include <stdint.h>

namespace edgenmt {
namespace simd {

#if defined(__x86_64__)
// The widest input int bits the vector exp handles (it needs int_bits + 1 <= 28); wider inputs
// go to the reference.
constexpr int32_t kMaxSoftmaxIntBits = 27;

// Contracts of ref_softmax_s32_s16 and ref_log_softmax_s32 (kernels/kernels_s8.h).
void SoftmaxS32S16Avx512(int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y);
void LogSoftmaxS32Avx512(int32_t n, const int32_t* x, int32_t input_int_bits, int32_t* y);

// The vector parts (softmax_avx512.cc), for input_int_bits <= kMaxSoftmaxIntBits:
// sum over i < n of exp(x[i] - max) in Q0.31 (the references' term), and the softmax outputs
// SaturateToInt16(RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(term, mantissa), shift)).
uint64_t SumExpOfDifferenceAvx512(int32_t n, const int32_t* x, int32_t max, int32_t input_int_bits);
void SoftmaxOutputsAvx512(int32_t n, const int32_t* x, int32_t max, int32_t input_int_bits,
                          int32_t mantissa, int32_t shift, int16_t* y);

// Contract of ref_local_p_gaussian_s16: the distances in plain C++ (kernels/local_p_distance.h),
// the exp and the product with the weights 8 at a time (GaussianWeightsAvx512).
void LocalPGaussianS16Avx512(int32_t lo, int32_t hi, int32_t p_q16, int32_t half_width,
                             int16_t* weights);
// weights[i] = SaturatingRoundingDoublingHighMul(weights[i], ExpOnNegativeValuesQ31(-r_squared[i],
// 3)) for i < n <= 8.
void GaussianWeightsAvx512(int32_t n, const int32_t* r_squared, int16_t* weights);

// The same on AVX2 (softmax_avx2.cc), 8 int32 lanes at a time (fixed_point_avx2.h), for
// input_int_bits <= kMaxSoftmaxIntBitsAvx2 (the exp reads the halved difference as
// Q(int_bits + 1) and splits quarters for up to 29 int bits); the scalar steps are the same
// functions' (softmax_s32.cc).
constexpr int32_t kMaxSoftmaxIntBitsAvx2 = 28;
void SoftmaxS32S16Avx2(int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y);
void LogSoftmaxS32Avx2(int32_t n, const int32_t* x, int32_t input_int_bits, int32_t* y);
void LocalPGaussianS16Avx2(int32_t lo, int32_t hi, int32_t p_q16, int32_t half_width,
                           int16_t* weights);
uint64_t SumExpOfDifferenceAvx2(int32_t n, const int32_t* x, int32_t max, int32_t input_int_bits);
void SoftmaxOutputsAvx2(int32_t n, const int32_t* x, int32_t max, int32_t input_int_bits,
                        int32_t mantissa, int32_t shift, int16_t* y);
void GaussianWeightsAvx2(int32_t n, const int32_t* r_squared, int16_t* weights);

// Contracts of ref_softmax_f32 and ref_log_softmax_f32 (AVX2 + FMA; activation_avx2.cc).
void SoftmaxF32Avx2(int32_t n, const float* x, float* y);
void LogSoftmaxF32Avx2(int32_t n, const float* x, float* y);
#endif
#if defined(__ARM_NEON)
// Contracts of ref_softmax_s32_s16, ref_log_softmax_s32 and ref_local_p_gaussian_s16 on NEON
// (softmax_neon.cc: the exp terms 4 at a time, the scalar steps in the same file, as NEON is
// these targets' baseline); input int bits past 28 go to the reference.
void SoftmaxS32S16Neon(int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y);
void LogSoftmaxS32Neon(int32_t n, const int32_t* x, int32_t input_int_bits, int32_t* y);
void LocalPGaussianS16Neon(int32_t lo, int32_t hi, int32_t p_q16, int32_t half_width,
                           int16_t* weights);
#endif

}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_SIMD_SOFTMAX_H_
