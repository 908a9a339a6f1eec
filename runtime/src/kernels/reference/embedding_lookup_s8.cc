// Reference int8 embedding lookups: per-row scales (docs/INT8.md "Embeddings"), dequantized
// to float (hybrid) or rescaled into Q11.20 (int8-full Transformer).
#include "edgenmt/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/transformer_s8_elements.h"

namespace edgenmt {

void ref_embedding_lookup_s8_f32(int32_t count, const int32_t* ids, const int8_t* table,
                                 const float* row_scales, int32_t dim, float* out,
                                 int32_t out_stride) {
  for (int32_t i = 0; i < count; ++i) {
    const int8_t* row = table + static_cast<int64_t>(ids[i]) * dim;
    const float scale = row_scales[ids[i]];
    float* dst = out + static_cast<int64_t>(i) * out_stride;
    for (int32_t d = 0; d < dim; ++d) dst[d] = scale * static_cast<float>(row[d]);
  }
}

void ref_embedding_lookup_s8_s32(int32_t count, const int32_t* ids, const int8_t* table,
                                 const int32_t* row_multiplier, const int32_t* row_shift,
                                 int32_t dim, int32_t scale_multiplier, int32_t scale_shift,
                                 int32_t* out, int32_t out_stride) {
  transformer_s8::EmbeddingLookupRows(count, ids, table, row_multiplier, row_shift, dim,
                                      scale_multiplier, scale_shift, out, out_stride,
                                      [](const int8_t*, int32_t*, int32_t, int32_t) { return 0; });
}

}  // namespace edgenmt
