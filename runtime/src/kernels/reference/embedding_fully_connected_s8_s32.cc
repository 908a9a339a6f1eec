// Products with embedding rows that keep their own per-row scales (docs/INT8.md "int8-full":
// one shared scale would cost the small rows most of their 8 bits): acc = row . W[m] (int32),
// rescaled by the row's ratio s_row / s_shared with 6 extra bits (single rounding), then by the
// matrix multiplier built for s_shared.
#include "kernels/kernels_s8.h"
#include "kernels/product_outputs.h"

namespace edgenmt {

void ref_embedding_fully_connected_s8_s32(int32_t rows, const int32_t* ids, const int8_t* table,
                                          const int32_t* row_multiplier, const int32_t* row_shift,
                                          int32_t dim, int32_t out_features, const int8_t* w,
                                          int32_t w_stride, const int32_t* multiplier,
                                          const int32_t* shift, const int32_t* bias, int32_t* y) {
  for (int32_t r = 0; r < rows; ++r) {
    const int32_t id = ids[r];
    const int8_t* x = table + static_cast<int64_t>(id) * dim;
    int32_t* y_row = y + static_cast<int64_t>(r) * out_features;
    for (int32_t j = 0; j < out_features; ++j) {
      const int8_t* w_row = w + static_cast<int64_t>(j) * w_stride;
      int32_t acc = 0;
      for (int32_t k = 0; k < dim; ++k) acc += static_cast<int32_t>(x[k]) * w_row[k];
      y_row[j] = EmbeddingS32Output(acc, id, row_multiplier, row_shift, multiplier, shift, bias, j);
    }
  }
}

}  // namespace edgenmt
