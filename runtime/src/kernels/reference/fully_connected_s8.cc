// Reference integer fully-connected layer: int8 inputs (optional zero point), int8 weights
// with per-output-row scales, int32 bias and accumulation, requantization by integer
// multiplier and shift to int8, int16 or int32 (docs/INT8.md).
#include "edgenmt/fixed_point.h"
#include "kernels/kernels_s8.h"
#include "kernels/product_outputs.h"

namespace edgenmt {
namespace {

// The requantized, offset (unclamped) value of output (r, m).
inline int32_t RequantizedDot(int32_t in_features, const int8_t* x_row, const int8_t* w_row,
                              const int32_t* bias, int32_t m, const RequantParams& p) {
  int32_t acc = bias != nullptr ? bias[m] : 0;
  for (int32_t k = 0; k < in_features; ++k) {
    acc += (static_cast<int32_t>(x_row[k]) + p.input_offset) * static_cast<int32_t>(w_row[k]);
  }
  const int32_t channel = p.per_channel ? m : 0;
  return fxp::MultiplyByQuantizedMultiplier(acc, p.multiplier[channel], p.shift[channel]);
}

template <typename Out>
void FullyConnected(int32_t rows, int32_t in_features, int32_t out_features, const int8_t* x,
                    const int8_t* w, const int32_t* bias, const RequantParams& p, Out* y) {
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* x_row = x + static_cast<int64_t>(r) * in_features;
    Out* y_row = y + static_cast<int64_t>(r) * out_features;
    for (int32_t m = 0; m < out_features; ++m) {
      int32_t v = fxp::SaturatingAdd(
          RequantizedDot(in_features, x_row, w + static_cast<int64_t>(m) * in_features, bias, m, p),
          p.output_offset);
      v = v < p.activation_min ? p.activation_min : (v > p.activation_max ? p.activation_max : v);
      y_row[m] = static_cast<Out>(v);
    }
  }
}

}  // namespace

void ref_fully_connected_s8(int32_t rows, int32_t in_features, int32_t out_features,
                            const int8_t* x, const int8_t* w, const int32_t* bias,
                            const RequantParams& params, int8_t* y) {
  FullyConnected<int8_t>(rows, in_features, out_features, x, w, bias, params, y);
}

void ref_fully_connected_s8_s16(int32_t rows, int32_t in_features, int32_t out_features,
                                const int8_t* x, const int8_t* w, const int32_t* bias,
                                const RequantParams& params, int16_t* y) {
  FullyConnected<int16_t>(rows, in_features, out_features, x, w, bias, params, y);
}

void ref_fully_connected_s8_s32(int32_t rows, int32_t in_features, int32_t out_features,
                                const int8_t* x, const int8_t* w, const int32_t* bias,
                                const RequantParams& params, int32_t* y, bool accumulate) {
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* x_row = x + static_cast<int64_t>(r) * in_features;
    int32_t* y_row = y + static_cast<int64_t>(r) * out_features;
    for (int32_t m = 0; m < out_features; ++m) {
      const int32_t v = fxp::SaturatingAdd(
          RequantizedDot(in_features, x_row, w + static_cast<int64_t>(m) * in_features, bias, m,
                         params),
          params.output_offset);
      y_row[m] = accumulate ? fxp::SaturatingAdd(y_row[m], v) : v;
    }
  }
}

void ref_fully_connected_s8_s32_strided(int32_t rows, int32_t in_features, int32_t out_features,
                                        const int8_t* x, int32_t x_stride, const int8_t* w,
                                        int32_t w_stride, const int32_t* multiplier,
                                        const int32_t* shift, int32_t shift_offset,
                                        const int32_t* bias, int32_t* y, bool accumulate) {
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
