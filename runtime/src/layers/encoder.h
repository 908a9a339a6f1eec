// The source encoder (docs/MODEL.md "Encoder"): embedding, stacked (optionally bidirectional)
// LSTM/GRU layers, optional source reversal; exposes the top layer's states h̄ [S, E] and the
// final states f_h / f_c [E] for the bridge.
//
// Arena (Prepare): reversed ids [max_src], embeddings [max_src, src_embed], one or two layer
// outputs [max_src, E] (ping-pong between layers), input gates [max_src, G*enc_hidden],
// zero state [enc_hidden], f_h and f_c [E]; plus each cell's scratch for one row.
#ifndef EDGENMT_LAYERS_ENCODER_H_
#define EDGENMT_LAYERS_ENCODER_H_

#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "layers/weights.h"
#include "layers/recurrent_cell.h"
#include "layers/layer_limits.h"

namespace edgenmt {

class Encoder {
 public:
  Status Prepare(const Model& model, int32_t max_src_len, Arena* arena, ErrorDetail* detail);

  // Encodes src_ids[0, src_len) (ids validated by the caller, 1 <= src_len <= max_src_len).
  void Encode(const KernelTable& k, const int32_t* src_ids, int32_t src_len);

  int32_t output_size() const { return output_size_; }
  int32_t src_len() const { return src_len_; }
  // h̄: [src_len, E], row s is the state at (reversed, if configured) position s.
  const float* states() const { return states_; }
  const float* final_h() const { return final_h_; }  // [E]
  const float* final_c() const { return final_c_; }  // [E], LSTM only (zeros for GRU)

 private:
  void RunDirection(const KernelTable& k, const RecurrentCell& cell, const float* input,
                    float* output, int32_t column, bool backward, float* c_state);

  CellType cell_ = CellType::kLstm;
  int32_t layers_ = 0;
  bool bidirectional_ = false;
  bool reverse_source_ = false;
  int32_t embed_size_ = 0;
  int32_t hidden_size_ = 0;
  int32_t output_size_ = 0;
  int32_t src_len_ = 0;
  MatrixWeights embedding_;  // [V_s, src_embed]
  RecurrentCell forward_[kMaxRuntimeLayers];
  RecurrentCell backward_[kMaxRuntimeLayers];
  int32_t* ids_ = nullptr;         // [max_src]
  float* embedded_ = nullptr;      // [max_src, src_embed]
  float* layer_out_[2] = {nullptr, nullptr};  // [max_src, E]
  float* gates_ = nullptr;         // [max_src, G*H]
  float* zero_state_ = nullptr;    // [H]
  float* final_h_ = nullptr;       // [E]
  float* final_c_ = nullptr;       // [E]
  const float* states_ = nullptr;
};

}  // namespace edgenmt

#endif  // EDGENMT_LAYERS_ENCODER_H_
