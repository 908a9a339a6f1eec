// attend(q) of docs/MODEL.md, written once for both numeric schemes: window (global, local_m,
// local_p with its Gaussian), scores (dot, general, concat, location, bahdanau's additive),
// weights a_t and context c_t, batched over rows (live hypotheses). The scheme-specific
// arithmetic (score scaling, softmax, p_t) is N's.
//
// Per sentence, SetSource() keeps pointers to the encoder's states and precomputes what does
// not depend on the query: W_k h̄_s (+ b_k) for concat and bahdanau. general projects the query
// per step (W_a q) and dots it with h̄, cheaper than projecting every h̄_s when S is longer
// than the output.
//
// Arena (Prepare): scores and weights [max_rows, max_src] (plus float weights for the search
// when N's weights are not float), context [max_rows, E], query projection [max_rows, E or A],
// keys [max_src, A] and one additive row [A] (concat/bahdanau), predictor [max_rows, A],
// logits and positions [max_rows] (local_p), window bounds [max_rows] x 2.
#ifndef EDGENMT_RNN_ATTENTION_H_
#define EDGENMT_RNN_ATTENTION_H_

#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"

namespace edgenmt {

template <class N>
class Attention {
 public:
  using Hidden = typename N::Hidden;
  using Acc = typename N::Acc;

  // Must not be called for AttentionType::kNone.
  Status Prepare(const N* numerics, const Model& model, int32_t max_src_len, int32_t max_rows,
                 Arena* arena, ErrorDetail* detail);

  // states: h̄ [src_len, E] as product inputs and as memory, kept until the next SetSource.
  void SetSource(const Hidden* states, const typename N::Memory* memory, int32_t src_len);

  // query: [rows, H] (h_t, or h_{t-1}^top for bahdanau); step: decoder step t (local_m).
  // Fills weights() [rows, src_len] (zero outside the window) and context() [rows, E].
  void Attend(int32_t rows, const Hidden* query, int32_t step);

  const float* weights() const { return float_weights_; }
  const Hidden* context() const { return context_; }

 private:
  void ComputeWindows(int32_t rows, const Hidden* query, int32_t step);
  void ComputeScores(int32_t rows, const Hidden* query);
  void AdditiveScores(int32_t rows);

  const N* n_ = nullptr;
  AttentionType type_ = AttentionType::kNone;
  ScoreType score_ = ScoreType::kDot;
  int32_t encoder_size_ = 0;  // E
  int32_t attn_hidden_ = 0;   // A
  int32_t window_ = 0;        // D

  typename N::Matrix linear_in_;  // general: [E, H]
  typename N::Matrix query_w_;    // concat/bahdanau: [A, H]
  typename N::Matrix key_w_;      // concat/bahdanau: [A, E]
  const typename N::BiasT* key_b_ = nullptr;  // bahdanau: [A]
  typename N::Matrix v_;          // concat/bahdanau: [1, A]
  typename N::Matrix location_w_; // location: [model max_src_len, H]
  typename N::Matrix predict_w_;  // local_p: [A, H]
  typename N::Matrix predict_v_;  // local_p: [1, A]

  const Hidden* states_ = nullptr;
  const typename N::Memory* memory_ = nullptr;
  int32_t src_len_ = 0;

  Acc* scores_ = nullptr;
  typename N::Weight* weights_ = nullptr;
  float* float_weights_ = nullptr;  // weights_ itself when N::Weight is float
  Hidden* context_ = nullptr;
  Acc* query_proj_ = nullptr;
  Acc* keys_ = nullptr;
  Acc* additive_sum_ = nullptr;       // [A]
  Hidden* additive_hidden_ = nullptr; // [A]
  Acc* predict_ = nullptr;            // [max_rows, A]
  Hidden* predict_hidden_ = nullptr;  // [max_rows, A]
  Acc* logits_ = nullptr;             // [max_rows]
  typename N::Position* positions_ = nullptr;
  int32_t* window_lo_ = nullptr;
  int32_t* window_hi_ = nullptr;
};

}  // namespace edgenmt

#endif  // EDGENMT_RNN_ATTENTION_H_
