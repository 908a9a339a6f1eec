// attend(q) of docs/MODEL.md: scores (dot, general, concat, location, bahdanau's additive),
// window (global, local_m, local_p with its Gaussian), weights a_t and context c_t, batched
// over rows (live hypotheses).
//
// Per sentence, SetSource() keeps a pointer to the encoder states h̄ [S, E] and precomputes
// what does not depend on the query: W_k h̄_s (+ b_k) for concat and bahdanau. general
// projects the query per step (W_a q, [E]) and then dots it with h̄, which is cheaper than
// projecting every h̄_s once when S is longer than the output.
//
// Arena (Prepare): weights [max_rows, max_src], context [max_rows, E], scores [max_rows,
// max_src], query projection [max_rows, E or A], keys [max_src, A] (concat/bahdanau),
// predictor [max_rows, A] and positions [max_rows] (local_p), window bounds [max_rows] x 2.
#ifndef EDGENMT_LAYERS_ATTENTION_H_
#define EDGENMT_LAYERS_ATTENTION_H_

#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "layers/weights.h"

namespace edgenmt {

class Attention {
 public:
  // Must not be called for AttentionType::kNone.
  Status Prepare(const Model& model, int32_t max_src_len, int32_t max_rows, Arena* arena,
                 ErrorDetail* detail);

  // states: h̄ [src_len, E], kept by pointer until the next SetSource.
  void SetSource(const KernelTable& k, const float* states, int32_t src_len);

  // query: [rows, H] (h_t, or h_{t-1}^top for bahdanau); step: decoder step t (local_m).
  // Fills weights() [rows, src_len] (zero outside the window) and context() [rows, E].
  void Attend(const KernelTable& k, int32_t rows, const float* query, int32_t step);

  const float* weights() const { return weights_; }
  const float* context() const { return context_; }
  int32_t context_size() const { return encoder_size_; }

 private:
  void ComputeWindows(const KernelTable& k, int32_t rows, const float* query, int32_t step);
  void ComputeScores(const KernelTable& k, int32_t rows, const float* query);
  void AdditiveScores(const KernelTable& k, int32_t rows);

  AttentionType type_ = AttentionType::kNone;
  ScoreType score_ = ScoreType::kDot;
  int32_t encoder_size_ = 0;  // E
  int32_t query_size_ = 0;    // H
  int32_t attn_hidden_ = 0;   // A
  int32_t window_ = 0;        // D
  int32_t max_src_len_ = 0;

  // Weights (pointers into the model buffer).
  MatrixWeights linear_in_;            // general: [E, H]
  MatrixWeights query_w_;              // concat/bahdanau: [A, H]
  MatrixWeights key_w_;                // concat/bahdanau: [A, E]
  const float* key_b_ = nullptr;       // bahdanau: [A]
  MatrixWeights v_;                    // concat/bahdanau: [1, A]
  MatrixWeights location_w_;           // location: [model max_src_len, H]
  MatrixWeights predict_w_;            // local_p: [A, H]
  MatrixWeights predict_v_;            // local_p: [1, A]

  // Per sentence.
  const float* states_ = nullptr;
  int32_t src_len_ = 0;

  // Arena buffers.
  float* weights_ = nullptr;
  float* context_ = nullptr;
  float* scores_ = nullptr;
  float* query_proj_ = nullptr;
  float* keys_ = nullptr;
  float* hidden_ = nullptr;     // [A] one tanh(W_q q + W_k h̄_s) row
  float* predict_ = nullptr;
  float* positions_ = nullptr;  // p_t per row (local_p)
  int32_t* window_lo_ = nullptr;
  int32_t* window_hi_ = nullptr;
};

}  // namespace edgenmt

#endif  // EDGENMT_LAYERS_ATTENTION_H_
