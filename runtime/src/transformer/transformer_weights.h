// The Transformer's weights (docs/MODEL.md "Transformer"), bound by name at Prepare: pointers
// into the model buffer, never copied. `Sub` is the scheme's sublayer arithmetic
// (transformer_sublayers.h for float32 and int8 hybrid, integer_transformer_sublayers.h for
// int8-full): it names the matrix type, the element type of biases, norms and positions
// (float, or Q11.20 integers), and binds each kind of tensor and the calibrated activation
// formats (docs/INT8.md "int8-full Transformer"; unused by the float schemes).
#ifndef EDGENMT_TRANSFORMER_TRANSFORMER_WEIGHTS_H_
#define EDGENMT_TRANSFORMER_TRANSFORMER_WEIGHTS_H_

#include <stdint.h>

#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"

namespace edgenmt {

// Layers per stack this build sizes its tables for (a file with more is refused at Init).
constexpr int32_t kMaxTransformerLayers = 8;

// A calibrated activation format: int_bits as stored (tensor_layout.h ExpectedActivations())
// and the activation's index there (the calibration observer's slot; -1 when unbound).
struct ActivationFormat {
  int32_t int_bits = 0;
  int32_t index = -1;
};

template <typename Sub>
struct LayerNormWeights {
  const typename Sub::Param* gain = nullptr;   // [d]
  const typename Sub::Param* shift = nullptr;  // [d]
};

// One multi-head attention block: y = x W^T + b for q, k, v and the output projection, and
// the formats of its int8 input and projections.
template <typename Sub>
struct AttentionWeights {
  typename Sub::Matrix q, k, v, out;  // [d, d] each
  const typename Sub::Param* q_bias = nullptr;
  const typename Sub::Param* k_bias = nullptr;
  const typename Sub::Param* v_bias = nullptr;
  const typename Sub::Param* out_bias = nullptr;
  ActivationFormat input, q_format, k_format, v_format;
};

template <typename Sub>
struct FeedForwardWeights {
  typename Sub::Matrix linear1;  // [ffn, d]
  typename Sub::Matrix linear2;  // [d, ffn]
  const typename Sub::Param* bias1 = nullptr;
  const typename Sub::Param* bias2 = nullptr;
  ActivationFormat input, hidden;
};

// norm1 guards self-attention, norm2 the feed-forward block.
template <typename Sub>
struct EncoderLayerWeights {
  AttentionWeights<Sub> self_attn;
  LayerNormWeights<Sub> norm1;
  FeedForwardWeights<Sub> ffn;
  LayerNormWeights<Sub> norm2;
};

// norm1 guards self-attention, norm2 cross-attention, norm3 the feed-forward block.
template <typename Sub>
struct DecoderLayerWeights {
  AttentionWeights<Sub> self_attn;
  LayerNormWeights<Sub> norm1;
  AttentionWeights<Sub> cross_attn;
  LayerNormWeights<Sub> norm2;
  FeedForwardWeights<Sub> ffn;
  LayerNormWeights<Sub> norm3;
};

// Binders: `prefix` + `layer` name the block ("encoder.", 0 -> "encoder.0.self_attn..."). Each
// checks storage and exact shape and fails with the tensor's name.
template <typename Sub>
Status BindAttention(const Sub& sub, const Model& model, const char* prefix, int32_t layer,
                     const char* block, int32_t d, Arena* arena, AttentionWeights<Sub>* out,
                     ErrorDetail* detail);
template <typename Sub>
Status BindFeedForward(const Sub& sub, const Model& model, const char* prefix, int32_t layer,
                       int32_t d, int32_t ffn, Arena* arena, FeedForwardWeights<Sub>* out,
                       ErrorDetail* detail);
// layer < 0: a stack's final norm named `norm` alone ("encoder_norm").
template <typename Sub>
Status BindLayerNorm(const Sub& sub, const Model& model, const char* prefix, int32_t layer,
                     const char* norm, int32_t d, LayerNormWeights<Sub>* out, ErrorDetail* detail);

}  // namespace edgenmt

#endif  // EDGENMT_TRANSFORMER_TRANSFORMER_WEIGHTS_H_
