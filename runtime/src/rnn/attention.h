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

#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"

namespace edgenmt {

template <class N>
class Attention {
 public:
  using Hidden = typename N::Hidden;
  using Acc = typename N::Acc;

  // Must not be called for AttentionType::kNone.
  // max_sources: sources attended at once (a batch), each in its own slot.
  Status Prepare(const N* numerics, const Model& model, int32_t max_src_len, int32_t max_rows,
                 int32_t max_sources, Arena* arena, ErrorDetail* detail);

  // Slot `slot` (< max_sources) attends over states: h̄ [src_len, E] as product inputs and as
  // memory, kept until the slot's next SetSource.
  void SetSource(int32_t slot, const Hidden* states, const typename N::Memory* memory,
                 int32_t src_len);

  // Attends in two parts, so rows of several sources share the products: first what depends
  // on the query alone (the general / concat query projection, local-p's position logit) for
  // rows [0, rows) at once (query: [rows, H], h_t or h_{t-1}^top for bahdanau); then, per
  // block of one source's rows [row_begin, row_begin + rows), the rest over slot `slot`'s
  // source at decoder step `step` (local_m), with query pointing at the block's first row.
  // Fills those rows of weights() and context(). The caller's profile scope covers both.
  void ProjectQueries(int32_t rows, const Hidden* query);
  void AttendProjected(int32_t slot, int32_t row_begin, int32_t rows, const Hidden* query,
                       int32_t step);

  // Row r's weights start at weights() + r * max_src_len and hold that row's source's src_len
  // values (zero outside the window), so the rows of one slot are [rows, src_len] contiguous
  // from their first row (all of them with one slot: the layout of a single sentence).
  const float* weights() const { return float_weights_base_; }
  int32_t max_src_len() const { return max_src_len_; }
  // [rows, E], row r at context() + r * E.
  const Hidden* context() const { return context_base_; }

 private:
  void ComputeWindows(int32_t rows, const Hidden* query, int32_t step);
  void ComputeScores(int32_t rows, const Hidden* query);
  void AdditiveScores(int32_t rows);
  // Points the row buffers below at row `row_begin` and the source at slot `slot`.
  void Select(int32_t slot, int32_t row_begin);

  struct Source {
    const Hidden* states;
    const typename N::Memory* memory;
    int32_t src_len;
  };

  const N* n_ = nullptr;
  AttentionType type_ = AttentionType::kNone;
  ScoreType score_ = ScoreType::kDot;
  int32_t encoder_size_ = 0;  // E
  int32_t attn_hidden_ = 0;   // A
  int32_t window_ = 0;        // D

  typename N::Matrix linear_in_;              // general: [E, H]
  typename N::Matrix query_w_;                // concat/bahdanau: [A, H]
  typename N::Matrix key_w_;                  // concat/bahdanau: [A, E]
  const typename N::BiasT* key_b_ = nullptr;  // bahdanau: [A]
  typename N::Matrix v_;                      // concat/bahdanau: [1, A]
  typename N::Matrix location_w_;             // location: [model max_src_len, H]
  typename N::Matrix predict_w_;              // local_p: [A, H]
  typename N::Matrix predict_v_;              // local_p: [1, A]

  int32_t max_src_len_ = 0;
  Source* sources_ = nullptr;  // [max_sources]
  Source single_source_{};
  Acc* keys_base_ = nullptr;  // [max_sources, max_src, A]
  // Row buffers' first rows ([max_rows, ...] each); the unsuffixed pointers below are the
  // working ones Select() offsets.
  Acc* scores_base_ = nullptr;
  typename N::Weight* weights_base_ = nullptr;
  float* float_weights_base_ = nullptr;
  Hidden* context_base_ = nullptr;
  Acc* query_proj_base_ = nullptr;
  Acc* predict_base_ = nullptr;
  Hidden* predict_hidden_base_ = nullptr;
  Acc* logits_base_ = nullptr;
  typename N::Position* positions_base_ = nullptr;
  int32_t* window_lo_base_ = nullptr;
  int32_t* window_hi_base_ = nullptr;

  const Hidden* states_ = nullptr;
  const typename N::Memory* memory_ = nullptr;
  int32_t src_len_ = 0;

  Acc* scores_ = nullptr;
  typename N::Weight* weights_ = nullptr;
  float* float_weights_ = nullptr;  // weights_ itself when N::Weight is float
  Hidden* context_ = nullptr;
  Acc* query_proj_ = nullptr;
  Acc* keys_ = nullptr;
  Acc* additive_sum_ = nullptr;        // [A]
  Hidden* additive_hidden_ = nullptr;  // [A]
  Acc* predict_ = nullptr;             // [max_rows, A]
  Hidden* predict_hidden_ = nullptr;   // [max_rows, A]
  Acc* logits_ = nullptr;              // [max_rows]
  typename N::Position* positions_ = nullptr;
  int32_t* window_lo_ = nullptr;
  int32_t* window_hi_ = nullptr;
};

}  // namespace edgenmt

#endif  // EDGENMT_RNN_ATTENTION_H_
