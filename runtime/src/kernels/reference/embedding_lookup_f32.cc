// Reference embedding lookup: gathers table rows.
#include <string.h>

#include "kernels/reference/reference_kernels.h"

namespace edgenmt {

void ref_embedding_lookup_f32(int32_t count, const int32_t* ids, const float* table, int32_t dim,
                              float* out, int32_t out_stride) {
  for (int32_t i = 0; i < count; ++i) {
    memcpy(out + static_cast<int64_t>(i) * out_stride, table + static_cast<int64_t>(ids[i]) * dim,
           sizeof(float) * static_cast<size_t>(dim));
  }
}

}  // namespace edgenmt
