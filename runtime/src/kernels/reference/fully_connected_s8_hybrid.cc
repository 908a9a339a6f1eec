// Reference hybrid fully-connected layer: float activations quantized per row on the fly,
// int8 weights with per-output-row scales, int32 accumulation, float output (docs/INT8.md).
#include "kernels/kernels_s8.h"
#include "kernels/product_outputs.h"

namespace edgenmt {

void ref_fully_connected_s8_hybrid(int32_t rows, int32_t in_features, int32_t out_features,
                                   const float* x, const int8_t* w, const float* w_scales,
                                   const float* bias, float* y, bool accumulate, int8_t* x_scratch,
                                   int32_t x_scratch_rows) {
  (void)x_scratch_rows;  // one row at a time
  for (int32_t r = 0; r < rows; ++r) {
    const float x_scale =
        ref_quantize_row_f32_s8(in_features, x + static_cast<int64_t>(r) * in_features, x_scratch);
    float* y_row = y + static_cast<int64_t>(r) * out_features;
    for (int32_t m = 0; m < out_features; ++m) {
      const int8_t* w_row = w + static_cast<int64_t>(m) * in_features;
      // |acc| <= 127 * 128 * in_features: exact for in_features <= fxp::kMaxS8DotLength, which
      // Model::Load enforces on every int8 matrix.
      int32_t acc = 0;
      for (int32_t k = 0; k < in_features; ++k) {
        acc += static_cast<int32_t>(x_scratch[k]) * static_cast<int32_t>(w_row[k]);
      }
      StoreHybridOutput(acc, x_scale, w_scales, bias, m, accumulate, &y_row[m]);
    }
  }
}

}  // namespace edgenmt
