// Vectorised float32 activations of the SIMD backend (KernelTable::sigmoid_f32 / tanh_f32).
// Both evaluate e^-|x| with a degree-6 polynomial after range reduction by ln 2 (the Cephes
// expf scheme) and rebuild the function from it without overflow: sigmoid = 1 / (1 + e) or
// e / (1 + e) by sign, tanh = sign(x) (1 - e2) / (1 + e2) with e2 = e^-2|x|. NaN propagates;
// +-inf give the limits. Absolute error against the reference (libm): <= 1e-6
// (tests/kernels_simd_test.cc), in place allowed, like the reference. Same file rules as
// simd_dot.h.
#ifndef EDGENMT_KERNELS_SIMD_SIMD_ACTIVATION_H_
#define EDGENMT_KERNELS_SIMD_SIMD_ACTIVATION_H_

#include <stdint.h>

namespace edgenmt {
namespace simd {

#if defined(__x86_64__)
void SigmoidF32Avx2(int32_t n, const float* x, float* y);
void TanhF32Avx2(int32_t n, const float* x, float* y);
// The same on 16 lanes (activation_avx512.cc), bit-identical to the AVX2 kernels.
void SigmoidF32Avx512(int32_t n, const float* x, float* y);
void TanhF32Avx512(int32_t n, const float* x, float* y);
#endif
#if defined(__ARM_NEON)
void SigmoidF32Neon(int32_t n, const float* x, float* y);
void TanhF32Neon(int32_t n, const float* x, float* y);
#endif

}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_SIMD_ACTIVATION_H_
