// The int8-full Transformer's kernels in the SIMD backend (AVX2, which the AVX-512 level
// inherits, NEON and Helium; the DSP level's attention): bit-exact with their ref_<name>
// (kernels/kernels_s8.h) for all seven operations: the sums are exact integers, the rounding is the
// scalar one per lane, each score's requantization is fxp::MultiplyByQuantizedMultiplier itself,
// and tails use the reference's elements (kernels/transformer_s8_elements.h). A layer-norm row
// whose range exceeds int32 (far beyond any calibrated residual) runs the reference's steps.
#ifndef EDGENMT_KERNELS_SIMD_SIMD_TRANSFORMER_S8_H_
#define EDGENMT_KERNELS_SIMD_SIMD_TRANSFORMER_S8_H_

#include <stdint.h>

#include "kernels/transformer_kernel_linkage.h"

namespace edgenmt {
namespace simd {

#if defined(__x86_64__)
EDGENMT_TRANSFORMER_KERNEL
void GeluS32S8Avx2(int32_t n, const int32_t* x, int32_t shift, int8_t* y);
EDGENMT_TRANSFORMER_KERNEL
void EmbeddingLookupS8S32Avx2(int32_t count, const int32_t* ids, const int8_t* table,
                              const int32_t* row_multiplier, const int32_t* row_shift, int32_t dim,
                              int32_t scale_multiplier, int32_t scale_shift, int32_t* out,
                              int32_t out_stride);
EDGENMT_TRANSFORMER_KERNEL
void LayerNormS32Avx2(int32_t n, const int32_t* x, int32_t x_frac_bits, const int32_t* gain,
                      const int32_t* shift, int32_t* y);
EDGENMT_TRANSFORMER_KERNEL
void RequantizeS32S8Avx2(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y);
EDGENMT_TRANSFORMER_KERNEL
void ResidualAddS32S16Avx2(int32_t n, const int32_t* x, int32_t shift, int16_t* residual);
EDGENMT_TRANSFORMER_KERNEL
void AttentionScoresS8Avx2(int32_t n, const int8_t* query, const int8_t* const* rows,
                           int32_t offset, int32_t dim, int32_t multiplier, int32_t shift,
                           int32_t* scores);
EDGENMT_TRANSFORMER_KERNEL
void AttentionContextS8Avx2(int32_t n, const int16_t* weights, const int8_t* const* rows,
                            int32_t offset, int32_t dim, int8_t* out);
#endif
#if defined(__ARM_NEON)
EDGENMT_TRANSFORMER_KERNEL
void GeluS32S8Neon(int32_t n, const int32_t* x, int32_t shift, int8_t* y);
EDGENMT_TRANSFORMER_KERNEL
void EmbeddingLookupS8S32Neon(int32_t count, const int32_t* ids, const int8_t* table,
                              const int32_t* row_multiplier, const int32_t* row_shift, int32_t dim,
                              int32_t scale_multiplier, int32_t scale_shift, int32_t* out,
                              int32_t out_stride);
EDGENMT_TRANSFORMER_KERNEL
void LayerNormS32Neon(int32_t n, const int32_t* x, int32_t x_frac_bits, const int32_t* gain,
                      const int32_t* shift, int32_t* y);
EDGENMT_TRANSFORMER_KERNEL
void RequantizeS32S8Neon(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y);
EDGENMT_TRANSFORMER_KERNEL
void ResidualAddS32S16Neon(int32_t n, const int32_t* x, int32_t shift, int16_t* residual);
EDGENMT_TRANSFORMER_KERNEL
void AttentionScoresS8Neon(int32_t n, const int8_t* query, const int8_t* const* rows,
                           int32_t offset, int32_t dim, int32_t multiplier, int32_t shift,
                           int32_t* scores);
EDGENMT_TRANSFORMER_KERNEL
void AttentionContextS8Neon(int32_t n, const int16_t* weights, const int8_t* const* rows,
                            int32_t offset, int32_t dim, int8_t* out);
#endif
#if defined(__ARM_FEATURE_MVE)
EDGENMT_TRANSFORMER_KERNEL
void GeluS32S8Helium(int32_t n, const int32_t* x, int32_t shift, int8_t* y);
EDGENMT_TRANSFORMER_KERNEL
void EmbeddingLookupS8S32Helium(int32_t count, const int32_t* ids, const int8_t* table,
                                const int32_t* row_multiplier, const int32_t* row_shift,
                                int32_t dim, int32_t scale_multiplier, int32_t scale_shift,
                                int32_t* out, int32_t out_stride);
EDGENMT_TRANSFORMER_KERNEL
void LayerNormS32Helium(int32_t n, const int32_t* x, int32_t x_frac_bits, const int32_t* gain,
                        const int32_t* shift, int32_t* y);
EDGENMT_TRANSFORMER_KERNEL
void RequantizeS32S8Helium(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y);
EDGENMT_TRANSFORMER_KERNEL
void ResidualAddS32S16Helium(int32_t n, const int32_t* x, int32_t shift, int16_t* residual);
EDGENMT_TRANSFORMER_KERNEL
void AttentionScoresS8Helium(int32_t n, const int8_t* query, const int8_t* const* rows,
                             int32_t offset, int32_t dim, int32_t multiplier, int32_t shift,
                             int32_t* scores);
EDGENMT_TRANSFORMER_KERNEL
void AttentionContextS8Helium(int32_t n, const int16_t* weights, const int8_t* const* rows,
                              int32_t offset, int32_t dim, int8_t* out);
#endif
#if defined(__ARM_FEATURE_DSP) && !defined(__ARM_FEATURE_MVE) && !defined(__ARM_NEON) && \
    !defined(__aarch64__)
EDGENMT_TRANSFORMER_KERNEL
void AttentionScoresS8Dsp(int32_t n, const int8_t* query, const int8_t* const* rows, int32_t offset,
                          int32_t dim, int32_t multiplier, int32_t shift, int32_t* scores);
EDGENMT_TRANSFORMER_KERNEL
void AttentionContextS8Dsp(int32_t n, const int16_t* weights, const int8_t* const* rows,
                           int32_t offset, int32_t dim, int8_t* out);
#endif

}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_SIMD_TRANSFORMER_S8_H_
