// Reference float <-> int8 conversions of the hybrid scheme and power-of-two narrowing of the
// integer scheme (docs/INT8.md).
#include "edgenmt/internal/fixed_point.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {
namespace {

// round(v) with ties away from zero, saturated to [-127, 127] / [-128, 127].
inline int32_t RoundHalfAway(float v) {
  return static_cast<int32_t>(v >= 0.0f ? v + 0.5f : v - 0.5f);
}

}  // namespace

float ref_quantize_row_f32_s8(int32_t n, const float* x, int8_t* q) {
  // NaN compares false everywhere, so it never becomes max_abs; an infinite value does, and
  // then every finite value maps to 0 and the infinities to +-127. Values are clamped in float
  // before the conversion to int, so non-finite activations (weights near FLT_MAX can overflow
  // a product) give NaN or infinite outputs downstream but never undefined behaviour here.
  float max_abs = 0.0f;
  for (int32_t i = 0; i < n; ++i) {
    const float a = x[i] >= 0.0f ? x[i] : -x[i];
    max_abs = a > max_abs ? a : max_abs;
  }
  if (max_abs == 0.0f) {
    for (int32_t i = 0; i < n; ++i) q[i] = 0;
    return 0.0f;
  }
  const bool infinite = max_abs > 3.40282347e38f;
  const float inverse_scale = infinite ? 0.0f : 127.0f / max_abs;
  for (int32_t i = 0; i < n; ++i) {
    float v = infinite
                  ? (x[i] > 3.40282347e38f ? 127.0f : (x[i] < -3.40282347e38f ? -127.0f : 0.0f))
                  : x[i] * inverse_scale;
    v = v > 127.0f ? 127.0f : (v < -127.0f ? -127.0f : v);      // float rounding at the extremes
    q[i] = v == v ? static_cast<int8_t>(RoundHalfAway(v)) : 0;  // NaN -> 0
  }
  return max_abs / 127.0f;
}

void ref_requantize_s16_s8(int32_t n, const int16_t* x, int32_t shift, int8_t* y) {
  for (int32_t i = 0; i < n; ++i) y[i] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(x[i], shift));
}

void ref_narrow_s32_s16(int32_t n, const int32_t* x, int32_t shift, int16_t* y) {
  for (int32_t i = 0; i < n; ++i)
    y[i] = fxp::SaturateToInt16(fxp::RoundingDivideByPOT(x[i], shift));
}

}  // namespace edgenmt
