#include "layers/encoder.h"

#include <string.h>

#include "layers/weights.h"

namespace edgenmt {

Status Encoder::Prepare(const Model& model, int32_t max_src_len, Arena* arena,
                        ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  cell_ = c.cell;
  layers_ = c.enc_layers;
  bidirectional_ = c.bidirectional;
  reverse_source_ = c.reverse_source;
  embed_size_ = c.src_embed;
  hidden_size_ = c.enc_hidden;
  output_size_ = c.encoder_output_size();
  if (layers_ < 1 || layers_ > kMaxRuntimeLayers) {
    return detail->Fail(Status::kUnsupported, "enc_layers ", layers_, " out of range (this build supports up to ", kMaxRuntimeLayers, ")");
  }
  EDGENMT_RETURN_IF_ERROR(BindMatrix(model, "src_embed.weight", c.src_vocab_size, c.src_embed,
                                     arena, &embedding_, detail));
  for (int32_t l = 0; l < layers_; ++l) {
    const int32_t input_size = l == 0 ? embed_size_ : output_size_;
    EDGENMT_RETURN_IF_ERROR(forward_[l].Prepare(model, cell_, "encoder.rnn.",
                                                NameBuilder("_l", l).c_str(), input_size,
                                                hidden_size_, 1, false, arena, detail));
    if (bidirectional_) {
      EDGENMT_RETURN_IF_ERROR(backward_[l].Prepare(model, cell_, "encoder.rnn.",
                                                   NameBuilder("_l", l, "_reverse").c_str(),
                                                   input_size, hidden_size_, 1, false, arena, detail));
    }
  }
  const size_t rows = static_cast<size_t>(max_src_len);
  const int32_t gate_size = (cell_ == CellType::kLstm ? 4 : 3) * hidden_size_;
  ids_ = arena->AllocateArray<int32_t>(rows);
  embedded_ = arena->AllocateArray<float>(rows, static_cast<size_t>(embed_size_));
  layer_out_[0] = arena->AllocateArray<float>(rows, static_cast<size_t>(output_size_));
  layer_out_[1] = layers_ > 1
                      ? arena->AllocateArray<float>(rows, static_cast<size_t>(output_size_))
                      : nullptr;
  gates_ = arena->AllocateArray<float>(rows, static_cast<size_t>(gate_size));
  zero_state_ = arena->AllocateArray<float>(static_cast<size_t>(hidden_size_));
  final_h_ = arena->AllocateArray<float>(static_cast<size_t>(output_size_));
  final_c_ = arena->AllocateArray<float>(static_cast<size_t>(output_size_));
  if (arena->writable()) {
    memset(zero_state_, 0, sizeof(float) * static_cast<size_t>(hidden_size_));
    memset(final_c_, 0, sizeof(float) * static_cast<size_t>(output_size_));
  }
  return Status::kOk;
}

// Runs one direction of one layer over src_len_ steps from a zero state, writing h_s into
// output[s * E + column, +H). c_state ([H], LSTM) is left holding the final cell state.
void Encoder::RunDirection(const KernelTable& k, const RecurrentCell& cell, const float* input,
                           float* output, int32_t column, bool backward, float* c_state) {
  const int32_t H = hidden_size_;
  const int32_t E = output_size_;
  const int32_t G = cell.gate_size();
  cell.ProjectInput(k, src_len_, input, gates_);
  if (c_state != nullptr) memset(c_state, 0, sizeof(float) * static_cast<size_t>(H));
  const float* h_prev = zero_state_;
  for (int32_t i = 0; i < src_len_; ++i) {
    const int32_t s = backward ? src_len_ - 1 - i : i;
    float* h_out = output + static_cast<int64_t>(s) * E + column;
    cell.StepProjected(k, 1, gates_ + static_cast<int64_t>(s) * G, h_prev, c_state, h_out,
                       c_state);
    h_prev = h_out;
  }
}

void Encoder::Encode(const KernelTable& k, const int32_t* src_ids, int32_t src_len) {
  src_len_ = src_len;
  for (int32_t s = 0; s < src_len; ++s) {
    ids_[s] = reverse_source_ ? src_ids[src_len - 1 - s] : src_ids[s];
  }
  ApplyEmbedding(k, src_len, ids_, embedding_, embedded_, embed_size_);
  const bool lstm = cell_ == CellType::kLstm;
  const float* input = embedded_;
  float* output = nullptr;
  for (int32_t l = 0; l < layers_; ++l) {
    output = layer_out_[l % 2];
    // The final cell states of the top layer are what the bridge needs; lower layers use the
    // same storage and are overwritten.
    RunDirection(k, forward_[l], input, output, 0, false, lstm ? final_c_ : nullptr);
    if (bidirectional_) {
      RunDirection(k, backward_[l], input, output, hidden_size_, true,
                   lstm ? final_c_ + hidden_size_ : nullptr);
    }
    input = output;
  }
  states_ = output;
  // f_h = [h_fwd after s = S-1 ; h_bwd after s = 0].
  const int32_t H = hidden_size_;
  memcpy(final_h_, states_ + static_cast<int64_t>(src_len - 1) * output_size_,
         sizeof(float) * static_cast<size_t>(H));
  if (bidirectional_) memcpy(final_h_ + H, states_ + H, sizeof(float) * static_cast<size_t>(H));
}

}  // namespace edgenmt
