// Reference int8 embedding lookup with per-row scales (docs/INT8.md "Embeddings"), dequantized
// to float (hybrid); the int8-full Transformer's is embedding_lookup_s8_s32.cc.
#include "kernels/kernels_s8.h"

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

}  // namespace edgenmt
