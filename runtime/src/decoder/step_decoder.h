// The step-wise seq2seq decoder (CTranslate2 style): encode a source once, then advance any
// number of live hypotheses ("rows") one token at a time; search lives outside (search/).
//
//   decoder.Encode(src, S);                  // one row: the initial hypothesis
//   decoder.Step(prev_tokens, rows);         // -> log_probs() [rows, V], attention() [rows, S]
//   decoder.Reorder(parents, new_rows);      // row r continues old row parents[r]
//
// Row r of every state buffer is hypothesis r. Step t (0-based) feeds the previous token of
// each row (the first step feeds <s>). Reorder gathers all per-row states (every layer's h and
// c, and h̃ for input feeding) so rows may be duplicated, dropped or permuted; it may grow the
// row count up to max_rows (e.g. from 1 to the beam after the first step).
//
// Prepare() does all validation and takes every buffer from the arena; Encode/Step/Reorder
// only compute, never fail and never allocate. Callers validate ids (source ids in
// [0, V_src), previous tokens in [0, V_tgt)), 1 <= S <= max_src_len and rows <= max_rows.
#ifndef EDGENMT_DECODER_STEP_DECODER_H_
#define EDGENMT_DECODER_STEP_DECODER_H_

#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "layers/weights.h"
#include "decoder/integer_decoder.h"
#include "layers/attention.h"
#include "layers/attentional_output.h"
#include "layers/bridge.h"
#include "layers/encoder.h"
#include "layers/generator.h"
#include "layers/layer_limits.h"
#include "layers/recurrent_cell.h"

namespace edgenmt {

class StepDecoder {
 public:
  // `kernels` must outlive the decoder (GetKernelTable returns static tables).
  Status Prepare(const Model& model, const KernelTable* kernels, int32_t max_src_len,
                 int32_t max_rows, Arena* arena, ErrorDetail* detail);

  // Runs the encoder and sets one row to the decoder's initial state (bridge or zeros,
  // h̃_{-1} = 0); the step counter restarts at 0.
  void Encode(const int32_t* src_ids, int32_t src_len);

  // Advances `rows` hypotheses by one token: prev_tokens[r] is row r's previous output (bos
  // at step 0). rows must equal the current row count (1 after Encode, else the last
  // Reorder's count).
  void Step(const int32_t* prev_tokens, int32_t rows);

  // New row r takes the state of current row parents[r] (parents[r] < rows()); new_rows <=
  // max_rows. Also the way to grow the single initial row to the beam.
  void Reorder(const int32_t* parents, int32_t new_rows);

  // Natural-log probabilities of the last Step: [rows, V], row-major. Writable so a search may
  // mask entries in place (e.g. </s> before min_len); valid until the next Step.
  float* log_probs() { return log_probs_; }
  const float* log_probs() const { return log_probs_; }
  // Attention weights a_t of the last Step: [rows, src_len] (zero outside local windows);
  // null for attention "none". Valid until the next Step.
  const float* attention() const;

  bool has_attention() const { return attention_type_ != AttentionType::kNone; }
  int32_t rows() const { return rows_; }
  int32_t step() const { return step_; }
  int32_t src_len() const { return src_len_; }
  int32_t vocab_size() const { return vocab_size_; }
  int32_t max_rows() const { return max_rows_; }
  int32_t bos_id() const { return bos_id_; }
  int32_t eos_id() const { return eos_id_; }

 private:
  void Gather(float* buffer, int32_t width, const int32_t* parents, int32_t new_rows);

  const KernelTable* k_ = nullptr;
  AttentionType attention_type_ = AttentionType::kNone;
  bool lstm_ = false;
  bool input_feeding_ = false;
  int32_t layers_ = 0;
  int32_t hidden_size_ = 0;
  int32_t embed_size_ = 0;
  int32_t input_size_ = 0;  // decoder layer 0 input width
  int32_t vocab_size_ = 0;
  int32_t max_rows_ = 0;
  int32_t bos_id_ = 0;
  int32_t eos_id_ = 0;
  MatrixWeights embedding_;  // tgt_embed.weight [V_t, tgt_embed]

  Encoder encoder_;
  Bridge bridge_;
  RecurrentCell cells_[kMaxRuntimeLayers];
  Attention attention_;
  AttentionalOutput attentional_output_;
  Generator generator_;
  // int8-full models (docs/INT8.md): everything runs in integer_decoder_.
  bool integer_ = false;
  IntegerDecoder integer_decoder_;
  float* integer_attention_ = nullptr;  // [max_rows, max_src_len]

  float* h_[kMaxRuntimeLayers] = {};  // [max_rows, H] per layer
  float* c_[kMaxRuntimeLayers] = {};  // [max_rows, H] per layer (LSTM)
  float* attentional_ = nullptr;    // h̃: [max_rows, H], h̃_{t-1} during a step
  float* input_ = nullptr;          // layer-0 input [max_rows, input_size_]
  float* log_probs_ = nullptr;      // [max_rows, V]
  float* gather_ = nullptr;         // [max_rows, max(H)] Reorder scratch

  int32_t rows_ = 0;
  int32_t step_ = 0;
  int32_t src_len_ = 0;
};

}  // namespace edgenmt

#endif  // EDGENMT_DECODER_STEP_DECODER_H_
