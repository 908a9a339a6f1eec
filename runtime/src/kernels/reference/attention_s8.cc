// Reference int8 attention of one head (docs/INT8.md "int8-full Transformer"): scores of a
// query against cached key rows, and the weighted sum of cached value rows.
#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/transformer_s8_elements.h"

namespace edgenmt {

void ref_attention_scores_s8(int32_t n, const int8_t* query, const int8_t* const* rows,
                             int32_t offset, int32_t dim, int32_t multiplier, int32_t shift,
                             int32_t* scores) {
  for (int32_t j = 0; j < n; ++j) {
    const int8_t* key = rows[j] + offset;
    int32_t dot = 0;
    for (int32_t i = 0; i < dim; ++i) dot += static_cast<int32_t>(query[i]) * key[i];
    scores[j] = fxp::MultiplyByQuantizedMultiplier(dot, multiplier, shift);
  }
}

void ref_attention_context_s8(int32_t n, const int16_t* weights, const int8_t* const* rows,
                              int32_t offset, int32_t dim, int8_t* out) {
  for (int32_t i = 0; i < dim; ++i)
    out[i] = transformer_s8::ContextColumn(n, weights, rows, offset + i);
}

}  // namespace edgenmt
