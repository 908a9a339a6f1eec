// The Transformer encoder-decoder (docs/MODEL.md "Transformer") behind SequenceDecoder, written
// once over the scheme's sublayer arithmetic `Sub`: TransformerSublayers (float32, int8
// hybrid) or IntegerTransformerSublayers (int8-full: int8 caches, Q15.16 log-probs).
//
// Caches, all in the persistent arena and sized exactly at Prepare:
//   * cross-attention keys and values: per slot (source) and decoder layer [max_src_len, d],
//     computed once per source from the encoder output and read by every beam of that source
//     (never copied on reorder);
//   * self-attention keys and values: per slot, layer and step t < max_tgt_len, one [d] row per
//     beam index k < beam (max_rows / max_sources): the entry (t, k) is written by the
//     hypothesis that held beam index k at step t. Reorder copies no cache: each entry records
//     the beam index its hypothesis had at step t - 1 (`from`), and a step walks that chain
//     back to position 0.
// attention() is the last decoder layer's cross-attention weights averaged over its heads.
//
// Prepare does all validation and takes every buffer from the arena; the compute calls only
// compute, never fail and never allocate.
#ifndef EDGENMT_TRANSFORMER_TRANSFORMER_ENCODER_DECODER_H_
#define EDGENMT_TRANSFORMER_TRANSFORMER_ENCODER_DECODER_H_

#include <stdint.h>

#include "decoder/activation_observer.h"
#include "decoder/sequence_decoder.h"
#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "transformer/transformer_encoder.h"
#include "transformer/transformer_weights.h"

namespace edgenmt {

template <typename Sub>
class TransformerEncoderDecoder final : public SequenceDecoder, public ActivationObserver {
 public:
  using Act = typename Sub::Act;

  // `kernels` must outlive the decoder. kLimitExceeded when limits.max_tgt_len exceeds the
  // model's target positions (config.transformer.max_tgt_len).
  Status Prepare(const Model& model, const KernelTable* kernels, const DecoderLimits& limits,
                 Arena* arena, ErrorDetail* detail);

  void Encode(const int32_t* src_ids, int32_t src_len) override;
  void Step(const int32_t* prev_tokens, int32_t rows) override;
  void Reorder(const int32_t* parents, int32_t new_rows) override;
  void EncodeSource(int32_t slot, const int32_t* src_ids, int32_t src_len, int32_t row) override;
  void EncodeSources(int32_t count, const int32_t* slots, const int32_t* const* src_ids,
                     const int32_t* src_lens, int32_t first_row) override;
  void StepBlocks(const int32_t* prev_tokens, const RowBlock* blocks, int32_t num_blocks) override;
  int32_t attention_row_stride() const override { return max_src_len_; }
  float* log_probs() override { return log_probs_; }
  int32_t* log_probs_q16() override { return log_probs_q16_; }
  // Calibration (int8-full): see IntegerTransformerSublayers::set_observer.
  void set_activation_observer(int32_t* max_abs_q20, const ActivationValueSink* values) override {
    sub_.set_observer(max_abs_q20, values);
  }
  const float* attention() const override { return attention_; }
  int32_t rows() const override { return rows_; }
  int32_t src_len() const override { return src_len_; }
  int32_t vocab_size() const override { return vocab_size_; }
  int32_t bos_id() const override { return bos_id_; }
  int32_t eos_id() const override { return eos_id_; }

 private:
  Status PrepareWeights(const Model& model, Arena* arena, ErrorDetail* detail);
  // Offsets into the caches.
  int64_t CrossOffset(int32_t slot, int32_t layer) const;
  int64_t SelfOffset(int32_t slot, int32_t layer, int32_t t, int32_t k) const;
  int64_t FromOffset(int32_t slot, int32_t t, int32_t k) const;
  // Self-attention of every row of the blocks in `layer` (q_, k_, v_ hold the projections).
  void SelfAttention(int32_t layer, const RowBlock* blocks, int32_t num_blocks);
  void CrossAttention(int32_t layer, const RowBlock* blocks, int32_t num_blocks, bool last);

  using Stream = typename Sub::Stream;
  using Acc = typename Sub::Acc;
  using Param = typename Sub::Param;

  Sub sub_;
  TransformerEncoder<Sub> encoder_;
  int32_t layers_ = 0;
  int32_t d_ = 0;
  int32_t vocab_size_ = 0;
  int32_t max_src_len_ = 0;
  int32_t max_tgt_len_ = 0;
  int32_t max_rows_ = 0;
  int32_t beam_ = 0;  // rows per slot: max_rows / max_sources
  int32_t bos_id_ = 0;
  int32_t eos_id_ = 0;
  bool pre_norm_ = true;

  typename Sub::Matrix embedding_;    // tgt_embed.weight [V, d]
  const Param* positions_ = nullptr;  // tgt_pos [max_tgt_len (model), d]
  // Per layer, in the persistent arena (the session object stays small for RNN models too);
  // a measuring or too small arena binds each layer into measuring_layer_ instead, so the same
  // checks run.
  DecoderLayerWeights<Sub>* layer_ = nullptr;
  DecoderLayerWeights<Sub> measuring_layer_;
  LayerNormWeights<Sub> final_norm_;  // pre-norm only
  typename Sub::Matrix generator_;    // generator.weight, or tgt_embed.weight when tied
  const Param* generator_bias_ = nullptr;
  ActivationFormat residual_format_;
  ActivationFormat output_format_;

  // Persistent.
  Act* cross_keys_ = nullptr;        // [slots, layers, max_src_len, d]
  Act* cross_values_ = nullptr;      // same
  Act* self_keys_ = nullptr;         // [slots, layers, max_tgt_len, beam, d]
  Act* self_values_ = nullptr;       // same
  int32_t* from_ = nullptr;          // [slots, max_tgt_len, beam]
  int32_t* slot_src_len_ = nullptr;  // [slots]
  int32_t* last_index_ = nullptr;    // [max_rows]: beam index of the row's latest position
  int32_t* gather_ = nullptr;        // [max_rows] Reorder scratch
  // Step scratch.
  Stream* x_ = nullptr;                    // [rows, d] residual stream
  Act* y_ = nullptr;                       // [rows, d]
  Act* q_ = nullptr;                       // [rows, d]
  Act* k_ = nullptr;                       // [rows, d]
  Act* v_ = nullptr;                       // [rows, d]
  Act* context_ = nullptr;                 // [rows, d]
  Act* hidden_ = nullptr;                  // [rows, ffn]
  Acc* scratch_ = nullptr;                 // [rows, max(d, ffn, V)]: products' outputs, logits
  float* log_probs_ = nullptr;             // [rows, V]
  int32_t* log_probs_q16_ = nullptr;       // [rows, V], int8-full only
  float* attention_ = nullptr;             // [rows, max_src_len]
  const Act** key_rows_ = nullptr;         // [max(max_src_len, max_tgt_len)]
  const Act** value_rows_ = nullptr;       // same
  const Param** position_rows_ = nullptr;  // [rows]

  int32_t rows_ = 0;
  int32_t step_ = 0;
  int32_t src_len_ = 0;
};

}  // namespace edgenmt

#endif  // EDGENMT_TRANSFORMER_TRANSFORMER_ENCODER_DECODER_H_
