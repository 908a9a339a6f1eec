// Reference fully-connected layer, y = x W^T + b (see KernelTable::fully_connected_f32).
#include "kernels/product_outputs.h"
#include "kernels/reference/reference_kernels.h"

namespace edgenmt {

void ref_fully_connected_f32(int32_t rows, int32_t in_features, int32_t out_features,
                             const float* x, const float* w, const float* bias, float* y,
                             bool accumulate) {
  for (int32_t r = 0; r < rows; ++r) {
    const float* x_row = x + static_cast<int64_t>(r) * in_features;
    float* y_row = y + static_cast<int64_t>(r) * out_features;
    for (int32_t m = 0; m < out_features; ++m) {
      const float* w_row = w + static_cast<int64_t>(m) * in_features;
      // Four partial sums break the dependency chain without changing the contract; results
      // differ from a single running sum only by float rounding.
      float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
      int32_t k = 0;
      for (; k + 4 <= in_features; k += 4) {
        acc0 += x_row[k] * w_row[k];
        acc1 += x_row[k + 1] * w_row[k + 1];
        acc2 += x_row[k + 2] * w_row[k + 2];
        acc3 += x_row[k + 3] * w_row[k + 3];
      }
      for (; k < in_features; ++k) acc0 += x_row[k] * w_row[k];
      StoreF32Output((acc0 + acc1) + (acc2 + acc3), bias, m, accumulate, &y_row[m]);
    }
  }
}

}  // namespace edgenmt
