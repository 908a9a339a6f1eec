// Decoder initial state (docs/MODEL.md "Decoder initial state"), written once for both numeric
// schemes: per decoder layer l, h0_l = tanh(W_bh_l f_h + b_bh_l) and, for LSTM,
// c0_l = W_bc_l f_c + b_bc_l; zeros without a bridge. Writes one row (the initial hypothesis).
#ifndef EDGENMT_RNN_BRIDGE_H_
#define EDGENMT_RNN_BRIDGE_H_

#include <stdint.h>

#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "rnn/layer_limits.h"
#include "rnn/recurrent_cell.h"

namespace edgenmt {

template <class N>
class Bridge {
 public:
  Status Prepare(const N* numerics, const Model& model, Arena* arena, ErrorDetail* detail);

  // What the bridge reads from the encoder (Encoder::bridge_source()).
  struct Source {
    const typename N::Hidden* final_h = nullptr;            // f_h [E]
    const typename N::State* final_c = nullptr;             // f_c [E] (LSTM)
    const typename N::CellWeights* top_forward = nullptr;   // their cells: the integer
    const typename N::CellWeights* top_backward = nullptr;  // scheme's state formats
    int32_t half = 0;                                       // enc_hidden
  };
  // h0[l] / s0[l]: [H] row 0 of decoder layer l's state (s0[l] null where the cell keeps no
  // State). cells: the decoder's cells (the integer scheme's LSTM state formats).
  void Apply(const Source& source, const RecurrentCell<N>* cells, typename N::Hidden* const* h0,
             typename N::State* const* s0) const;

 private:
  struct LayerWeights {
    typename N::Matrix h_weight, c_weight;
    const typename N::BiasT* h_bias = nullptr;
    const typename N::BiasT* c_bias = nullptr;
  };
  const N* n_ = nullptr;
  bool enabled_ = false;
  bool lstm_ = false;
  int32_t layers_ = 0;
  int32_t hidden_size_ = 0;
  LayerWeights weights_[kMaxRuntimeLayers];
  typename N::Acc* acc_ = nullptr;  // [H]
};

}  // namespace edgenmt

#endif  // EDGENMT_RNN_BRIDGE_H_
