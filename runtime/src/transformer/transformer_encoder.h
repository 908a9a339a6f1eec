// The Transformer's encoder stack over one source: scaled embeddings plus positions, then per
// layer self-attention over every source position and the feed-forward block (pre- or
// post-norm), and the final norm of a pre-norm stack. Its output feeds the decoder's
// cross-attention keys and values (transformer_decoder.h), which are computed from it once per
// source.
#ifndef EDGENMT_TRANSFORMER_TRANSFORMER_ENCODER_H_
#define EDGENMT_TRANSFORMER_TRANSFORMER_ENCODER_H_

#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "transformer/transformer_sublayers.h"
#include "transformer/transformer_weights.h"

namespace edgenmt {

class TransformerEncoder {
 public:
  // Binds the encoder's tensors and takes its scratch (the arena's current phase) for sources
  // up to max_src_len. `sublayers` must outlive the encoder.
  Status Prepare(const TransformerSublayers* sublayers, const Model& model, int32_t max_src_len,
                 Arena* arena, ErrorDetail* detail);
  // Encodes src_ids[0, S) (ids in range, 1 <= S <= max_src_len); returns the top outputs
  // [S, d], valid until the next Encode or until another scratch phase is used.
  const float* Encode(const int32_t* src_ids, int32_t S);

 private:
  const TransformerSublayers* sub_ = nullptr;
  int32_t layers_ = 0;
  bool pre_norm_ = true;
  FloatNumerics::Matrix embedding_;  // src_embed.weight [V_src, d]
  const float* positions_ = nullptr;  // src_pos [max_src_len, d]
  // Per layer, in the persistent arena; measuring_layer_ when the arena has no memory for them
  // (the same checks run).
  EncoderLayerWeights* layer_ = nullptr;
  EncoderLayerWeights measuring_layer_;
  LayerNormWeights final_norm_;  // pre-norm only

  float* x_ = nullptr;       // [S, d] the residual stream
  float* y_ = nullptr;       // [S, d] a sublayer's (normed) input
  float* q_ = nullptr;       // [S, d]
  float* k_ = nullptr;       // [S, d]
  float* v_ = nullptr;       // [S, d]
  float* context_ = nullptr;  // [S, d] attention output before out_proj
  float* out_ = nullptr;     // [S, d] a sublayer's output
  float* hidden_ = nullptr;  // [S, ffn]
  float* scores_ = nullptr;  // [2 S]
  const float** rows_ = nullptr;  // [2 S] key then value row pointers
};

}  // namespace edgenmt

#endif  // EDGENMT_TRANSFORMER_TRANSFORMER_ENCODER_H_
