// The RNN encoder-decoder (docs/MODEL.md), written once and instantiated for both numeric
// schemes: RnnEncoderDecoder<FloatRnnNumerics> runs float32 and int8-hybrid files,
// RnnEncoderDecoder<IntegerRnnNumerics> int8-full files. It owns the encoder and the decoder
// layers, and implements SequenceDecoder, which the search drives.
//
// Row r of every state buffer is hypothesis r: every layer's h (and State), and h̃ for input
// feeding; Reorder gathers them so rows may be duplicated, dropped or permuted, and may grow
// the row count up to max_rows (e.g. from 1 to the beam after the first step).
//
// Prepare does all validation and takes every buffer from the arena; the compute calls only
// compute, never fail and never allocate.
#ifndef EDGENMT_RNN_RNN_ENCODER_DECODER_H_
#define EDGENMT_RNN_RNN_ENCODER_DECODER_H_

#include <stdint.h>

#include "decoder/activation_observer.h"
#include "decoder/sequence_decoder.h"
#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "rnn/integer_rnn_numerics.h"
#include "rnn/layer_limits.h"
#include "rnn/attention.h"
#include "rnn/bridge.h"
#include "rnn/encoder.h"
#include "rnn/recurrent_cell.h"

namespace edgenmt {

template <class N>
class RnnEncoderDecoder final : public SequenceDecoder, public ActivationObserver {
 public:
  using Hidden = typename N::Hidden;
  using State = typename N::State;
  using Acc = typename N::Acc;

  // `kernels` must outlive the decoder (GetKernelTable returns static tables).
  Status Prepare(const Model& model, const KernelTable* kernels, const DecoderLimits& limits,
                 Arena* arena, ErrorDetail* detail);
  N& numerics() { return numerics_; }
  // Calibration: the LSTM cell states (IntegerRnnNumerics::set_cell_observer); float: ignored.
  void set_activation_observer(int32_t* max_abs, const ActivationValueSink*) override {
    SetCellObserver(&numerics_, max_abs);
  }

  void Encode(const int32_t* src_ids, int32_t src_len) override;
  void Step(const int32_t* prev_tokens, int32_t rows) override;
  void Reorder(const int32_t* parents, int32_t new_rows) override;
  void EncodeSource(int32_t slot, const int32_t* src_ids, int32_t src_len, int32_t row) override;
  void EncodeSources(int32_t count, const int32_t* slots, const int32_t* const* src_ids,
                     const int32_t* src_lens, int32_t first_row) override;
  void StepBlocks(const int32_t* prev_tokens, const RowBlock* blocks, int32_t num_blocks) override;
  int32_t attention_row_stride() const override {
    return has_attention() ? attention_.max_src_len() : 0;
  }
  float* log_probs() override { return log_probs_; }
  int32_t* log_probs_q16() override;
  const float* attention() const override {
    return has_attention() ? attention_.weights() : nullptr;
  }
  int32_t rows() const override { return rows_; }
  int32_t src_len() const override { return src_len_; }
  int32_t vocab_size() const override { return vocab_size_; }
  int32_t bos_id() const override { return bos_id_; }
  int32_t eos_id() const override { return eos_id_; }

 private:
  template <typename Numerics>
  static void SetCellObserver(Numerics*, int32_t*) {}
  static void SetCellObserver(IntegerRnnNumerics* n, int32_t* max_abs) {
    n->set_cell_observer(max_abs);
  }
  bool has_attention() const { return attention_type_ != AttentionType::kNone; }
  Status PrepareLayers(const Model& model, const DecoderLimits& limits, Arena* arena,
                       ErrorDetail* detail);
  void Attend(const RowBlock* blocks, int32_t num_blocks, int32_t rows);
  void AttentionalOutput(int32_t rows);
  void Generate(int32_t rows);
  // The bridge's initial state of `source` into row `row`, h̃ zero.
  void InitialState(const typename Bridge<N>::Source& source, int32_t row);
  void Gather(void* buffer, size_t row_bytes, const int32_t* parents, int32_t new_rows);

  N numerics_;
  AttentionType attention_type_ = AttentionType::kNone;
  bool input_feeding_ = false;
  int32_t layers_ = 0;
  int32_t hidden_size_ = 0;
  int32_t context_size_ = 0;  // E with attention, else 0
  int32_t vocab_size_ = 0;
  int32_t max_rows_ = 0;
  int32_t bos_id_ = 0;
  int32_t eos_id_ = 0;

  typename N::Embedding embedding_;  // tgt_embed.weight [V_t, tgt_embed]
  Encoder<N> encoder_;
  Bridge<N> bridge_;
  RecurrentCell<N> cells_[kMaxRuntimeLayers];
  Attention<N> attention_;
  typename N::Matrix attn_out_;   // [H, E + H] (or [H, H] without attention)
  typename N::Matrix generator_;  // [V, H]
  const typename N::BiasT* generator_bias_ = nullptr;

  Hidden* h_[kMaxRuntimeLayers] = {};               // [max_rows, H] per layer
  State* s_[kMaxRuntimeLayers] = {};                // [max_rows, H] per layer where N::HasState
  Hidden* attentional_ = nullptr;                   // h̃: [max_rows, H], h̃_{t-1} during a step
  Hidden* concat_ = nullptr;                        // [max_rows, E + H] with attention
  Hidden* input_scratch_ = nullptr;                 // layer 0 input, N::InputScratchElements
  Acc* gates_ = nullptr;                            // [max_rows, G*H] layer 0
  Acc* acc_ = nullptr;                              // [max_rows, max(H, V)]
  float* log_probs_ = nullptr;                      // [max_rows, V]
  typename N::LogProb* exact_log_probs_ = nullptr;  // [max_rows, V]; log_probs_ when float
  unsigned char* gather_ = nullptr;                 // Reorder scratch: max_rows rows of h or State

  int32_t rows_ = 0;
  int32_t step_ = 0;
  int32_t src_len_ = 0;
};

}  // namespace edgenmt

#endif  // EDGENMT_RNN_RNN_ENCODER_DECODER_H_
