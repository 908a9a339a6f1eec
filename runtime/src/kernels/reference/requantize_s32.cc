// Reference narrowing of Q11.20 accumulations (docs/INT8.md "int8-full Transformer"): to int8
// sublayer inputs (with the feed-forward activation) and into the int16 residual stream.
#include "edgenmt/fixed_point_transformer.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {

void ref_requantize_s32_s8(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y) {
  for (int32_t i = 0; i < n; ++i) {
    const int32_t v = relu && x[i] < 0 ? 0 : x[i];
    y[i] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(v, shift));
  }
}

void ref_gelu_s32_s8(int32_t n, const int32_t* x, int32_t shift, int8_t* y) {
  for (int32_t i = 0; i < n; ++i) {
    y[i] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(fxp::GeluQ20(x[i]), shift));
  }
}

void ref_residual_add_s32_s16(int32_t n, const int32_t* x, int32_t shift, int16_t* residual) {
  for (int32_t i = 0; i < n; ++i) {
    const int64_t sum = static_cast<int64_t>(residual[i]) + fxp::RoundingDivideByPOT(x[i], shift);
    residual[i] = fxp::SaturateToInt16(fxp::SaturateToInt32(sum));
  }
}

}  // namespace edgenmt
