// The Transformer's encoder stack over one source: scaled embeddings plus positions, then per
// layer self-attention over every source position and the feed-forward block (pre- or
// post-norm), and the final norm of a pre-norm stack. Its output feeds the decoder's
// cross-attention keys and values (transformer_encoder_decoder.h), which are computed from it once
// per source. Written once over the scheme's sublayer arithmetic `Sub` (transformer_weights.h).
#ifndef EDGENMT_TRANSFORMER_TRANSFORMER_ENCODER_H_
#define EDGENMT_TRANSFORMER_TRANSFORMER_ENCODER_H_

#include <stdint.h>

#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "transformer/transformer_weights.h"

namespace edgenmt {

template <typename Sub>
class TransformerEncoder {
 public:
  using Act = typename Sub::Act;

  // Binds the encoder's tensors and formats and takes its scratch (the arena's current phase)
  // for sources up to max_src_len. `sub` must outlive the encoder.
  Status Prepare(const Sub* sub, const Model& model, int32_t max_src_len, Arena* arena,
                 ErrorDetail* detail);
  // Encodes src_ids[0, S) (ids in range, 1 <= S <= max_src_len); returns the top outputs
  // [S, d] (the memory format's int8 in int8-full), valid until the next Encode or until
  // another scratch phase is used.
  const Act* Encode(const int32_t* src_ids, int32_t S);
  const ActivationFormat& memory_format() const { return memory_format_; }
  // [max_src_len, max(d, ffn)] products' scratch in the encode phase: free once Encode
  // returns, while its output is still valid (the decoder's cross-attention projections use it).
  typename Sub::Acc* scratch() const { return scratch_; }

 private:
  using Stream = typename Sub::Stream;
  using Acc = typename Sub::Acc;
  using Param = typename Sub::Param;

  const Sub* sub_ = nullptr;
  int32_t layers_ = 0;
  bool pre_norm_ = true;
  typename Sub::Matrix embedding_;    // src_embed.weight [V_src, d]
  const Param* positions_ = nullptr;  // src_pos [max_src_len, d]
  // Per layer, in the persistent arena; measuring_layer_ when the arena has no memory for them
  // (the same checks run).
  EncoderLayerWeights<Sub>* layer_ = nullptr;
  EncoderLayerWeights<Sub> measuring_layer_;
  LayerNormWeights<Sub> final_norm_;  // pre-norm only
  ActivationFormat residual_format_;
  ActivationFormat memory_format_;

  Stream* x_ = nullptr;                    // [S, d] the residual stream
  Act* y_ = nullptr;                       // [S, d] a sublayer's input
  Act* q_ = nullptr;                       // [S, d]
  Act* k_ = nullptr;                       // [S, d]
  Act* v_ = nullptr;                       // [S, d]
  Act* context_ = nullptr;                 // [S, d] attention output before out_proj
  Act* hidden_ = nullptr;                  // [S, ffn]
  Acc* scratch_ = nullptr;                 // [S, max(d, ffn)]
  const Act** rows_ = nullptr;             // [2 S] key then value row pointers
  const Param** position_rows_ = nullptr;  // [S]
};

}  // namespace edgenmt

#endif  // EDGENMT_TRANSFORMER_TRANSFORMER_ENCODER_H_
