#include "rnn/encoder.h"

#include <string.h>

#include "edgenmt/internal/tensor_layout.h"
#include "rnn/float_rnn_numerics.h"
#include "rnn/integer_rnn_numerics.h"

namespace edgenmt {

template <class N>
Status Encoder<N>::Prepare(const N* numerics, const Model& model, int32_t max_src_len,
                           int32_t max_sources, Arena* arena, ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  n_ = numerics;
  cell_ = c.rnn.cell;
  layers_ = c.enc_layers;
  bidirectional_ = c.rnn.bidirectional;
  reverse_source_ = c.rnn.reverse_source;
  hidden_size_ = c.rnn.enc_hidden;
  output_size_ = c.encoder_output_size();
  if (layers_ < 1 || layers_ > kMaxRuntimeLayers) {
    return detail->Fail(Status::kUnsupported, "enc_layers ", layers_,
                        " out of range (this build supports up to ", kMaxRuntimeLayers, ")");
  }
  EDGENMT_RETURN_IF_ERROR(n_->BindEmbedding(model, "src_embed.weight", c.src_vocab_size,
                                            c.rnn.src_embed, arena, &embedding_, detail));
  int32_t observer_index = 0;  // cells in ExpectedActivations() order
  for (int32_t l = 0; l < layers_; ++l) {
    CellBinding b;
    b.cell = cell_;
    b.layer = l;
    b.input_size = l == 0 ? c.rnn.src_embed : output_size_;
    b.hidden_size = hidden_size_;
    b.embedding_columns = l == 0 ? c.rnn.src_embed : 0;
    b.embedding_scale_bits = N::EmbeddingScaleBits(embedding_);
    for (int32_t dir = 0; dir < (bidirectional_ ? 2 : 1); ++dir) {
      b.reverse = dir == 1;
      b.observer_index = observer_index++;
      RecurrentCell<N>& cell = dir == 0 ? forward_[l] : backward_[l];
      EDGENMT_RETURN_IF_ERROR(cell.Prepare(n_, model, b, max_sources, false, arena, detail));
    }
  }
  const size_t rows = static_cast<size_t>(max_src_len);
  const size_t E = static_cast<size_t>(output_size_);
  const size_t H = static_cast<size_t>(hidden_size_);
  const size_t sources = static_cast<size_t>(max_sources);
  max_src_len_ = max_src_len;
  // Persistent: the attention memory (for the float scheme the top layer's output itself).
  // Everything else is scratch of the encoder phase.
  // When the top layer's int8 outputs feed no product (the integer scheme keeps the memory
  // apart, and only additive scores project h̄), it keeps just the previous row per direction.
  const bool additive =
      c.rnn.attention == AttentionType::kBahdanau ||
      (c.rnn.attention != AttentionType::kNone && c.rnn.score == ScoreType::kConcat);
  rolling_top_ = !N::kMemoryIsHidden && !additive;
  const int32_t top = (layers_ - 1) % 2;
  for (int32_t i = 0; i < (layers_ > 1 ? 2 : 1); ++i) {
    const size_t out_rows = rolling_top_ && i == top ? 2 : rows;
    layer_out_[i] = N::kMemoryIsHidden && i == top
                        ? arena->AllocateArray<Hidden>(sources, out_rows, E)
                        : arena->AllocateScratchArray<Hidden>(out_rows, E);
  }
  memory_ = N::kMemoryIsHidden ? nullptr : arena->AllocateArray<Memory>(sources, rows, E);
  ids_ = arena->AllocateScratchArray<int32_t>(rows);
  const int32_t block = max_src_len < kProjectionRows ? max_src_len : kProjectionRows;
  embed_scratch_ =
      arena->AllocateScratchArray<Hidden>(N::InputScratchElements(block, c.rnn.src_embed));
  gates_ = arena->AllocateScratchArray<typename N::Acc>(static_cast<size_t>(block),
                                                        static_cast<size_t>(GateCount(cell_)) * H);
  zero_h_ = arena->AllocateScratchArray<Hidden>(H);
  final_h_ = arena->AllocateScratchArray<Hidden>(E);
  final_c_ = arena->AllocateScratchArray<State>(E);
  max_sources_ = max_sources;
#if defined(EDGENMT_WITH_BATCH)
  if (max_sources > 1) return PrepareBatch(model, max_sources, arena);
#endif
  return Status::kOk;
}

template <class N>
int64_t Encoder<N>::OutputRow(int32_t layer, int32_t s) const {
  return rolling_top_ && layer == layers_ - 1 ? s % 2 : s;
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
  const int32_t S = src_len_;
  State* state = N::HasState(cell_) ? final_c_ + column : nullptr;
  if (state != nullptr) memset(state, 0, sizeof(State) * static_cast<size_t>(H));
  Memory* memory = layer == layers_ - 1 ? slot_memory_ : nullptr;
  const Hidden* h_prev = zero_h_;
  for (int32_t i = 0; i < S; i += kProjectionRows) {
    // Positions [first, first + n) in source order, visited in the direction's order.
    const int32_t n = S - i < kProjectionRows ? S - i : kProjectionRows;
    const int32_t first = backward ? S - i - n : i;
    if (layer == 0) {
      cell.ProjectEmbedded(n, ids_ + first, embedding_, nullptr, 0, nullptr, 0, gates_,
                           embed_scratch_);
    } else {
      cell.ProjectInput(n, input + static_cast<int64_t>(first) * E, gates_);
    }
    for (int32_t j = 0; j < n; ++j) {
      const int32_t s = backward ? S - 1 - (i + j) : i + j;
      const int64_t offset = static_cast<int64_t>(s) * E + column;
      Hidden* h_out = output + OutputRow(layer, s) * E + column;
      cell.StepProjected(1, gates_ + static_cast<int64_t>(s - first) * G, h_prev, state, h_out,
                         state, memory != nullptr ? memory + offset : nullptr);
      h_prev = h_out;
    }
  }
}

template <class N>
void Encoder<N>::Encode(int32_t slot, const int32_t* src_ids, int32_t src_len) {
  src_len_ = src_len;
  const int64_t slot_offset = static_cast<int64_t>(slot) * max_src_len_ * output_size_;
  slot_memory_ = memory_ != nullptr ? memory_ + slot_offset : nullptr;
  // Scratch of this phase holds whatever another phase left there.
  memset(zero_h_, 0, sizeof(Hidden) * static_cast<size_t>(hidden_size_));
  memset(final_c_, 0, sizeof(State) * static_cast<size_t>(output_size_));
  for (int32_t s = 0; s < src_len; ++s) {
    ids_[s] = reverse_source_ ? src_ids[src_len - 1 - s] : src_ids[s];
  }
  const int32_t H = hidden_size_;
  const Hidden* input = nullptr;
  Hidden* output = nullptr;
  for (int32_t l = 0; l < layers_; ++l) {
    output = layer_out_[l % 2];
    // The memory is the top layer's output itself: the slot's own rows (for every layer
    // sharing that buffer, so no layer below writes over another slot's memory).
    if (N::kMemoryIsHidden && l % 2 == (layers_ - 1) % 2) output += slot_offset;
    for (int32_t dir = 0; dir < (bidirectional_ ? 2 : 1); ++dir) {
      RunDirection(dir == 0 ? forward_[l] : backward_[l], l, input, output, dir * H, dir == 1);
    }
    input = output;
  }
  outputs_ = rolling_top_ ? nullptr : output;
  // f_h = [h_fwd after s = S-1 ; h_bwd after s = 0].
  const int32_t top = layers_ - 1;
  memcpy(final_h_, output + OutputRow(top, src_len - 1) * output_size_,
         sizeof(Hidden) * static_cast<size_t>(H));
  if (bidirectional_) {
    memcpy(final_h_ + H, output + OutputRow(top, 0) * output_size_ + H,
           sizeof(Hidden) * static_cast<size_t>(H));
  }
}

#if defined(EDGENMT_WITH_FLOAT_SCHEMES)  // CMake EDGENMT_FLOAT_SCHEMES
template class Encoder<FloatRnnNumerics>;
#endif
template class Encoder<IntegerRnnNumerics>;

}  // namespace edgenmt
