// The source encoder (docs/MODEL.md "Encoder"), written once for both numeric schemes:
// embedding, stacked (optionally bidirectional) LSTM/GRU layers, optional source reversal.
// Exposes the top layer's states h̄ [S, E] (as inputs of products and as the attention memory,
// which the integer scheme keeps at 16 bits) and the final states f_h / f_c for the bridge.
//
// The input projections run as matrix-matrix products over blocks of kProjectionRows
// positions (in the direction's order), so the gates scratch does not grow with max_src_len.
//
// Arena (Prepare): ids [max_src], one or two layer outputs [max_src, E] (ping-pong; the top
// one [max_sources, max_src, E] when it is the memory), memory [max_sources, max_src, E]
// unless N::kMemoryIsHidden, input gates [kProjectionRows, G*enc_hidden],
// embedding scratch, zero h [enc_hidden], f_h and f_c [E] (f_c also holds the running cell states).
#ifndef EDGENMT_RNN_ENCODER_H_
#define EDGENMT_RNN_ENCODER_H_

#include <stdint.h>

#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "rnn/layer_limits.h"
#include "rnn/recurrent_cell.h"

namespace edgenmt {

template <class N>
class Encoder {
 public:
  static constexpr int32_t kProjectionRows = 4;

  using Hidden = typename N::Hidden;
  using State = typename N::State;
  using Memory = typename N::Memory;

  // max_sources: sources whose memories are kept at once (a batch), one slot each.
  Status Prepare(const N* numerics, const Model& model, int32_t max_src_len, int32_t max_sources,
                 Arena* arena, ErrorDetail* detail);

  // Encodes src_ids[0, src_len) (ids validated by the caller, 1 <= src_len <= max_src_len)
  // into slot `slot` (< max_sources): its memory stays until the slot's next Encode; the other
  // accessors describe this source until the next Encode of any slot.
  void Encode(int32_t slot, const int32_t* src_ids, int32_t src_len);

  // Encodes count (1 <= count <= max_sources) sources at once: source k is src_ids[k][0,
  // src_lens[k]) into slot slots[k] (distinct). The input projections run over every source's
  // positions of a block together, the recurrence over every source still running at each
  // position (sources longer first, so those are a prefix of the rows). Afterwards the batch_*
  // accessors describe source k, exactly as the single accessors after Encode(slots[k], ...).
  void EncodeBatch(int32_t count, const int32_t* const* src_ids, const int32_t* src_lens,
                   const int32_t* slots);
  const Hidden* batch_outputs(int32_t k) const;
  const Memory* batch_memory(int32_t k) const;
  const Hidden* batch_final_h(int32_t k) const {
    return batch_final_h_ + static_cast<int64_t>(k) * output_size_;
  }
  const State* batch_final_c(int32_t k) const {
    return batch_final_c_ + static_cast<int64_t>(k) * output_size_;
  }

  int32_t output_size() const { return output_size_; }
  int32_t hidden_size() const { return hidden_size_; }
  // h̄ [src_len, E] as inputs of products; row s is (reversed, if configured) position s.
  // Null when no product needs them (integer scheme without additive scores).
  const Hidden* outputs() const { return outputs_; }
  // h̄ [src_len, E] as the attention memory.
  const Memory* memory() const { return memory_ != nullptr ? slot_memory_ : MemoryAlias(); }
  const Hidden* final_h() const { return final_h_; }  // [E]
  const State* final_c() const { return final_c_; }   // [E], LSTM only
  // The top layer's cells (their state formats describe f_c's halves).
  const typename N::CellWeights& top_forward() const { return forward_[layers_ - 1].weights(); }
  const typename N::CellWeights* top_backward() const {
    return bidirectional_ ? &backward_[layers_ - 1].weights() : nullptr;
  }

 private:
  const Memory* MemoryAlias() const;
  // Row of layer `layer`'s output buffer holding position s.
  int64_t OutputRow(int32_t layer, int32_t s) const;
  void RunDirection(const RecurrentCell<N>& cell, int32_t layer, const Hidden* input,
                    Hidden* output, int32_t column, bool backward);
  Status PrepareBatch(const Model& model, int32_t max_sources, Arena* arena);
  // EncodeBatch's: row p of the recurrence is source order_[p]; source k's layer output.
  Hidden* BatchOutput(int32_t layer, int32_t k) const;
  void RunBatchDirection(const RecurrentCell<N>& cell, int32_t layer, int32_t column,
                         bool backward);

  const N* n_ = nullptr;
  CellType cell_ = CellType::kLstm;
  int32_t layers_ = 0;
  bool bidirectional_ = false;
  bool reverse_source_ = false;
  bool rolling_top_ = false;  // the top layer keeps rows s % 2 only
  int32_t hidden_size_ = 0;
  int32_t output_size_ = 0;
  int32_t src_len_ = 0;
  typename N::Embedding embedding_;  // [V_s, src_embed]
  RecurrentCell<N> forward_[kMaxRuntimeLayers];
  RecurrentCell<N> backward_[kMaxRuntimeLayers];
  int32_t* ids_ = nullptr;                     // [max_src]
  Hidden* embed_scratch_ = nullptr;            // N::InputScratchElements(max_src, src_embed)
  Hidden* layer_out_[2] = {nullptr, nullptr};  // [max_src, E]
  Memory* memory_ = nullptr;                   // [max_sources, max_src, E] unless kMemoryIsHidden
  Memory* slot_memory_ = nullptr;              // the slot being encoded
  int32_t max_src_len_ = 0;
  typename N::Acc* gates_ = nullptr;  // [kProjectionRows, G*H]
  Hidden* zero_h_ = nullptr;          // [H]
  Hidden* final_h_ = nullptr;         // [E]
  State* final_c_ = nullptr;          // [E]
  const Hidden* outputs_ = nullptr;

  // EncodeBatch (max_sources > 1 only), scratch of the encoder phase unless noted.
  int32_t max_sources_ = 1;
  int32_t batch_count_ = 0;
  int32_t* order_ = nullptr;              // [max_sources] sources by decreasing length
  int32_t* batch_lens_ = nullptr;         // [max_sources]
  int32_t* batch_slots_ = nullptr;        // [max_sources]
  int32_t* batch_ids_ = nullptr;          // [max_sources, max_src] ids in encoder order
  int32_t* row_ids_ = nullptr;            // [max_sources * kProjectionRows]
  Hidden* row_input_ = nullptr;           // [max_sources * kProjectionRows, E]
  Hidden* row_embed_ = nullptr;           // InputScratchElements(those rows, src_embed)
  typename N::Acc* row_gates_ = nullptr;  // [max_sources * kProjectionRows, G*H]
  Hidden* batch_h_ = nullptr;             // [max_sources, H]
  State* batch_state_ = nullptr;          // [max_sources, H]
  Memory* batch_memory_rows_ = nullptr;   // [max_sources, H] unless kMemoryIsHidden
  // Layer outputs [max_sources, max_src, E] (ping-pong); with kMemoryIsHidden the top layer
  // writes the slots' memory instead.
  Hidden* batch_out_[2] = {nullptr, nullptr};
  Hidden* batch_final_h_ = nullptr;  // [max_sources, E]
  State* batch_final_c_ = nullptr;   // [max_sources, E]
};

}  // namespace edgenmt

#endif  // EDGENMT_RNN_ENCODER_H_
