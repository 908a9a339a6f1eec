#include "rnn/encoder.h"

#include <string.h>

#include "edgenmt/tensor_layout.h"
#include "numerics/float_numerics.h"
#include "numerics/integer_numerics.h"

namespace edgenmt {

template <class N>
Status Encoder<N>::Prepare(const N* numerics, const Model& model, int32_t max_src_len,
                           Arena* arena, ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  n_ = numerics;
  cell_ = c.cell;
  layers_ = c.enc_layers;
  bidirectional_ = c.bidirectional;
  reverse_source_ = c.reverse_source;
  hidden_size_ = c.enc_hidden;
  output_size_ = c.encoder_output_size();
  if (layers_ < 1 || layers_ > kMaxRuntimeLayers) {
    return detail->Fail(Status::kUnsupported, "enc_layers ", layers_,
                        " out of range (this build supports up to ", kMaxRuntimeLayers, ")");
  }
  EDGENMT_RETURN_IF_ERROR(n_->BindEmbedding(model, "src_embed.weight", c.src_vocab_size,
                                            c.src_embed, arena, &embedding_, detail));
  int32_t observer_index = 0;  // cells in ExpectedActivations() order
  for (int32_t l = 0; l < layers_; ++l) {
    CellBinding b;
    b.cell = cell_;
    b.prefix = "encoder.rnn.";
    b.input_size = l == 0 ? c.src_embed : output_size_;
    b.hidden_size = hidden_size_;
    b.embedding_columns = l == 0 ? c.src_embed : 0;
    b.embedding_scale_bits = N::EmbeddingScaleBits(embedding_);
    for (int32_t dir = 0; dir < (bidirectional_ ? 2 : 1); ++dir) {
      const NameBuilder suffix("_l", l, dir == 0 ? "" : "_reverse");
      const NameBuilder format("encoder.rnn.l", l, dir == 0 ? "" : "_reverse", ".cell");
      b.suffix = suffix.c_str();
      b.state_format = format.c_str();
      b.observer_index = observer_index++;
      RecurrentCell<N>& cell = dir == 0 ? forward_[l] : backward_[l];
      EDGENMT_RETURN_IF_ERROR(cell.Prepare(n_, model, b, 1, false, arena, detail));
    }
  }
  const size_t rows = static_cast<size_t>(max_src_len);
  const size_t E = static_cast<size_t>(output_size_);
  const size_t H = static_cast<size_t>(hidden_size_);
  ids_ = arena->AllocateArray<int32_t>(rows);
  embed_scratch_ = arena->AllocateArray<Hidden>(N::InputScratchElements(max_src_len, c.src_embed));
  layer_out_[0] = arena->AllocateArray<Hidden>(rows, E);
  layer_out_[1] = layers_ > 1 ? arena->AllocateArray<Hidden>(rows, E) : nullptr;
  memory_ = N::kMemoryIsHidden ? nullptr : arena->AllocateArray<Memory>(rows, E);
  gates_ = arena->AllocateArray<typename N::Acc>(
      rows, static_cast<size_t>(GateCount(cell_)) * H);
  zero_h_ = arena->AllocateArray<Hidden>(H);
  final_h_ = arena->AllocateArray<Hidden>(E);
  final_c_ = arena->AllocateArray<State>(E);
  if (arena->writable()) {
    memset(zero_h_, 0, sizeof(Hidden) * H);
    memset(final_c_, 0, sizeof(State) * E);
  }
  return Status::kOk;
}

template <class N>
const typename N::Memory* Encoder<N>::MemoryAlias() const {
  // Only reached when N::kMemoryIsHidden (Hidden and Memory are then the same type).
  return reinterpret_cast<const Memory*>(outputs_);
}

// One direction of one layer over src_len_ positions from a zero state, writing h_s into
// output[s * E + column, +H) (and the memory copy on the top layer). The running cell state
// lives in final_c_[column, +H), so the top layer leaves f_c there.
template <class N>
void Encoder<N>::RunDirection(const RecurrentCell<N>& cell, int32_t layer, const Hidden* input,
                              Hidden* output, int32_t column, bool backward) {
  const int32_t H = hidden_size_;
  const int32_t E = output_size_;
  const int32_t G = cell.gate_size();
  if (layer == 0) {
    cell.ProjectEmbedded(src_len_, ids_, embedding_, nullptr, 0, nullptr, 0, gates_,
                         embed_scratch_);
  } else {
    cell.ProjectInput(src_len_, input, gates_);
  }
  State* state = N::HasState(cell_) ? final_c_ + column : nullptr;
  if (state != nullptr) memset(state, 0, sizeof(State) * static_cast<size_t>(H));
  Memory* memory = layer == layers_ - 1 ? memory_ : nullptr;
  const Hidden* h_prev = zero_h_;
  for (int32_t i = 0; i < src_len_; ++i) {
    const int32_t s = backward ? src_len_ - 1 - i : i;
    const int64_t offset = static_cast<int64_t>(s) * E + column;
    Hidden* h_out = output + offset;
    cell.StepProjected(1, gates_ + static_cast<int64_t>(s) * G, h_prev, state, h_out, state,
                       memory != nullptr ? memory + offset : nullptr);
    h_prev = h_out;
  }
}

template <class N>
void Encoder<N>::Encode(const int32_t* src_ids, int32_t src_len) {
  src_len_ = src_len;
  for (int32_t s = 0; s < src_len; ++s) {
    ids_[s] = reverse_source_ ? src_ids[src_len - 1 - s] : src_ids[s];
  }
  const int32_t H = hidden_size_;
  const Hidden* input = nullptr;
  Hidden* output = nullptr;
  for (int32_t l = 0; l < layers_; ++l) {
    output = layer_out_[l % 2];
    for (int32_t dir = 0; dir < (bidirectional_ ? 2 : 1); ++dir) {
      RunDirection(dir == 0 ? forward_[l] : backward_[l], l, input, output, dir * H, dir == 1);
    }
    input = output;
  }
  outputs_ = output;
  // f_h = [h_fwd after s = S-1 ; h_bwd after s = 0].
  memcpy(final_h_, outputs_ + static_cast<int64_t>(src_len - 1) * output_size_,
         sizeof(Hidden) * static_cast<size_t>(H));
  if (bidirectional_) memcpy(final_h_ + H, outputs_ + H, sizeof(Hidden) * static_cast<size_t>(H));
}

template class Encoder<FloatNumerics>;
template class Encoder<IntegerNumerics>;

}  // namespace edgenmt
