// The Transformer's weights (docs/MODEL.md "Transformer"), bound by name at Prepare: pointers
// into the model buffer (float32 or the hybrid scheme's int8 matrices), never copied. Layer
// norms and position tables are float32 in both schemes.
#ifndef EDGENMT_TRANSFORMER_TRANSFORMER_WEIGHTS_H_
#define EDGENMT_TRANSFORMER_TRANSFORMER_WEIGHTS_H_

#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "numerics/float_numerics.h"

namespace edgenmt {

// Layers per stack this build sizes its tables for (a file with more is refused at Init).
constexpr int32_t kMaxTransformerLayers = 8;

struct LayerNormWeights {
  const float* gain = nullptr;   // [d]
  const float* shift = nullptr;  // [d]
};

// One multi-head attention block: y = x W^T + b for q, k, v and the output projection.
struct AttentionWeights {
  FloatNumerics::Matrix q, k, v, out;  // [d, d] each
  const float* q_bias = nullptr;
  const float* k_bias = nullptr;
  const float* v_bias = nullptr;
  const float* out_bias = nullptr;
};

struct FeedForwardWeights {
  FloatNumerics::Matrix linear1;  // [ffn, d]
  FloatNumerics::Matrix linear2;  // [d, ffn]
  const float* bias1 = nullptr;
  const float* bias2 = nullptr;
};

// norm1 guards self-attention, norm2 the feed-forward block.
struct EncoderLayerWeights {
  AttentionWeights self_attn;
  LayerNormWeights norm1;
  FeedForwardWeights ffn;
  LayerNormWeights norm2;
};

// norm1 guards self-attention, norm2 cross-attention, norm3 the feed-forward block.
struct DecoderLayerWeights {
  AttentionWeights self_attn;
  LayerNormWeights norm1;
  AttentionWeights cross_attn;
  LayerNormWeights norm2;
  FeedForwardWeights ffn;
  LayerNormWeights norm3;
};

// Binders: `prefix` + `layer` name the block ("encoder.", 0 -> "encoder.0.self_attn..."). Each
// checks dtype and exact shape and fails with the tensor's name.
Status BindAttention(const FloatNumerics& n, const Model& model, const char* prefix,
                     int32_t layer, const char* block, int32_t d, Arena* arena,
                     AttentionWeights* out, ErrorDetail* detail);
Status BindFeedForward(const FloatNumerics& n, const Model& model, const char* prefix,
                       int32_t layer, int32_t d, int32_t ffn, Arena* arena,
                       FeedForwardWeights* out, ErrorDetail* detail);
// layer < 0: a stack's final norm named `norm` alone ("encoder_norm").
Status BindLayerNorm(const Model& model, const char* prefix, int32_t layer, const char* norm,
                     int32_t d, LayerNormWeights* out, ErrorDetail* detail);

}  // namespace edgenmt

#endif  // EDGENMT_TRANSFORMER_TRANSFORMER_WEIGHTS_H_
