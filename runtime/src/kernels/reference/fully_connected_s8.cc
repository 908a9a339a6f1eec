// Reference integer fully-connected column block: int8 inputs and weights with per-output-row
// scales, int32 accumulation, requantization by integer multiplier and shift into int32
// (docs/INT8.md).
#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/product_outputs.h"

namespace edgenmt {

void ref_fully_connected_s8_s32(int32_t rows, int32_t in_features, int32_t out_features,
                                const int8_t* x, int32_t x_stride, const int8_t* w,
                                int32_t w_stride, const int32_t* multiplier, const int32_t* shift,
                                int32_t shift_offset, const int32_t* bias, int32_t* y,
                                bool accumulate) {
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* x_row = x + static_cast<int64_t>(r) * x_stride;
    int32_t* y_row = y + static_cast<int64_t>(r) * out_features;
    for (int32_t m = 0; m < out_features; ++m) {
      const int8_t* w_row = w + static_cast<int64_t>(m) * w_stride;
      int32_t acc = 0;
      for (int32_t k = 0; k < in_features; ++k) {
        acc += static_cast<int32_t>(x_row[k]) * static_cast<int32_t>(w_row[k]);
      }
      StoreStridedS32Output(acc, multiplier, shift, shift_offset, bias, m, accumulate, &y_row[m]);
    }
  }
}

}  // namespace edgenmt
