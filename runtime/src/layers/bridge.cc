#include "layers/bridge.h"

#include <string.h>

#include "layers/weights.h"

namespace edgenmt {

Status Bridge::Prepare(const Model& model, Arena* arena, ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  enabled_ = c.bridge;
  lstm_ = c.cell == CellType::kLstm;
  layers_ = c.dec_layers;
  encoder_size_ = c.encoder_output_size();
  hidden_size_ = c.dec_hidden;
  if (layers_ < 1 || layers_ > kMaxRuntimeLayers) {
    return detail->Fail(Status::kUnsupported, "dec_layers ", layers_, " out of range (this build supports up to ", kMaxRuntimeLayers, ")");
  }
  if (!enabled_) return Status::kOk;
  for (int32_t l = 0; l < layers_; ++l) {
    LayerWeights& w = weights_[l];
    EDGENMT_RETURN_IF_ERROR(BindMatrix(model, NameBuilder("bridge.", l, ".h.weight").c_str(),
                                       hidden_size_, encoder_size_, arena, &w.h_weight, detail));
    EDGENMT_RETURN_IF_ERROR(BindVectorF32(model, NameBuilder("bridge.", l, ".h.bias").c_str(),
                                          hidden_size_, &w.h_bias, detail));
    if (lstm_) {
      EDGENMT_RETURN_IF_ERROR(BindMatrix(model, NameBuilder("bridge.", l, ".c.weight").c_str(),
                                         hidden_size_, encoder_size_, arena, &w.c_weight, detail));
      EDGENMT_RETURN_IF_ERROR(BindVectorF32(model, NameBuilder("bridge.", l, ".c.bias").c_str(),
                                            hidden_size_, &w.c_bias, detail));
    }
  }
  return Status::kOk;
}

void Bridge::Apply(const KernelTable& k, const float* final_h, const float* final_c,
                   float* const* h0, float* const* c0) const {
  const size_t bytes = sizeof(float) * static_cast<size_t>(hidden_size_);
  for (int32_t l = 0; l < layers_; ++l) {
    if (!enabled_) {
      memset(h0[l], 0, bytes);
      if (lstm_) memset(c0[l], 0, bytes);
      continue;
    }
    const LayerWeights& w = weights_[l];
    ApplyLinear(k, 1, final_h, w.h_weight, w.h_bias, h0[l], false);
    k.tanh_f32(hidden_size_, h0[l], h0[l]);
    if (lstm_) {
      ApplyLinear(k, 1, final_c, w.c_weight, w.c_bias, c0[l], false);
    }
  }
}

}  // namespace edgenmt
