// Reference integer layer norm (docs/INT8.md "int8-full Transformer"): mean, variance and the
// reciprocal square root in integers (edgenmt/fixed_point_transformer.h), each step an element
// of kernels/transformer_s8_elements.h that the SIMD versions share.
#include "kernels/kernels_s8.h"
#include "kernels/transformer_s8_elements.h"

namespace edgenmt {

void ref_layer_norm_s32(int32_t n, const int32_t* x, int32_t x_frac_bits, const int32_t* gain,
                        const int32_t* shift, int32_t* y) {
  int64_t sum = 0;
  int32_t lowest = x[0], highest = x[0];
  for (int32_t i = 0; i < n; ++i) {
    sum += x[i];
    lowest = x[i] < lowest ? x[i] : lowest;
    highest = x[i] > highest ? x[i] : highest;
  }
  const transformer_s8::LayerNormCentering centering =
      transformer_s8::CenterLayerNorm(sum, lowest, highest, n);
  int64_t squares = 0;
  for (int32_t i = 0; i < n; ++i) {
    const int64_t c = transformer_s8::LayerNormCentered(x[i], centering);
    squares += c * c;
  }
  const fxp::InverseSqrt inv =
      transformer_s8::LayerNormInverseSqrt(squares, n, x_frac_bits, centering.pre);
  for (int32_t i = 0; i < n; ++i) {
    y[i] = transformer_s8::LayerNormOutput(transformer_s8::LayerNormCentered(x[i], centering),
                                           inv, gain[i], shift[i]);
  }
}

}  // namespace edgenmt
