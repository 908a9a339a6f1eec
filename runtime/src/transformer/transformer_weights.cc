#include "transformer/transformer_weights.h"

#include "numerics/float_tensors.h"

namespace edgenmt {
namespace {

// "<prefix><layer><block>.<projection>.<part>", e.g. "decoder.1.cross_attn.q_proj.bias".
NameBuilder AttentionName(const char* prefix, int32_t layer, const char* block,
                          const char* projection, const char* part) {
  return NameBuilder(prefix, layer, block, ".", projection, part);
}

// Not inlined: each binder's frame holds one name, not all of them (Init's stack budget).
__attribute__((noinline)) Status BindProjection(const FloatNumerics& n, const Model& model,
                                                const char* prefix, int32_t layer,
                                                const char* block, const char* projection,
                                                int32_t d, Arena* arena,
                                                FloatNumerics::Matrix* w, const float** bias,
                                                ErrorDetail* detail) {
  EDGENMT_RETURN_IF_ERROR(n.BindMatrix(
      model, AttentionName(prefix, layer, block, projection, ".weight").c_str(), d, d, arena, w,
      detail));
  return n.BindBias(model, AttentionName(prefix, layer, block, projection, ".bias").c_str(), d,
                    bias, detail);
}

}  // namespace

Status BindAttention(const FloatNumerics& n, const Model& model, const char* prefix,
                     int32_t layer, const char* block, int32_t d, Arena* arena,
                     AttentionWeights* out, ErrorDetail* detail) {
  EDGENMT_RETURN_IF_ERROR(BindProjection(n, model, prefix, layer, block, "q_proj", d, arena,
                                         &out->q, &out->q_bias, detail));
  EDGENMT_RETURN_IF_ERROR(BindProjection(n, model, prefix, layer, block, "k_proj", d, arena,
                                         &out->k, &out->k_bias, detail));
  EDGENMT_RETURN_IF_ERROR(BindProjection(n, model, prefix, layer, block, "v_proj", d, arena,
                                         &out->v, &out->v_bias, detail));
  return BindProjection(n, model, prefix, layer, block, "out_proj", d, arena, &out->out,
                        &out->out_bias, detail);
}

Status BindFeedForward(const FloatNumerics& n, const Model& model, const char* prefix,
                       int32_t layer, int32_t d, int32_t ffn, Arena* arena,
                       FeedForwardWeights* out, ErrorDetail* detail) {
  EDGENMT_RETURN_IF_ERROR(n.BindMatrix(model, NameBuilder(prefix, layer, ".linear1.weight").c_str(),
                                       ffn, d, arena, &out->linear1, detail));
  EDGENMT_RETURN_IF_ERROR(n.BindBias(model, NameBuilder(prefix, layer, ".linear1.bias").c_str(),
                                     ffn, &out->bias1, detail));
  EDGENMT_RETURN_IF_ERROR(n.BindMatrix(model, NameBuilder(prefix, layer, ".linear2.weight").c_str(),
                                       d, ffn, arena, &out->linear2, detail));
  return n.BindBias(model, NameBuilder(prefix, layer, ".linear2.bias").c_str(), d, &out->bias2,
                    detail);
}

Status BindLayerNorm(const Model& model, const char* prefix, int32_t layer, const char* norm,
                     int32_t d, LayerNormWeights* out, ErrorDetail* detail) {
  if (layer < 0) {
    EDGENMT_RETURN_IF_ERROR(BindVectorF32(model, NameBuilder(norm, ".weight").c_str(), d,
                                          &out->gain, detail));
    return BindVectorF32(model, NameBuilder(norm, ".bias").c_str(), d, &out->shift, detail);
  }
  EDGENMT_RETURN_IF_ERROR(BindVectorF32(model, NameBuilder(prefix, layer, ".", norm, ".weight").c_str(),
                                        d, &out->gain, detail));
  return BindVectorF32(model, NameBuilder(prefix, layer, ".", norm, ".bias").c_str(), d,
                       &out->shift, detail);
}

}  // namespace edgenmt
