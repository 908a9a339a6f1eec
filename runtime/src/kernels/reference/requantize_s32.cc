// Reference narrowing of Q11.20 accumulations (docs/INT8.md "int8-full Transformer"): to int8
// sublayer inputs (with the feed-forward activation) and into the int16 residual stream.
#include "kernels/kernels_s8.h"
#include "kernels/transformer_s8_elements.h"

namespace edgenmt {

void ref_requantize_s32_s8(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y) {
  for (int32_t i = 0; i < n; ++i) y[i] = transformer_s8::Requantize(x[i], shift, relu);
}

void ref_gelu_s32_s8(int32_t n, const int32_t* x, int32_t shift, int8_t* y) {
  for (int32_t i = 0; i < n; ++i) y[i] = transformer_s8::Gelu(x[i], shift);
}

void ref_residual_add_s32_s16(int32_t n, const int32_t* x, int32_t shift, int16_t* residual) {
  for (int32_t i = 0; i < n; ++i)
    residual[i] = transformer_s8::ResidualAdd(residual[i], x[i], shift);
}

}  // namespace edgenmt
