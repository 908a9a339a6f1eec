// The arithmetic both Transformer stacks share (docs/MODEL.md "Transformer"): sublayer input and
// residual for pre- or post-norm, the feed-forward block, scaled embeddings and multi-head
// attention of one query row. Float activations; the products go through FloatNumerics, so
// float32 and int8-hybrid files share this code. Compute calls never fail and never allocate.
#ifndef EDGENMT_TRANSFORMER_TRANSFORMER_SUBLAYERS_H_
#define EDGENMT_TRANSFORMER_TRANSFORMER_SUBLAYERS_H_

#include <stdint.h>

#include "edgenmt/model.h"
#include "numerics/float_numerics.h"
#include "transformer/transformer_weights.h"

namespace edgenmt {

// PyTorch's nn.LayerNorm default, the reference's LAYER_NORM_EPS.
constexpr float kTransformerLayerNormEps = 1e-5f;

class TransformerSublayers {
 public:
  // `numerics` must outlive this object; its kernel table must have layer_norm_f32 and the
  // activation (the decoder checks at Prepare).
  void Init(const FloatNumerics* numerics, const TransformerConfig& config);

  int32_t d_model() const { return d_; }
  int32_t ffn() const { return ffn_; }
  const FloatNumerics& numerics() const { return *n_; }

  // The input of a sublayer over `rows` rows of x [rows, d]: LN(x) into y (pre-norm) or x
  // itself (post-norm).
  const float* Input(int32_t rows, const float* x, const LayerNormWeights& norm, float* y) const;
  // Closes a sublayer whose output is o: x += o (pre-norm) or x = LN(x + o) (post-norm).
  void Residual(int32_t rows, float* x, const float* o, const LayerNormWeights& norm) const;
  // y = LN(x) row by row (y may be x).
  void Norm(int32_t rows, const float* x, const LayerNormWeights& norm, float* y) const;
  // out = linear2(act(linear1(y))); hidden: [rows, ffn] scratch.
  void FeedForward(int32_t rows, const FeedForwardWeights& w, const float* y, float* hidden,
                   float* out) const;
  // out[r] = table[ids[r]] * sqrt(d) + positions[r] (positions: one [d] row per r).
  void Embed(int32_t rows, const int32_t* ids, const FloatNumerics::Matrix& table,
             const float* const* positions, float* out) const;
  // out [d] = concat over heads of softmax(q_h . k_h(j) / sqrt(d_head)) . v_h(j), j < n, from
  // key / value rows keys[j], values[j] ([d] each). scores: [2 n] scratch. mean_weights (n
  // values, or null) receives the weights averaged over the heads.
  void Attend(const float* q, const float* const* keys, const float* const* values, int32_t n,
              float* scores, float* out, float* mean_weights) const;

 private:
  const FloatNumerics* n_ = nullptr;
  int32_t d_ = 0;
  int32_t heads_ = 0;
  int32_t d_head_ = 0;
  int32_t ffn_ = 0;
  bool pre_norm_ = true;
  bool gelu_ = false;
  float embed_scale_ = 1.0f;  // float32(sqrt(d)), as the reference multiplies
  float score_divisor_ = 1.0f;  // float32(sqrt(d_head)), as the reference divides
};

}  // namespace edgenmt

#endif  // EDGENMT_TRANSFORMER_TRANSFORMER_SUBLAYERS_H_
