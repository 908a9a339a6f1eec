// Reference int8-full attention products over the Q0.15 encoder memory (docs/INT8.md
// "Attention"): the score of each window position and the context vector, both with exact
// 64-bit sums.
#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/score_scale.h"

namespace edgenmt {

void ref_score_window_s16(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo,
                          int32_t hi, int32_t to_q20, int32_t* scores) {
  for (int32_t s = lo; s <= hi; ++s) {
    const int16_t* h = memory + static_cast<int64_t>(s) * dim;
    int64_t acc = 0;
    for (int32_t j = 0; j < dim; ++j) acc += static_cast<int32_t>(query[j]) * h[j];
    scores[s] = ScaleScoreQ20(acc, to_q20);
  }
}

void ref_context_s16_s8(int32_t count, const int16_t* weights, const int16_t* memory, int32_t dim,
                        int8_t* context) {
  for (int32_t j = 0; j < dim; ++j) {
    int64_t acc = 0;
    for (int32_t s = 0; s < count; ++s) {
      acc += static_cast<int32_t>(weights[s]) * memory[static_cast<int64_t>(s) * dim + j];
    }
    context[j] = fxp::SaturateToInt8(static_cast<int32_t>(fxp::RoundingDivideByPOT64(acc, 23)));
  }
}

}  // namespace edgenmt
