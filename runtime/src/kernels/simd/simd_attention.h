// int8-full's attention products in the SIMD backend (x86 AVX2 and AVX-512, NEON): the window
// scores and the context vector over the Q0.15 encoder memory, bit-exact with
// ref_score_window_s16 and ref_context_s16_s8 (kernels/kernels_s8.h). Same file rules as
// simd_dot.h: the scores' scaling into Q11.20 stays in plain C++ (attention_s16.cc), the sums are
// in attention_avx2.cc / attention_avx512.cc; NEON, the ARM targets' baseline, has both in
// attention_neon.cc.
#ifndef EDGENMT_KERNELS_SIMD_SIMD_ATTENTION_H_
#define EDGENMT_KERNELS_SIMD_SIMD_ATTENTION_H_

#include <stdint.h>

namespace edgenmt {
namespace simd {

#if defined(__x86_64__)
void ScoreWindowS16Avx2(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo,
                        int32_t hi, int32_t to_q20, int32_t* scores);
void ContextS16S8Avx2(int32_t count, const int16_t* weights, const int16_t* memory, int32_t dim,
                      int8_t* context);
int64_t DotS16S64Avx2(int32_t n, const int16_t* a, const int16_t* b);
void ScoreWindowS16Avx512(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo,
                          int32_t hi, int32_t to_q20, int32_t* scores);
void ContextS16S8Avx512(int32_t count, const int16_t* weights, const int16_t* memory, int32_t dim,
                        int8_t* context);
// sum_{i < n} a[i] * b[i], exact.
int64_t DotS16S64Avx512(int32_t n, const int16_t* a, const int16_t* b);
#endif
#if defined(__ARM_NEON)
// The same contracts on NEON (attention_neon.cc; the scaling is kernels/score_scale.h there too).
void ScoreWindowS16Neon(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo,
                        int32_t hi, int32_t to_q20, int32_t* scores);
void ContextS16S8Neon(int32_t count, const int16_t* weights, const int16_t* memory, int32_t dim,
                      int8_t* context);
#endif

}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_SIMD_ATTENTION_H_
