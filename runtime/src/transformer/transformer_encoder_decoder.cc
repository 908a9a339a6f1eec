#include "transformer/transformer_encoder_decoder.h"

#include <string.h>

#include "profile_scope.h"
#include "transformer/integer_transformer_sublayers.h"
#include "transformer/transformer_sublayers.h"

namespace edgenmt {

template <typename Sub>
Status TransformerEncoderDecoder<Sub>::Prepare(const Model& model, const KernelTable* kernels,
                                               const DecoderLimits& limits, Arena* arena,
                                               ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  const TransformerConfig& t = c.transformer;
  if (kernels == nullptr || limits.max_src_len < 1 || limits.max_rows < 1 ||
      limits.max_tgt_len < 0 || limits.max_sources < 1 ||
      limits.max_rows % limits.max_sources != 0) {
    return detail->Fail(Status::kInvalidArgument,
                        "decoder needs kernels, max_src_len >= 1, "
                        "max_tgt_len >= 0 and max_rows a multiple of max_sources");
  }
  // 0: as long as the model's target positions allow.
  const int32_t max_tgt_len = limits.max_tgt_len == 0 ? t.max_tgt_len : limits.max_tgt_len;
  if (max_tgt_len > t.max_tgt_len) {
    return detail->Fail(Status::kLimitExceeded, "max_tgt_len ", limits.max_tgt_len,
                        " exceeds the model's target positions (max_tgt_len ", t.max_tgt_len, ")");
  }
  if (c.dec_layers > kMaxTransformerLayers) {
    return detail->Fail(Status::kUnsupported, "dec_layers ", c.dec_layers,
                        " out of range (this build supports up to ", kMaxTransformerLayers, ")");
  }
  layers_ = c.dec_layers;
  d_ = t.d_model;
  vocab_size_ = c.tgt_vocab_size;
  max_src_len_ = limits.max_src_len;
  max_tgt_len_ = max_tgt_len;
  max_rows_ = limits.max_rows;
  beam_ = limits.max_rows / limits.max_sources;
  pre_norm_ = t.norm == NormPlacement::kPre;
  const VocabularyView tgt = model.tgt_vocab();
  bos_id_ = tgt.bos_id;
  eos_id_ = tgt.eos_id;
  if (bos_id_ < 0 || bos_id_ >= vocab_size_ || eos_id_ < 0 || eos_id_ >= vocab_size_) {
    return detail->Fail(Status::kModelVocabularyInvalid, "target <s>/</s> ids out of range");
  }
  const size_t longest = max_src_len_ > max_tgt_len_ ? max_src_len_ : max_tgt_len_;
  arena->SetScratchPhase(ScratchPhase::kCommon);
  EDGENMT_RETURN_IF_ERROR(sub_.Prepare(model, kernels, max_rows_, limits.max_sources,
                                       static_cast<int32_t>(longest), arena, detail));
  arena->SetScratchPhase(ScratchPhase::kEncode);
  EDGENMT_RETURN_IF_ERROR(encoder_.Prepare(&sub_, model, max_src_len_, arena, detail));
  arena->SetScratchPhase(ScratchPhase::kStep);
  EDGENMT_RETURN_IF_ERROR(PrepareWeights(model, arena, detail));

  const size_t slots = static_cast<size_t>(limits.max_sources);
  const size_t L = static_cast<size_t>(layers_), D = static_cast<size_t>(d_);
  const size_t S = static_cast<size_t>(max_src_len_), T = static_cast<size_t>(max_tgt_len_);
  const size_t B = static_cast<size_t>(beam_), R = static_cast<size_t>(max_rows_);
  cross_keys_ = arena->AllocateArray<Act>(slots, L, S, D);
  cross_values_ = arena->AllocateArray<Act>(slots, L, S, D);
  self_keys_ = arena->AllocateArray<Act>(slots, L, T, B, D);
  self_values_ = arena->AllocateArray<Act>(slots, L, T, B, D);
  from_ = arena->AllocateArray<int32_t>(slots, T, B);
  slot_src_len_ = arena->AllocateArray<int32_t>(slots);
  last_index_ = arena->AllocateArray<int32_t>(R);
  gather_ = arena->AllocateArray<int32_t>(R);
  const size_t V = static_cast<size_t>(vocab_size_), F = static_cast<size_t>(t.ffn);
  size_t widest = F > D ? F : D;
  widest = V > widest ? V : widest;
  x_ = arena->AllocateScratchArray<Stream>(R, D);
  y_ = arena->AllocateScratchArray<Act>(R, D);
  q_ = arena->AllocateScratchArray<Act>(R, D);
  k_ = arena->AllocateScratchArray<Act>(R, D);
  v_ = arena->AllocateScratchArray<Act>(R, D);
  context_ = arena->AllocateScratchArray<Act>(R, D);
  hidden_ = arena->AllocateScratchArray<Act>(R, F);
  scratch_ = arena->AllocateScratchArray<Acc>(R, widest);
  log_probs_ = arena->AllocateScratchArray<float>(R, V);
  log_probs_q16_ = Sub::kInteger ? arena->AllocateScratchArray<int32_t>(R, V) : nullptr;
  attention_ = arena->AllocateScratchArray<float>(R, S);
  key_rows_ = arena->AllocateScratchArray<const Act*>(longest);
  value_rows_ = arena->AllocateScratchArray<const Act*>(longest);
  position_rows_ = arena->AllocateScratchArray<const Param*>(R);
  rows_ = 0;
  step_ = 0;
  src_len_ = 0;
  return Status::kOk;
}

template <typename Sub>
Status TransformerEncoderDecoder<Sub>::PrepareWeights(const Model& model, Arena* arena,
                                                      ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  const TransformerConfig& t = c.transformer;
  const Sub& n = sub_;
  EDGENMT_RETURN_IF_ERROR(
      n.BindEmbedding(model, "tgt_embed.weight", vocab_size_, d_, arena, &embedding_, detail));
  EDGENMT_RETURN_IF_ERROR(
      n.BindPositions(model, "tgt_pos", t.max_tgt_len, d_, &positions_, detail));
  EDGENMT_RETURN_IF_ERROR(n.BindFormat(model, "decoder.residual", &residual_format_, detail));
  EDGENMT_RETURN_IF_ERROR(n.BindFormat(model, "decoder.output", &output_format_, detail));
  layer_ = arena->AllocateArray<DecoderLayerWeights<Sub>>(static_cast<size_t>(layers_));
  for (int32_t l = 0; l < layers_; ++l) {
    DecoderLayerWeights<Sub>& w = layer_ != nullptr ? layer_[l] : measuring_layer_;
    EDGENMT_RETURN_IF_ERROR(
        BindAttention(n, model, "decoder.", l, ".self_attn", d_, arena, &w.self_attn, detail));
    EDGENMT_RETURN_IF_ERROR(BindLayerNorm(n, model, "decoder.", l, "norm1", d_, &w.norm1, detail));
    EDGENMT_RETURN_IF_ERROR(
        BindAttention(n, model, "decoder.", l, ".cross_attn", d_, arena, &w.cross_attn, detail));
    EDGENMT_RETURN_IF_ERROR(BindLayerNorm(n, model, "decoder.", l, "norm2", d_, &w.norm2, detail));
    EDGENMT_RETURN_IF_ERROR(
        BindFeedForward(n, model, "decoder.", l, d_, t.ffn, arena, &w.ffn, detail));
    EDGENMT_RETURN_IF_ERROR(BindLayerNorm(n, model, "decoder.", l, "norm3", d_, &w.norm3, detail));
  }
  if (pre_norm_) {
    EDGENMT_RETURN_IF_ERROR(
        BindLayerNorm(n, model, "", -1, "decoder_norm", d_, &final_norm_, detail));
  }
  EDGENMT_RETURN_IF_ERROR(n.BindMatrix(model,
                                       t.tie_output ? "tgt_embed.weight" : "generator.weight",
                                       vocab_size_, d_, arena, &generator_, detail));
  return n.BindVector(model, "generator.bias", vocab_size_, &generator_bias_, detail);
}

template <typename Sub>
int64_t TransformerEncoderDecoder<Sub>::CrossOffset(int32_t slot, int32_t layer) const {
  return (static_cast<int64_t>(slot) * layers_ + layer) * max_src_len_ * d_;
}

template <typename Sub>
int64_t TransformerEncoderDecoder<Sub>::SelfOffset(int32_t slot, int32_t layer, int32_t t,
                                                   int32_t k) const {
  return (((static_cast<int64_t>(slot) * layers_ + layer) * max_tgt_len_ + t) * beam_ + k) * d_;
}

template <typename Sub>
int64_t TransformerEncoderDecoder<Sub>::FromOffset(int32_t slot, int32_t t, int32_t k) const {
  return (static_cast<int64_t>(slot) * max_tgt_len_ + t) * beam_ + k;
}

template <typename Sub>
void TransformerEncoderDecoder<Sub>::Encode(const int32_t* src_ids, int32_t src_len) {
  EncodeSource(0, src_ids, src_len, 0);
  rows_ = 1;
  step_ = 0;
}

template <typename Sub>
void TransformerEncoderDecoder<Sub>::EncodeSource(int32_t slot, const int32_t* src_ids,
                                                  int32_t src_len, int32_t row) {
  // Profiled as the encoder by the session, which wraps every encode.
  const Act* memory = encoder_.Encode(src_ids, src_len);
  const ActivationFormat& memory_format = encoder_.memory_format();
  for (int32_t l = 0; l < layers_; ++l) {
    const AttentionWeights<Sub>& w = layer_[l].cross_attn;
    sub_.Project(w.k, w.k_bias, src_len, memory, memory_format, w.k_format,
                 cross_keys_ + CrossOffset(slot, l), encoder_.scratch());
    sub_.Project(w.v, w.v_bias, src_len, memory, memory_format, w.v_format,
                 cross_values_ + CrossOffset(slot, l), encoder_.scratch());
  }
  slot_src_len_[slot] = src_len;
  src_len_ = src_len;
  last_index_[row] = 0;
  rows_ = row + 1 > rows_ ? row + 1 : rows_;
}

template <typename Sub>
void TransformerEncoderDecoder<Sub>::EncodeSources(int32_t count, const int32_t* slots,
                                                   const int32_t* const* src_ids,
                                                   const int32_t* src_lens, int32_t first_row) {
  for (int32_t i = 0; i < count; ++i)
    EncodeSource(slots[i], src_ids[i], src_lens[i], first_row + i);
}

template <typename Sub>
void TransformerEncoderDecoder<Sub>::Step(const int32_t* prev_tokens, int32_t rows) {
  const RowBlock block{0, 0, rows, step_};
  StepBlocks(prev_tokens, &block, 1);
  ++step_;
}

template <typename Sub>
void TransformerEncoderDecoder<Sub>::Reorder(const int32_t* parents, int32_t new_rows) {
  for (int32_t r = 0; r < new_rows; ++r) gather_[r] = last_index_[parents[r]];
  memcpy(last_index_, gather_, sizeof(int32_t) * static_cast<size_t>(new_rows));
  rows_ = new_rows;
}

template <typename Sub>
void TransformerEncoderDecoder<Sub>::SelfAttention(int32_t layer, const RowBlock* blocks,
                                                   int32_t num_blocks) {
  for (int32_t b = 0; b < num_blocks; ++b) {
    const RowBlock& block = blocks[b];
    const int32_t t = block.step;
    for (int32_t i = 0; i < block.rows; ++i) {
      const int32_t r = block.row_begin + i;
      const int64_t row = static_cast<int64_t>(r) * d_;
      // This step's key and value join the cache at (t, i); the chain of beam indices leads
      // from there back to position 0 through `from`.
      const int64_t entry = SelfOffset(block.slot, layer, t, i);
      memcpy(self_keys_ + entry, k_ + row, sizeof(Act) * static_cast<size_t>(d_));
      memcpy(self_values_ + entry, v_ + row, sizeof(Act) * static_cast<size_t>(d_));
      if (layer == 0) from_[FromOffset(block.slot, t, i)] = t > 0 ? last_index_[r] : 0;
    }
  }
  for (int32_t b = 0; b < num_blocks; ++b) {
    const RowBlock& block = blocks[b];
    const int32_t t = block.step;
    for (int32_t i = 0; i < block.rows; ++i) {
      const int32_t r = block.row_begin + i;
      int32_t k = i;
      for (int32_t j = t; j >= 0; --j) {
        const int64_t entry = SelfOffset(block.slot, layer, j, k);
        key_rows_[j] = self_keys_ + entry;
        value_rows_[j] = self_values_ + entry;
        k = from_[FromOffset(block.slot, j, k)];
      }
      const int64_t row = static_cast<int64_t>(r) * d_;
      const AttentionWeights<Sub>& a = layer_[layer].self_attn;
      sub_.Attend(q_ + row, key_rows_, value_rows_, t + 1, a.q_format, a.k_format, context_ + row,
                  nullptr);
    }
  }
}

template <typename Sub>
void TransformerEncoderDecoder<Sub>::CrossAttention(int32_t layer, const RowBlock* blocks,
                                                    int32_t num_blocks, bool last) {
  for (int32_t b = 0; b < num_blocks; ++b) {
    const RowBlock& block = blocks[b];
    const int32_t S = slot_src_len_[block.slot];
    const Act* keys = cross_keys_ + CrossOffset(block.slot, layer);
    const Act* values = cross_values_ + CrossOffset(block.slot, layer);
    for (int32_t s = 0; s < S; ++s) {
      key_rows_[s] = keys + static_cast<int64_t>(s) * d_;
      value_rows_[s] = values + static_cast<int64_t>(s) * d_;
    }
    for (int32_t i = 0; i < block.rows; ++i) {
      const int32_t r = block.row_begin + i;
      const int64_t row = static_cast<int64_t>(r) * d_;
      // A block's weights are [rows, S] contiguous (SequenceDecoder::StepBlocks).
      float* weights = last ? attention_ + static_cast<int64_t>(block.row_begin) * max_src_len_ +
                                  static_cast<int64_t>(i) * S
                            : nullptr;
      const AttentionWeights<Sub>& a = layer_[layer].cross_attn;
      sub_.Attend(q_ + row, key_rows_, value_rows_, S, a.q_format, a.k_format, context_ + row,
                  weights);
    }
  }
}

template <typename Sub>
void TransformerEncoderDecoder<Sub>::StepBlocks(const int32_t* prev_tokens, const RowBlock* blocks,
                                                int32_t num_blocks) {
  ProfileScope step_profile(ProfileStage::kDecoderStep);
  int32_t rows = 0;
  for (int32_t b = 0; b < num_blocks; ++b) {
    for (int32_t i = 0; i < blocks[b].rows; ++i) {
      position_rows_[rows + i] = positions_ + static_cast<int64_t>(blocks[b].step) * d_;
    }
    rows += blocks[b].rows;
  }
  rows_ = rows;
  const Sub& sub = sub_;
  const ActivationFormat& res = residual_format_;
  sub.Embed(rows, prev_tokens, embedding_, position_rows_, res, x_, scratch_);
  for (int32_t l = 0; l < layers_; ++l) {
    const DecoderLayerWeights<Sub>& w = layer_[l];
    {
      ProfileScope profile(ProfileStage::kAttention);
      const AttentionWeights<Sub>& a = w.self_attn;
      const Act* in = sub.Input(rows, x_, w.norm1, res, a.input, y_, scratch_);
      sub.Project(a.q, a.q_bias, rows, in, a.input, a.q_format, q_, scratch_);
      sub.Project(a.k, a.k_bias, rows, in, a.input, a.k_format, k_, scratch_);
      sub.Project(a.v, a.v_bias, rows, in, a.input, a.v_format, v_, scratch_);
      SelfAttention(l, blocks, num_blocks);
      sub.Close(a.out, a.out_bias, rows, context_, a.v_format, x_, w.norm1, res, scratch_);
      const AttentionWeights<Sub>& c = w.cross_attn;
      in = sub.Input(rows, x_, w.norm2, res, c.input, y_, scratch_);
      sub.Project(c.q, c.q_bias, rows, in, c.input, c.q_format, q_, scratch_);
      CrossAttention(l, blocks, num_blocks, l == layers_ - 1);
      sub.Close(c.out, c.out_bias, rows, context_, c.v_format, x_, w.norm2, res, scratch_);
    }
    ProfileScope profile(ProfileStage::kFeedForward);
    const Act* in = sub.Input(rows, x_, w.norm3, res, w.ffn.input, y_, scratch_);
    sub.FeedForwardBlock(rows, w.ffn, in, hidden_, x_, w.norm3, res, scratch_);
  }
  ProfileScope profile(ProfileStage::kOutputProjection);
  const Act* top =
      sub.Output(rows, x_, pre_norm_ ? &final_norm_ : nullptr, res, output_format_, y_, scratch_);
  sub.Generate(generator_, generator_bias_, rows, top, output_format_, scratch_, log_probs_,
               log_probs_q16_);
  for (int32_t b = 0; b < num_blocks; ++b) {
    for (int32_t i = 0; i < blocks[b].rows; ++i) last_index_[blocks[b].row_begin + i] = i;
  }
}

#if defined(EDGENMT_WITH_FLOAT_SCHEMES)  // CMake EDGENMT_FLOAT_SCHEMES
template class TransformerEncoderDecoder<TransformerSublayers>;
#endif
template class TransformerEncoderDecoder<IntegerTransformerSublayers>;

}  // namespace edgenmt
