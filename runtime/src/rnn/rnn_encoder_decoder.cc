#include "rnn/rnn_encoder_decoder.h"

#include <string.h>

#include <type_traits>

#include "edgenmt/internal/tensor_layout.h"
#include "profile_scope.h"
#include "rnn/float_rnn_numerics.h"
#include "rnn/integer_rnn_numerics.h"

namespace edgenmt {

template <class N>
Status RnnEncoderDecoder<N>::Prepare(const Model& model, const KernelTable* kernels,
                                     const DecoderLimits& limits, Arena* arena,
                                     ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  const int32_t max_rows = limits.max_rows;
  if (kernels == nullptr || limits.max_src_len < 1 || max_rows < 1 || limits.max_sources < 1 ||
      limits.max_sources > max_rows) {
    return detail->Fail(Status::kInvalidArgument,
                        "decoder needs kernels, max_src_len >= 1 and "
                        "1 <= max_sources <= max_rows");
  }
  if (c.dec_layers < 1 || c.dec_layers > kMaxRuntimeLayers) {
    return detail->Fail(Status::kUnsupported, "dec_layers ", c.dec_layers,
                        " out of range (this build supports up to ", kMaxRuntimeLayers, ")");
  }
  if (c.rnn.input_feeding && c.rnn.attention == AttentionType::kNone) {
    return detail->Fail(Status::kModelConfigInvalid, "input_feeding needs attention");
  }
  attention_type_ = c.rnn.attention;
  input_feeding_ = c.rnn.input_feeding;
  layers_ = c.dec_layers;
  hidden_size_ = c.rnn.dec_hidden;
  context_size_ = has_attention() ? c.encoder_output_size() : 0;
  vocab_size_ = c.tgt_vocab_size;
  max_rows_ = max_rows;
  const VocabularyView tgt = model.tgt_vocab();
  bos_id_ = tgt.bos_id;
  eos_id_ = tgt.eos_id;
  if (bos_id_ < 0 || bos_id_ >= vocab_size_ || eos_id_ < 0 || eos_id_ >= vocab_size_) {
    return detail->Fail(Status::kModelVocabularyInvalid, "target <s>/</s> ids out of range");
  }
  // Widest vector the scheme's elementwise scratch serves.
  int32_t width = c.encoder_output_size();
  const int32_t others[] = {c.rnn.dec_hidden, c.rnn.attn_hidden, c.tgt_vocab_size};
  for (int32_t v : others) width = v > width ? v : width;
  // Scratch phases: the numerics' per-operation temporaries are common, then the encoder's
  // (and the bridge's, which runs at Encode), then everything a step (and the search) uses.
  arena->SetScratchPhase(ScratchPhase::kCommon);
  EDGENMT_RETURN_IF_ERROR(
      numerics_.Prepare(model, kernels, max_rows, width, arena, detail, limits.max_sources));
  EDGENMT_RETURN_IF_ERROR(PrepareLayers(model, limits, arena, detail));

  const size_t rows = static_cast<size_t>(max_rows);
  const size_t H = static_cast<size_t>(hidden_size_);
  const size_t V = static_cast<size_t>(vocab_size_);
  for (int32_t l = 0; l < layers_; ++l) {
    h_[l] = arena->AllocateArray<Hidden>(rows, H);
    s_[l] = N::HasState(c.rnn.cell) ? arena->AllocateArray<State>(rows, H) : nullptr;
  }
  attentional_ = arena->AllocateArray<Hidden>(rows, H);
  concat_ = has_attention()
                ? arena->AllocateScratchArray<Hidden>(rows, static_cast<size_t>(context_size_) + H)
                : nullptr;
  const int32_t input_size = DecoderInputSize(c);
  input_scratch_ =
      arena->AllocateScratchArray<Hidden>(N::InputScratchElements(max_rows, input_size));
  gates_ = arena->AllocateScratchArray<Acc>(rows, static_cast<size_t>(GateCount(c.rnn.cell)) * H);
  // The float scheme computes products straight into h̃ and the log-probs (Acc is their type).
  acc_ = std::is_same<Acc, float>::value ? nullptr
                                         : arena->AllocateScratchArray<Acc>(rows, V > H ? V : H);
  log_probs_ = arena->AllocateScratchArray<float>(rows, V);
  if constexpr (std::is_same<typename N::LogProb, float>::value) {
    exact_log_probs_ = log_probs_;
  } else {
    exact_log_probs_ = arena->AllocateScratchArray<typename N::LogProb>(rows, V);
  }
  const size_t row_bytes = H * (sizeof(State) > sizeof(Hidden) ? sizeof(State) : sizeof(Hidden));
  gather_ = arena->AllocateScratchArray<unsigned char>(rows, row_bytes);
  rows_ = 0;
  step_ = 0;
  return Status::kOk;
}

template <class N>
Status RnnEncoderDecoder<N>::PrepareLayers(const Model& model, const DecoderLimits& limits,
                                           Arena* arena, ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  const int32_t max_src_len = limits.max_src_len;
  const N* n = &numerics_;
  arena->SetScratchPhase(ScratchPhase::kEncode);
  EDGENMT_RETURN_IF_ERROR(
      encoder_.Prepare(n, model, max_src_len, limits.max_sources, arena, detail));
  EDGENMT_RETURN_IF_ERROR(bridge_.Prepare(n, model, arena, detail));
  arena->SetScratchPhase(ScratchPhase::kStep);
  EDGENMT_RETURN_IF_ERROR(n->BindEmbedding(model, "tgt_embed.weight", vocab_size_, c.rnn.tgt_embed,
                                           arena, &embedding_, detail));
  const int32_t encoder_cells = c.enc_layers * (c.rnn.bidirectional ? 2 : 1);
  for (int32_t l = 0; l < layers_; ++l) {
    CellBinding b;
    b.cell = c.rnn.cell;
    b.decoder = true;
    b.layer = l;
    b.input_size = l == 0 ? DecoderInputSize(c) : hidden_size_;
    b.hidden_size = hidden_size_;
    b.embedding_columns = l == 0 ? c.rnn.tgt_embed : 0;
    b.embedding_scale_bits = N::EmbeddingScaleBits(embedding_);
    b.observer_index = encoder_cells + l;
    EDGENMT_RETURN_IF_ERROR(cells_[l].Prepare(n, model, b, max_rows_, l > 0, arena, detail));
  }
  if (has_attention()) {
    EDGENMT_RETURN_IF_ERROR(
        attention_.Prepare(n, model, max_src_len, max_rows_, limits.max_sources, arena, detail));
  }
  EDGENMT_RETURN_IF_ERROR(n->BindMatrix(model, "attn_out.weight", hidden_size_,
                                        context_size_ + hidden_size_, arena, &attn_out_, detail));
  EDGENMT_RETURN_IF_ERROR(n->BindMatrix(model, "generator.weight", vocab_size_, hidden_size_, arena,
                                        &generator_, detail));
  return n->BindBias(model, "generator.bias", vocab_size_, &generator_bias_, detail);
}

template <class N>
void RnnEncoderDecoder<N>::Encode(const int32_t* src_ids, int32_t src_len) {
  EncodeSource(0, src_ids, src_len, 0);
  rows_ = 1;
  step_ = 0;
}

template <class N>
void RnnEncoderDecoder<N>::EncodeSource(int32_t slot, const int32_t* src_ids, int32_t src_len,
                                        int32_t row) {
  src_len_ = src_len;
  encoder_.Encode(slot, src_ids, src_len);
  if (has_attention()) attention_.SetSource(slot, encoder_.outputs(), encoder_.memory(), src_len);
  typename Bridge<N>::Source source;
  source.final_h = encoder_.final_h();
  source.final_c = encoder_.final_c();
  source.top_forward = &encoder_.top_forward();
  source.top_backward = encoder_.top_backward();
  source.half = encoder_.hidden_size();
  InitialState(source, row);
}

template <class N>
void RnnEncoderDecoder<N>::EncodeSources(int32_t count, const int32_t* slots,
                                         const int32_t* const* src_ids, const int32_t* src_lens,
                                         int32_t first_row) {
  if (count == 1) return EncodeSource(slots[0], src_ids[0], src_lens[0], first_row);
#if defined(EDGENMT_WITH_BATCH)  // otherwise Init refuses max_batch > 1: count is always 1
  encoder_.EncodeBatch(count, src_ids, src_lens, slots);
  typename Bridge<N>::Source source;
  source.top_forward = &encoder_.top_forward();
  source.top_backward = encoder_.top_backward();
  source.half = encoder_.hidden_size();
  for (int32_t k = 0; k < count; ++k) {
    if (has_attention()) {
      attention_.SetSource(slots[k], encoder_.batch_outputs(k), encoder_.batch_memory(k),
                           src_lens[k]);
    }
    source.final_h = encoder_.batch_final_h(k);
    source.final_c = encoder_.batch_final_c(k);
    InitialState(source, first_row + k);
  }
#endif
}

template <class N>
void RnnEncoderDecoder<N>::InitialState(const typename Bridge<N>::Source& source, int32_t row) {
  const int64_t H = hidden_size_;
  Hidden* h0[kMaxRuntimeLayers] = {};
  State* s0[kMaxRuntimeLayers] = {};
  for (int32_t l = 0; l < layers_; ++l) {
    h0[l] = h_[l] + row * H;
    s0[l] = s_[l] != nullptr ? s_[l] + row * H : nullptr;
  }
  bridge_.Apply(source, cells_, h0, s0);
  memset(attentional_ + row * H, 0, sizeof(Hidden) * static_cast<size_t>(H));
  rows_ = row + 1 > rows_ ? row + 1 : rows_;
}

template <class N>
void RnnEncoderDecoder<N>::Step(const int32_t* prev_tokens, int32_t rows) {
  const RowBlock block{0, 0, rows, step_};
  StepBlocks(prev_tokens, &block, 1);
  ++step_;
}

template <class N>
void RnnEncoderDecoder<N>::StepBlocks(const int32_t* prev_tokens, const RowBlock* blocks,
                                      int32_t num_blocks) {
  int32_t rows = 0;
  for (int32_t b = 0; b < num_blocks; ++b) rows += blocks[b].rows;
  rows_ = rows;
  const bool bahdanau = attention_type_ == AttentionType::kBahdanau;
  // Bahdanau attends with the top layer's state before this step.
  if (bahdanau) Attend(blocks, num_blocks, rows);
  {
    // Layer 0's input u = [E_tgt[y]; c_t (bahdanau); h̃_{t-1} (input feeding)].
    ProfileScope profile(ProfileStage::kRecurrentCell);
    cells_[0].ProjectEmbedded(
        rows, prev_tokens, embedding_, bahdanau ? attention_.context() : nullptr, context_size_,
        input_feeding_ ? attentional_ : nullptr, hidden_size_, gates_, input_scratch_);
    cells_[0].StepProjected(rows, gates_, h_[0], s_[0], h_[0], s_[0]);
  }
  for (int32_t l = 1; l < layers_; ++l) {
    cells_[l].Step(rows, h_[l - 1], h_[l], s_[l], h_[l], s_[l]);
  }
  if (has_attention() && !bahdanau) Attend(blocks, num_blocks, rows);
  AttentionalOutput(rows);
  Generate(rows);
}

// The top layer's rows attend: what depends on the query alone over every row at once, the
// rest per source.
template <class N>
void RnnEncoderDecoder<N>::Attend(const RowBlock* blocks, int32_t num_blocks, int32_t rows) {
  ProfileScope profile(ProfileStage::kAttention);
  const Hidden* query = h_[layers_ - 1];
  attention_.ProjectQueries(rows, query);
  for (int32_t b = 0; b < num_blocks; ++b) {
    const RowBlock& block = blocks[b];
    attention_.AttendProjected(block.slot, block.row_begin, block.rows,
                               query + static_cast<int64_t>(block.row_begin) * hidden_size_,
                               block.step);
  }
}

// h̃_t = tanh(W_c [c_t; h_t]) (tanh(W_c h_t) without attention).
template <class N>
void RnnEncoderDecoder<N>::AttentionalOutput(int32_t rows) {
  ProfileScope profile(ProfileStage::kAttention);
  const int32_t H = hidden_size_;
  const Hidden* top = h_[layers_ - 1];
  const Hidden* input = top;
  if (has_attention()) {
    const int32_t E = context_size_;
    for (int32_t r = 0; r < rows; ++r) {
      Hidden* row = concat_ + static_cast<int64_t>(r) * (E + H);
      memcpy(row, attention_.context() + static_cast<int64_t>(r) * E,
             sizeof(Hidden) * static_cast<size_t>(E));
      memcpy(row + E, top + static_cast<int64_t>(r) * H, sizeof(Hidden) * static_cast<size_t>(H));
    }
    input = concat_;
  }
  Acc* out = acc_ != nullptr ? acc_ : reinterpret_cast<Acc*>(attentional_);
  numerics_.Linear(attn_out_, rows, input, nullptr, out, false);
  numerics_.TanhToHidden(rows * H, out, attentional_);
}

// logits = W_o h̃_t + b_o, then log_softmax per row.
template <class N>
void RnnEncoderDecoder<N>::Generate(int32_t rows) {
  ProfileScope profile(ProfileStage::kOutputProjection);
  const int64_t V = vocab_size_;
  Acc* logits = acc_ != nullptr ? acc_ : reinterpret_cast<Acc*>(log_probs_);
  numerics_.Linear(generator_, rows, attentional_, generator_bias_, logits, false);
  for (int32_t r = 0; r < rows; ++r) {
    numerics_.LogSoftmax(vocab_size_, logits + r * V, exact_log_probs_ + r * V, log_probs_ + r * V);
  }
}

template <class N>
int32_t* RnnEncoderDecoder<N>::log_probs_q16() {
  if constexpr (std::is_same<typename N::LogProb, int32_t>::value) {
    return exact_log_probs_;
  } else {
    return nullptr;
  }
}

template <class N>
void RnnEncoderDecoder<N>::Gather(void* buffer, size_t row_bytes, const int32_t* parents,
                                  int32_t new_rows) {
  unsigned char* bytes = static_cast<unsigned char*>(buffer);
#if defined(EDGENMT_WITH_BATCH)
  // Strictly increasing parents (greedy rows, finished sources dropped) only move rows down:
  // in place, without the scratch, nothing for rows that stay.
  bool increasing = true;
  for (int32_t r = 1; r < new_rows && increasing; ++r) increasing = parents[r] > parents[r - 1];
  if (increasing) {
    for (int32_t r = 0; r < new_rows; ++r) {
      if (parents[r] != r) {
        memcpy(bytes + static_cast<size_t>(r) * row_bytes,
               bytes + static_cast<size_t>(parents[r]) * row_bytes, row_bytes);
      }
    }
    return;
  }
#endif
  for (int32_t r = 0; r < new_rows; ++r) {
    memcpy(gather_ + static_cast<size_t>(r) * row_bytes,
           bytes + static_cast<size_t>(parents[r]) * row_bytes, row_bytes);
  }
  memcpy(bytes, gather_, row_bytes * static_cast<size_t>(new_rows));
}

template <class N>
void RnnEncoderDecoder<N>::Reorder(const int32_t* parents, int32_t new_rows) {
  const size_t H = static_cast<size_t>(hidden_size_);
  for (int32_t l = 0; l < layers_; ++l) {
    Gather(h_[l], sizeof(Hidden) * H, parents, new_rows);
    if (s_[l] != nullptr) Gather(s_[l], sizeof(State) * H, parents, new_rows);
  }
  if (input_feeding_) Gather(attentional_, sizeof(Hidden) * H, parents, new_rows);
  rows_ = new_rows;
}

#if defined(EDGENMT_WITH_FLOAT_SCHEMES)  // CMake EDGENMT_FLOAT_SCHEMES
template class RnnEncoderDecoder<FloatRnnNumerics>;
#endif
template class RnnEncoderDecoder<IntegerRnnNumerics>;

}  // namespace edgenmt
