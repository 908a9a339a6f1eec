// Reference int8 embedding lookup of the int8-full Transformer: per-row scales (docs/INT8.md
// "Embeddings") rescaled into Q11.20.
#include "kernels/kernels_s8.h"
#include "kernels/transformer_s8_elements.h"

namespace edgenmt {

void ref_embedding_lookup_s8_s32(int32_t count, const int32_t* ids, const int8_t* table,
                                 const int32_t* row_multiplier, const int32_t* row_shift,
                                 int32_t dim, int32_t scale_multiplier, int32_t scale_shift,
                                 int32_t* out, int32_t out_stride) {
  transformer_s8::EmbeddingLookupRows(count, ids, table, row_multiplier, row_shift, dim,
                                      scale_multiplier, scale_shift, out, out_stride,
                                      [](const int8_t*, int32_t*, int32_t, int32_t) { return 0; });
}

}  // namespace edgenmt
