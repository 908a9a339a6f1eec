// Reference integer layer norm (docs/INT8.md "int8-full Transformer"): mean, variance and the
// reciprocal square root in integers (edgenmt/internal/fixed_point_transformer.h), each step an
// element of kernels/transformer_s8_elements.h that the SIMD versions share.
#include "kernels/kernels_s8.h"
#include "kernels/transformer_s8_elements.h"

namespace edgenmt {

void ref_layer_norm_s32(int32_t n, const int32_t* x, int32_t x_frac_bits, const int32_t* gain,
                        const int32_t* shift, int32_t* y) {
  namespace e = transformer_s8;
  const e::LayerNormCentering centering =
      e::CenterLayerNorm(e::AddLayerNormStats(e::LayerNormStats{0, x[0], x[0]}, x, 0, n), n);
  const int64_t squares = e::AddLayerNormSquares(0, x, 0, n, centering);
  const fxp::InverseSqrt inv = e::LayerNormInverseSqrt(squares, n, x_frac_bits, centering.pre);
  e::LayerNormOutputs(x, 0, n, centering, inv, gain, shift, y);
}

}  // namespace edgenmt
