// Decoder initial state (docs/MODEL.md "Decoder initial state"): per decoder layer l,
// h0_l = tanh(W_bh_l f_h + b_bh_l) and, for LSTM, c0_l = W_bc_l f_c + b_bc_l; zeros without
// a bridge. Writes one row (the single initial hypothesis).
#ifndef EDGENMT_LAYERS_BRIDGE_H_
#define EDGENMT_LAYERS_BRIDGE_H_

#include <stdint.h>

#include "edgenmt/model.h"
#include "error_detail.h"
#include "edgenmt/arena.h"
#include "kernels/kernel_table.h"
#include "layers/layer_limits.h"
#include "layers/weights.h"

namespace edgenmt {

class Bridge {
 public:
  Status Prepare(const Model& model, Arena* arena, ErrorDetail* detail);

  // h0[l], c0[l]: [H] outputs for each decoder layer (c0 ignored for GRU).
  void Apply(const KernelTable& k, const float* final_h, const float* final_c, float* const* h0,
             float* const* c0) const;

 private:
  struct LayerWeights {
    MatrixWeights h_weight;           // [H, E]
    const float* h_bias = nullptr;    // [H]
    MatrixWeights c_weight;           // [H, E] (LSTM)
    const float* c_bias = nullptr;
  };
  bool enabled_ = false;
  bool lstm_ = false;
  int32_t layers_ = 0;
  int32_t encoder_size_ = 0;
  int32_t hidden_size_ = 0;
  LayerWeights weights_[kMaxRuntimeLayers];
};

}  // namespace edgenmt

#endif  // EDGENMT_LAYERS_BRIDGE_H_
