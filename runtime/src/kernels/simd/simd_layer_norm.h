// Vectorised float32 operations of the Transformer (KernelTable::layer_norm_f32, relu_f32).
// layer_norm: the reference's two passes (mean, then the centred variance) with lane-parallel
// sums, so results differ from the reference only by summation order: within 1e-5 relative of
// the row's scale (tests/kernels_simd_test.cc). relu: bit-identical (NaN and -0 give +0, as the
// reference's x > 0 ? x : 0). In place allowed. gelu_f32 stays the reference (erf).
#ifndef EDGENMT_KERNELS_SIMD_SIMD_LAYER_NORM_H_
#define EDGENMT_KERNELS_SIMD_SIMD_LAYER_NORM_H_

#include <stdint.h>

#include "kernels/transformer_kernel_linkage.h"

namespace edgenmt {
namespace simd {

#if defined(__x86_64__)
EDGENMT_TRANSFORMER_KERNEL
void LayerNormF32Avx2(int32_t n, const float* x, const float* gain, const float* shift, float eps,
                      float* y);
EDGENMT_TRANSFORMER_KERNEL
void ReluF32Avx2(int32_t n, const float* x, float* y);
#endif
#if defined(__ARM_NEON)
EDGENMT_TRANSFORMER_KERNEL
void LayerNormF32Neon(int32_t n, const float* x, const float* gain, const float* shift, float eps,
                      float* y);
EDGENMT_TRANSFORMER_KERNEL
void ReluF32Neon(int32_t n, const float* x, float* y);
#endif

}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_SIMD_LAYER_NORM_H_
