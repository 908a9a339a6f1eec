// The window scores of the SIMD backend on x86: AVX2 / AVX-512 dot products (attention_avx2.cc,
// attention_avx512.cc), the reference's scaling into Q11.20 (kernels/score_scale.h). Plain C++
// (no ISA flags): only the AVX2 and AVX-512 tables point here.
#include "kernels/simd/simd_attention.h"

#if defined(__x86_64__)
#include "kernels/score_scale.h"

namespace edgenmt {
namespace simd {

namespace {

// One window's scores from an exact int16 dot product of the instruction set's file.
template <int64_t (*Dot)(int32_t, const int16_t*, const int16_t*)>
void ScoreWindow(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo, int32_t hi,
                 int32_t to_q20, int32_t* scores) {
  for (int32_t s = lo; s <= hi; ++s) {
    scores[s] = ScaleScoreQ20(Dot(dim, query, memory + static_cast<int64_t>(s) * dim), to_q20);
  }
}

}  // namespace

void ScoreWindowS16Avx2(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo,
                        int32_t hi, int32_t to_q20, int32_t* scores) {
  ScoreWindow<DotS16S64Avx2>(query, memory, dim, lo, hi, to_q20, scores);
}

void ScoreWindowS16Avx512(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo,
                          int32_t hi, int32_t to_q20, int32_t* scores) {
  ScoreWindow<DotS16S64Avx512>(query, memory, dim, lo, hi, to_q20, scores);
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
