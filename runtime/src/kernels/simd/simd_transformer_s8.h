// The int8-full Transformer's elementwise and attention kernels in the SIMD backend (AVX2,
// which the AVX-512 level inherits, NEON and Helium): bit-exact with ref_requantize_s32_s8,
// ref_residual_add_s32_s16, ref_attention_scores_s8 and ref_attention_context_s8
// (kernels/kernels_s8.h): the sums are exact integers, the rounding is the scalar one per lane,
// and each score's requantization is fxp::MultiplyByQuantizedMultiplier itself.
#ifndef EDGENMT_KERNELS_SIMD_SIMD_TRANSFORMER_S8_H_
#define EDGENMT_KERNELS_SIMD_SIMD_TRANSFORMER_S8_H_

#include <stdint.h>

namespace edgenmt {
namespace simd {

#if defined(__x86_64__)
void RequantizeS32S8Avx2(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y);
void ResidualAddS32S16Avx2(int32_t n, const int32_t* x, int32_t shift, int16_t* residual);
void AttentionScoresS8Avx2(int32_t n, const int8_t* query, const int8_t* const* rows,
                           int32_t offset, int32_t dim, int32_t multiplier, int32_t shift,
                           int32_t* scores);
void AttentionContextS8Avx2(int32_t n, const int16_t* weights, const int8_t* const* rows,
                            int32_t offset, int32_t dim, int8_t* out);
#endif
#if defined(__ARM_NEON)
void RequantizeS32S8Neon(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y);
void ResidualAddS32S16Neon(int32_t n, const int32_t* x, int32_t shift, int16_t* residual);
void AttentionScoresS8Neon(int32_t n, const int8_t* query, const int8_t* const* rows,
                           int32_t offset, int32_t dim, int32_t multiplier, int32_t shift,
                           int32_t* scores);
void AttentionContextS8Neon(int32_t n, const int16_t* weights, const int8_t* const* rows,
                            int32_t offset, int32_t dim, int8_t* out);
#endif
#if defined(__ARM_FEATURE_MVE)
void RequantizeS32S8Helium(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y);
void ResidualAddS32S16Helium(int32_t n, const int32_t* x, int32_t shift, int16_t* residual);
void AttentionScoresS8Helium(int32_t n, const int8_t* query, const int8_t* const* rows,
                             int32_t offset, int32_t dim, int32_t multiplier, int32_t shift,
                             int32_t* scores);
void AttentionContextS8Helium(int32_t n, const int16_t* weights, const int8_t* const* rows,
                              int32_t offset, int32_t dim, int8_t* out);
#endif

}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_SIMD_TRANSFORMER_S8_H_
