// The session's decoder: picks the model's implementation of SequenceDecoder once, at Prepare,
// from the file (model type rnn: numeric scheme float32 / int8 hybrid -> RnnEncoderDecoder<
// FloatRnnNumerics>, int8-full -> RnnEncoderDecoder<IntegerRnnNumerics>; transformer: through
// transformer/transformer_factory.h, TransformerEncoderDecoder<TransformerSublayers> or <
// IntegerTransformerSublayers>) and forwards to it. The search and the translator see only the
// SequenceDecoder contract (decoder/sequence_decoder.h).
#ifndef EDGENMT_DECODER_STEP_DECODER_H_
#define EDGENMT_DECODER_STEP_DECODER_H_

#include <stddef.h>
#include <stdint.h>

#include "decoder/activation_observer.h"
#include "decoder/sequence_decoder.h"
#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "rnn/float_rnn_numerics.h"
#include "rnn/integer_rnn_numerics.h"
#include "rnn/rnn_encoder_decoder.h"
#include "transformer/integer_transformer_sublayers.h"
#include "transformer/transformer_encoder_decoder.h"
#include "transformer/transformer_sublayers.h"

namespace edgenmt {

constexpr size_t LargerSize(size_t a, size_t b) { return a > b ? a : b; }

class StepDecoder final : public SequenceDecoder {
 public:
  // `kernels` must outlive the decoder (GetKernelTable returns static tables).
  Status Prepare(const Model& model, const KernelTable* kernels, const DecoderLimits& limits,
                 Arena* arena, ErrorDetail* detail);
  // The same without an output-length limit (enough for the RNN, which keeps none).
  Status Prepare(const Model& model, const KernelTable* kernels, int32_t max_src_len,
                 int32_t max_rows, Arena* arena, ErrorDetail* detail) {
    DecoderLimits limits;
    limits.max_src_len = max_src_len;
    limits.max_rows = max_rows;
    return Prepare(model, kernels, limits, arena, detail);
  }

  // Calibration of int8-full activation formats (decoder/activation_observer.h).
  void set_activation_observer(int32_t* max_abs_raw, const ActivationValueSink* values = nullptr) {
    if (observer_ != nullptr) observer_->set_activation_observer(max_abs_raw, values);
  }

  void Encode(const int32_t* src_ids, int32_t src_len) override {
    active_->Encode(src_ids, src_len);
  }
  void Step(const int32_t* prev_tokens, int32_t rows) override { active_->Step(prev_tokens, rows); }
  void Reorder(const int32_t* parents, int32_t new_rows) override {
    active_->Reorder(parents, new_rows);
  }
  void EncodeSource(int32_t slot, const int32_t* src_ids, int32_t src_len, int32_t row) override {
    active_->EncodeSource(slot, src_ids, src_len, row);
  }
  void EncodeSources(int32_t count, const int32_t* slots, const int32_t* const* src_ids,
                     const int32_t* src_lens, int32_t first_row) override {
    active_->EncodeSources(count, slots, src_ids, src_lens, first_row);
  }
  void StepBlocks(const int32_t* prev_tokens, const RowBlock* blocks, int32_t num_blocks) override {
    active_->StepBlocks(prev_tokens, blocks, num_blocks);
  }
  int32_t attention_row_stride() const override { return active_->attention_row_stride(); }
  float* log_probs() override { return active_->log_probs(); }
  int32_t* log_probs_q16() override { return active_->log_probs_q16(); }
  const float* log_probs() const { return const_cast<StepDecoder*>(this)->active_->log_probs(); }
  const float* attention() const override { return active_->attention(); }
  int32_t rows() const override { return active_->rows(); }
  int32_t src_len() const override { return active_->src_len(); }
  int32_t vocab_size() const override { return active_->vocab_size(); }
  int32_t bos_id() const override { return active_->bos_id(); }
  int32_t eos_id() const override { return active_->eos_id(); }

 private:
  using FloatDecoder = RnnEncoderDecoder<FloatRnnNumerics>;
  using IntegerDecoder = RnnEncoderDecoder<IntegerRnnNumerics>;
  using FloatTransformer = TransformerEncoderDecoder<TransformerSublayers>;
  using IntegerTransformer = TransformerEncoderDecoder<IntegerTransformerSublayers>;
  static constexpr size_t kStorage =
      LargerSize(LargerSize(sizeof(FloatDecoder), sizeof(IntegerDecoder)),
                 LargerSize(sizeof(FloatTransformer), sizeof(IntegerTransformer)));
  // One implementation at a time lives here (placement new at Prepare; all are trivially
  // destructible), so the session holds only the one its model needs.
  alignas(FloatDecoder) alignas(IntegerDecoder) alignas(FloatTransformer) alignas(
      IntegerTransformer) unsigned char storage_[kStorage];
  ActivationObserver* observer_ = nullptr;  // the active decoder's calibration interface
  SequenceDecoder* active_ = nullptr;
};

}  // namespace edgenmt

#endif  // EDGENMT_DECODER_STEP_DECODER_H_
