// What happens to one int32 (or float) dot product after the multiply-accumulate loop, for the
// product kernels of every scheme. The reference kernels and the SIMD drivers (kernels/simd/)
// both call these, so their outputs round identically: only the dot products differ in how
// they are computed, and integer dot products are exact either way.
#ifndef EDGENMT_KERNELS_PRODUCT_OUTPUTS_H_
#define EDGENMT_KERNELS_PRODUCT_OUTPUTS_H_

#include <stdint.h>

#include "edgenmt/internal/fixed_point.h"

namespace edgenmt {

// float32: y = (accumulate ? y : 0) + dot + (bias ? bias[m] : 0).
inline void StoreF32Output(float dot, const float* bias, int32_t m, bool accumulate, float* y) {
  float value = dot;
  if (bias != nullptr) value += bias[m];
  *y = accumulate ? *y + value : value;
}

// Hybrid int8: the int32 dot of a row quantized with scale x_scale and weight row m.
inline void StoreHybridOutput(int32_t acc, float x_scale, const float* w_scales, const float* bias,
                              int32_t m, bool accumulate, float* y) {
  float value = static_cast<float>(acc) * (x_scale * w_scales[m]);
  if (bias != nullptr) value += bias[m];
  *y = accumulate ? *y + value : value;
}

// int8-full column block (ref_fully_connected_s8_s32).
inline void StoreStridedS32Output(int32_t acc, const int32_t* multiplier, const int32_t* shift,
                                  int32_t shift_offset, const int32_t* bias, int32_t m,
                                  bool accumulate, int32_t* y) {
  int32_t sh = shift[m] + shift_offset;
  sh = sh < -31 ? -31 : (sh > 30 ? 30 : sh);
  int32_t v = fxp::MultiplyByQuantizedMultiplier(acc, multiplier[m], sh);
  if (bias != nullptr) v = fxp::SaturatingAdd(v, bias[m]);
  *y = accumulate ? fxp::SaturatingAdd(*y, v) : v;
}

// int8-full embedding row `id` (own scale) times weight row m
// (ref_embedding_fully_connected_s8_s32).
inline int32_t EmbeddingS32Output(int32_t acc, int32_t id, const int32_t* row_multiplier,
                                  const int32_t* row_shift, const int32_t* multiplier,
                                  const int32_t* shift, const int32_t* bias, int32_t m) {
  constexpr int32_t kExtraBits = 6;
  const int32_t scaled = fxp::MultiplyByQuantizedMultiplierSingleRounding(
      acc, row_multiplier[id], row_shift[id] + kExtraBits);
  int32_t sh = shift[m] - kExtraBits;
  sh = sh < -31 ? -31 : sh;
  int32_t v = fxp::MultiplyByQuantizedMultiplier(scaled, multiplier[m], sh);
  if (bias != nullptr) v = fxp::SaturatingAdd(v, bias[m]);
  return v;
}

}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_PRODUCT_OUTPUTS_H_
