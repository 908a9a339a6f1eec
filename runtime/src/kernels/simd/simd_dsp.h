// The DSP-extension level of the SIMD backend (Armv7E-M / Armv8-M SIMD32: Cortex-M4, M7, M33):
// its dot-product cores and the products' requantization (contracts of simd_dot.h).
// Everything elementwise runs the portable kernels (the core has no vectors wider than
// 2 x 16 bits; the cell's activations read the 2 KiB table either way). Bit-exact:
// tests/kernels_simd_test.cc in the Cortex-M7 firmware.
#ifndef EDGENMT_KERNELS_SIMD_SIMD_DSP_H_
#define EDGENMT_KERNELS_SIMD_SIMD_DSP_H_

#include <stdint.h>

namespace edgenmt {
namespace simd {

#if defined(__ARM_FEATURE_DSP) && !defined(__ARM_FEATURE_MVE) && !defined(__ARM_NEON) && \
    !defined(__aarch64__)
void DotS8Dsp(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride, int32_t count,
              int32_t* acc);
void DotF32Dsp(int32_t depth, const float* x, const float* w, int32_t w_stride, int32_t count,
               float* acc);
void RequantizeColumnBlockDsp(int32_t n, const int32_t* dots, const int32_t* multiplier,
                              const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                              bool accumulate, int32_t* y);
void RequantizeEmbeddingBlockDsp(int32_t n, const int32_t* dots, int32_t id,
                                 const int32_t* row_multiplier, const int32_t* row_shift,
                                 const int32_t* multiplier, const int32_t* shift,
                                 const int32_t* bias, int32_t* y);
#endif

}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_SIMD_DSP_H_
