// The int8-full decoder (docs/INT8.md "int8-full"): encoder, bridge, decoder cells, attention
// and generator computed with integers only, behind the same Encode / Step / Reorder contract
// as StepDecoder, which delegates to it for kInt8Full models. Results are bit-identical on every
// target; the only float values are the outputs handed to the search (exact images of the
// Q15.16 log-probs and Q0.15 attention weights).
//
// Supported: LSTM and GRU, any layer count, bidirectional, reverse_source, bridge, input
// feeding, attention none / global / local_m / local_p with dot / general / concat / location
// scores, and bahdanau.
//
// Prepare takes every buffer from the arena (including the per-row requantization multipliers
// it derives from the file's float scales with integer operations only); the compute calls
// never allocate and never fail.
#ifndef EDGENMT_DECODER_INTEGER_DECODER_H_
#define EDGENMT_DECODER_INTEGER_DECODER_H_

#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "decoder/integer_ops.h"
#include "layers/layer_limits.h"

namespace edgenmt {

class IntegerDecoder {
 public:
  Status Prepare(const Model& model, int32_t max_src_len, int32_t max_rows, Arena* arena,
                 ErrorDetail* detail);

  // Encodes and sets one row to the initial decoder state.
  void Encode(const int32_t* src_ids, int32_t src_len);
  // Advances `rows` rows by one token at decoder step `step`; writes log_probs [rows, V] and,
  // when non-null and the model has attention, attention [rows, src_len].
  void Step(const int32_t* prev_tokens, int32_t rows, int32_t step, float* log_probs,
            float* attention);
  // Row r takes the state of row parents[r].
  void Reorder(const int32_t* parents, int32_t rows, int32_t new_rows);

  // Calibration (the converter, docs/INT8.md "Calibration"): when non-null, every LSTM step
  // raises max_abs_raw[i] to the largest |c| (raw int16 in that cell's format) of cell i, cells
  // numbered in ExpectedActivations() order. Null (the default) costs nothing.
  void set_cell_observer(int32_t* max_abs_raw) { cell_observer_ = max_abs_raw; }

 private:
  struct Cell {
    IntMatrix w_ih;         // input part (layer 0 of the decoder: the embedding columns)
    IntMatrix w_ih_hidden;  // decoder layer 0 with input feeding: the h~ columns (scale 1)
    IntMatrix w_hh;         // scale 1, used with shift offset -7 (h is s8 @ 2^-7)
    const int32_t* b_ih = nullptr;  // Q11.20
    const int32_t* b_hh = nullptr;
    int32_t cell_int_bits = 4;      // LSTM cell state Q(m).(15 - m)
    int32_t observer_index = 0;     // position in ExpectedActivations()
  };
  void Observe(const Cell& cell, const int16_t* state, int32_t n);
  int32_t* cell_observer_ = nullptr;

  Status PrepareCell(const Model& model, const char* prefix, const char* suffix,
                     const char* format_name, int32_t input_size, uint32_t input_scale_bits,
                     bool first_layer, Cell* cell, Arena* arena, ErrorDetail* detail);
  // One recurrent step for `rows` rows: gates_x [rows, G*H] Q11.20 (input part incl. b_ih),
  // h8 [rows, H] s8 previous/new h, c16 [rows, H] LSTM cell or GRU state.
  void CellStep(const Cell& cell, int32_t rows, int32_t* gates_x, int8_t* h8, int32_t h_stride,
                int16_t* state16, int16_t* h16 = nullptr);
  void Attend(int32_t rows, const int8_t* query, int32_t step, float* attention_out);
  // v . tanh(W_q q + keys_s) for s in [lo, hi] into scores_ (Q11.20).
  void AdditiveScores(const int8_t* query, int32_t lo, int32_t hi);

  bool lstm_ = true;
  int32_t hidden_ = 0;        // decoder H
  int32_t enc_hidden_ = 0;
  int32_t enc_layers_ = 0;
  int32_t dec_layers_ = 0;
  int32_t E_ = 0;
  int32_t gates_ = 0;         // G * H (decoder)
  int32_t enc_gates_ = 0;
  bool bidirectional_ = false;
  bool reverse_source_ = false;
  bool bridge_ = false;
  bool input_feeding_ = false;
  AttentionType attention_ = AttentionType::kNone;
  ScoreType score_ = ScoreType::kDot;
  int32_t attn_hidden_ = 0;
  int32_t window_ = 0;
  int32_t vocab_ = 0;
  int32_t src_embed_ = 0;
  int32_t tgt_embed_ = 0;
  int32_t max_rows_ = 0;
  int32_t max_src_len_ = 0;

  IntEmbedding src_embedding_, tgt_embedding_;
  Cell enc_fwd_[kMaxRuntimeLayers], enc_bwd_[kMaxRuntimeLayers], dec_[kMaxRuntimeLayers];
  IntMatrix bridge_h_[kMaxRuntimeLayers], bridge_c_[kMaxRuntimeLayers];
  const int32_t* bridge_h_b_[kMaxRuntimeLayers] = {};
  const int32_t* bridge_c_b_[kMaxRuntimeLayers] = {};
  IntMatrix linear_in_, location_, predict_w_, predict_v_, attn_out_, generator_;
  IntMatrix query_w_, key_w_, v_;           // additive scores (concat, bahdanau)
  const int32_t* key_b_ = nullptr;          // bahdanau's key bias, Q11.20
  const int32_t* generator_b_ = nullptr;

  // Encoder buffers.
  int32_t src_len_ = 0;
  int32_t* ids_ = nullptr;          // [max_src]
  int8_t* embedded_ = nullptr;      // [max_src, src_embed]
  int8_t* layer_out_[2] = {};       // [max_src, E]
  int32_t* enc_gates_x_ = nullptr;  // [max_src, G * enc_hidden]
  int16_t* enc_state_ = nullptr;    // [enc_hidden]
  int16_t* final_c_ = nullptr;      // [E] top layer final cell states, each half in its format
  int8_t* final_h_ = nullptr;       // [E]
  int8_t* final_c8_ = nullptr;      // [E] bridge input
  const int8_t* states_ = nullptr;  // h̄ [S, E] s8 @ 2^-7 (inputs of products)
  int16_t* states16_ = nullptr;     // h̄ [max_src, E] Q0.15 (attention scores and context)
  int16_t* query16_ = nullptr;      // [E] W_a q, int16 with a per-step power-of-two scale
  int32_t* keys_ = nullptr;         // [max_src, A] W_k h̄_s (+ b_k) in Q11.20 (additive scores)
  int32_t* query_proj_ = nullptr;   // [A] W_q q in Q11.20 (additive scores)

  // Decoder state, per row.
  int8_t* h8_[kMaxRuntimeLayers] = {};     // [max_rows, H]
  int16_t* s16_[kMaxRuntimeLayers] = {};   // [max_rows, H] LSTM c / GRU h
  int8_t* htilde_ = nullptr;               // [max_rows, H]
  // Step scratch.
  int8_t* embed_rows_ = nullptr;   // [max_rows, tgt_embed]
  int32_t* gates_x_ = nullptr;     // [max_rows, G*H]
  int32_t* gates_h_ = nullptr;     // [G*H]
  int16_t* gates16_ = nullptr;     // [2 * G*H]
  int32_t* wide_ = nullptr;        // [max(E, A, V, max_src, H)] Q11.20
  int16_t* narrow_ = nullptr;      // [max(A, H)]
  int8_t* query8_ = nullptr;       // [max(E, A)]
  int32_t* scores_ = nullptr;      // [max_src]
  int16_t* weights_ = nullptr;     // [max_src]
  int8_t* concat_ = nullptr;       // [max_rows, E + H]
  int32_t* logprobs_ = nullptr;    // [V]
  int8_t* gather8_ = nullptr;      // [max_rows * H]
  int16_t* gather16_ = nullptr;    // [max_rows * H]
};

}  // namespace edgenmt

#endif  // EDGENMT_DECODER_INTEGER_DECODER_H_
