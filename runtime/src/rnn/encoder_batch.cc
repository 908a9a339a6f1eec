// Encoder<N>::EncodeBatch (rnn/encoder.h): several sources through the encoder at once, so each
// weight row is read once per block of positions for all of them. Per row it computes exactly
// what Encode computes (the same kernels on the same values), only more rows per call. Built
// with EDGENMT_BATCH only (Encoder::Prepare reserves nothing for it otherwise).
#if defined(EDGENMT_WITH_BATCH)
#include <string.h>

#include "edgenmt/internal/tensor_layout.h"
#include "rnn/float_rnn_numerics.h"
#include "rnn/integer_rnn_numerics.h"
#include "rnn/encoder.h"

namespace edgenmt {

template <class N>
Status Encoder<N>::PrepareBatch(const Model& model, int32_t max_sources, Arena* arena) {
  const size_t sources = static_cast<size_t>(max_sources);
  const size_t src = static_cast<size_t>(max_src_len_);
  const size_t E = static_cast<size_t>(output_size_);
  const size_t H = static_cast<size_t>(hidden_size_);
  const size_t rows = sources * static_cast<size_t>(kProjectionRows);
  order_ = arena->AllocateScratchArray<int32_t>(sources);
  batch_lens_ = arena->AllocateScratchArray<int32_t>(sources);
  batch_slots_ = arena->AllocateScratchArray<int32_t>(sources);
  batch_ids_ = arena->AllocateScratchArray<int32_t>(sources, src);
  row_ids_ = arena->AllocateScratchArray<int32_t>(rows);
  row_input_ = layers_ > 1 ? arena->AllocateScratchArray<Hidden>(rows, E) : nullptr;
  row_embed_ = arena->AllocateScratchArray<Hidden>(
      N::InputScratchElements(static_cast<int32_t>(rows), model.config().rnn.src_embed));
  row_gates_ =
      arena->AllocateScratchArray<typename N::Acc>(rows, static_cast<size_t>(GateCount(cell_)) * H);
  batch_h_ = arena->AllocateScratchArray<Hidden>(sources, H);
  batch_state_ = N::HasState(cell_) ? arena->AllocateScratchArray<State>(sources, H) : nullptr;
  batch_memory_rows_ =
      N::kMemoryIsHidden ? nullptr : arena->AllocateScratchArray<Memory>(sources, H);
  const int32_t top = (layers_ - 1) % 2;
  for (int32_t i = 0; i < (layers_ > 1 ? 2 : 1); ++i) {
    // Where the memory is the top layer's output, that parity writes the slots' memory.
    if (!(N::kMemoryIsHidden && i == top)) {
      batch_out_[i] = arena->AllocateScratchArray<Hidden>(sources, src, E);
    }
  }
  batch_final_h_ = arena->AllocateScratchArray<Hidden>(sources, E);
  batch_final_c_ = arena->AllocateScratchArray<State>(sources, E);
  return Status::kOk;
}

template <class N>
typename N::Hidden* Encoder<N>::BatchOutput(int32_t layer, int32_t k) const {
  const int64_t rows = static_cast<int64_t>(max_src_len_) * output_size_;
  const int32_t parity = layer % 2;
  if (N::kMemoryIsHidden && parity == (layers_ - 1) % 2) {
    return layer_out_[parity] + batch_slots_[k] * rows;
  }
  return batch_out_[parity] + k * rows;
}

template <class N>
const typename N::Hidden* Encoder<N>::batch_outputs(int32_t k) const {
  return N::kMemoryIsHidden || !rolling_top_ ? BatchOutput(layers_ - 1, k) : nullptr;
}

template <class N>
const typename N::Memory* Encoder<N>::batch_memory(int32_t k) const {
  if (memory_ != nullptr) {
    return memory_ + static_cast<int64_t>(batch_slots_[k]) * max_src_len_ * output_size_;
  }
  // Only reached when N::kMemoryIsHidden (Hidden and Memory are then the same type).
  return reinterpret_cast<const Memory*>(BatchOutput(layers_ - 1, k));
}

// One direction of one layer over every source, from zero states. Row p of the recurrence is
// source order_[p]; at position i the sources longer than i are rows [0, active).
template <class N>
void Encoder<N>::RunBatchDirection(const RecurrentCell<N>& cell, int32_t layer, int32_t column,
                                   bool backward) {
  const int64_t H = hidden_size_;
  const int64_t E = output_size_;
  const int64_t G = cell.gate_size();
  const int32_t n = batch_count_;
  const int32_t longest = batch_lens_[order_[0]];
  const bool top = layer == layers_ - 1;
  const auto position = [&](int32_t k, int32_t i) { return backward ? batch_lens_[k] - 1 - i : i; };
  memset(batch_h_, 0, sizeof(Hidden) * static_cast<size_t>(n * H));
  if (batch_state_ != nullptr) memset(batch_state_, 0, sizeof(State) * static_cast<size_t>(n * H));
  for (int32_t i0 = 0; i0 < longest; i0 += kProjectionRows) {
    // The block's rows, position by position: the sources running at i0 + j.
    int32_t active[kProjectionRows] = {};
    int32_t first_row[kProjectionRows] = {};
    int32_t rows = 0;
    int32_t steps = 0;
    for (int32_t j = 0; j < kProjectionRows && i0 + j < longest; ++j, ++steps) {
      int32_t a = 0;
      while (a < n && batch_lens_[order_[a]] > i0 + j) ++a;
      active[j] = a;
      first_row[j] = rows;
      for (int32_t p = 0; p < a; ++p, ++rows) {
        const int32_t k = order_[p];
        const int64_t s = position(k, i0 + j);
        if (layer == 0) {
          row_ids_[rows] = batch_ids_[static_cast<int64_t>(k) * max_src_len_ + s];
        } else {
          memcpy(row_input_ + rows * E, BatchOutput(layer - 1, k) + s * E,
                 sizeof(Hidden) * static_cast<size_t>(E));
        }
      }
    }
    if (layer == 0) {
      cell.ProjectEmbedded(rows, row_ids_, embedding_, nullptr, 0, nullptr, 0, row_gates_,
                           row_embed_);
    } else {
      cell.ProjectInput(rows, row_input_, row_gates_);
    }
    for (int32_t j = 0; j < steps; ++j) {
      const int32_t a = active[j];
      Memory* memory_rows = top ? batch_memory_rows_ : nullptr;
      cell.StepProjected(a, row_gates_ + first_row[j] * G, batch_h_, batch_state_, batch_h_,
                         batch_state_, memory_rows);
      for (int32_t p = 0; p < a; ++p) {
        const int32_t k = order_[p];
        const int64_t s = position(k, i0 + j);
        memcpy(BatchOutput(layer, k) + s * E + column, batch_h_ + p * H,
               sizeof(Hidden) * static_cast<size_t>(H));
        if (memory_rows != nullptr) {
          Memory* memory = memory_ + static_cast<int64_t>(batch_slots_[k]) * max_src_len_ * E;
          memcpy(memory + s * E + column, memory_rows + p * H,
                 sizeof(Memory) * static_cast<size_t>(H));
        }
      }
    }
  }
  // Each source's state after its last position (the top layer's are f_c).
  if (batch_state_ != nullptr) {
    for (int32_t p = 0; p < n; ++p) {
      memcpy(batch_final_c_ + static_cast<int64_t>(order_[p]) * E + column, batch_state_ + p * H,
             sizeof(State) * static_cast<size_t>(H));
    }
  }
}

template <class N>
void Encoder<N>::EncodeBatch(int32_t count, const int32_t* const* src_ids, const int32_t* src_lens,
                             const int32_t* slots) {
  batch_count_ = count;
  for (int32_t k = 0; k < count; ++k) {
    const int32_t len = src_lens[k];
    batch_lens_[k] = len;
    batch_slots_[k] = slots[k];
    int32_t* ids = batch_ids_ + static_cast<int64_t>(k) * max_src_len_;
    for (int32_t s = 0; s < len; ++s)
      ids[s] = reverse_source_ ? src_ids[k][len - 1 - s] : src_ids[k][s];
    // Longer sources first (stable): the running ones are always a prefix of the rows.
    int32_t pos = k;
    while (pos > 0 && batch_lens_[order_[pos - 1]] < len) {
      order_[pos] = order_[pos - 1];
      --pos;
    }
    order_[pos] = k;
  }
  const int32_t H = hidden_size_;
  for (int32_t l = 0; l < layers_; ++l) {
    for (int32_t dir = 0; dir < (bidirectional_ ? 2 : 1); ++dir) {
      RunBatchDirection(dir == 0 ? forward_[l] : backward_[l], l, dir * H, dir == 1);
    }
  }
  // f_h = [h_fwd after s = S-1 ; h_bwd after s = 0] per source.
  const int64_t E = output_size_;
  for (int32_t k = 0; k < count; ++k) {
    const Hidden* out = BatchOutput(layers_ - 1, k);
    Hidden* final_h = batch_final_h_ + k * E;
    memcpy(final_h, out + (src_lens[k] - 1) * E, sizeof(Hidden) * static_cast<size_t>(H));
    if (bidirectional_) memcpy(final_h + H, out + H, sizeof(Hidden) * static_cast<size_t>(H));
  }
}

#if defined(EDGENMT_WITH_FLOAT_SCHEMES)  // CMake EDGENMT_FLOAT_SCHEMES
template class Encoder<FloatRnnNumerics>;
#endif
template class Encoder<IntegerRnnNumerics>;

}  // namespace edgenmt
#endif  // defined(EDGENMT_WITH_BATCH)
