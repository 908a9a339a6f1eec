#include "rnn/bridge.h"

#include <string.h>

#include <type_traits>

#include "rnn/float_rnn_numerics.h"
#include "rnn/integer_rnn_numerics.h"

namespace edgenmt {

template <class N>
Status Bridge<N>::Prepare(const N* numerics, const Model& model, Arena* arena,
                          ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  n_ = numerics;
  enabled_ = c.rnn.bridge;
  lstm_ = c.rnn.cell == CellType::kLstm;
  layers_ = c.dec_layers;
  hidden_size_ = c.rnn.dec_hidden;
  const int32_t E = c.encoder_output_size();
  if (layers_ < 1 || layers_ > kMaxRuntimeLayers) {
    return detail->Fail(Status::kUnsupported, "dec_layers ", layers_,
                        " out of range (this build supports up to ", kMaxRuntimeLayers, ")");
  }
  if (!enabled_) return Status::kOk;
  for (int32_t l = 0; l < layers_; ++l) {
    LayerWeights& w = weights_[l];
    EDGENMT_RETURN_IF_ERROR(n_->BindMatrix(model, NameBuilder("bridge.", l, ".h.weight").c_str(),
                                           hidden_size_, E, arena, &w.h_weight, detail));
    EDGENMT_RETURN_IF_ERROR(n_->BindBias(model, NameBuilder("bridge.", l, ".h.bias").c_str(),
                                         hidden_size_, &w.h_bias, detail));
    if (lstm_) {
      EDGENMT_RETURN_IF_ERROR(n_->BindMatrix(model, NameBuilder("bridge.", l, ".c.weight").c_str(),
                                             hidden_size_, E, arena, &w.c_weight, detail));
      EDGENMT_RETURN_IF_ERROR(n_->BindBias(model, NameBuilder("bridge.", l, ".c.bias").c_str(),
                                           hidden_size_, &w.c_bias, detail));
    }
  }
  // The float scheme computes straight into h0 / c0 (Acc is their type).
  acc_ = std::is_same<typename N::Acc, float>::value
             ? nullptr
             : arena->AllocateScratchArray<typename N::Acc>(static_cast<size_t>(hidden_size_));
  return Status::kOk;
}

template <class N>
void Bridge<N>::Apply(const Source& source, const RecurrentCell<N>* cells,
                      typename N::Hidden* const* h0, typename N::State* const* s0) const {
  const int32_t H = hidden_size_;
  for (int32_t l = 0; l < layers_; ++l) {
    if (!enabled_) {
      memset(h0[l], 0, sizeof(typename N::Hidden) * static_cast<size_t>(H));
      if (s0[l] != nullptr) memset(s0[l], 0, sizeof(typename N::State) * static_cast<size_t>(H));
      continue;
    }
    const LayerWeights& w = weights_[l];
    using Acc = typename N::Acc;
    Acc* h_acc = acc_ != nullptr ? acc_ : reinterpret_cast<Acc*>(h0[l]);
    n_->Linear(w.h_weight, 1, source.final_h, w.h_bias, h_acc, false);
    n_->BridgeHidden(H, h_acc, h0[l], lstm_ ? nullptr : s0[l]);
    if (lstm_) {
      Acc* c_acc = acc_ != nullptr ? acc_ : reinterpret_cast<Acc*>(s0[l]);
      n_->BridgeCellLinear(w.c_weight, *source.top_forward, source.top_backward, source.half,
                           source.final_c, w.c_bias, c_acc);
      n_->BridgeCellState(cells[l].weights(), H, c_acc, s0[l]);
    }
  }
}

#if defined(EDGENMT_WITH_FLOAT_SCHEMES)  // CMake EDGENMT_FLOAT_SCHEMES
template class Bridge<FloatRnnNumerics>;
#endif
template class Bridge<IntegerRnnNumerics>;

}  // namespace edgenmt
