#include "transformer/transformer_weights.h"

#include "transformer/integer_transformer_sublayers.h"
#include "transformer/transformer_sublayers.h"

namespace edgenmt {
namespace {

// "<prefix><layer><block>.<projection>.<part>", e.g. "decoder.1.cross_attn.q_proj.bias".
NameBuilder AttentionName(const char* prefix, int32_t layer, const char* block,
                          const char* projection, const char* part) {
  return NameBuilder(prefix, layer, block, ".", projection, part);
}

// Not inlined: each binder's frame holds one name, not all of them (Init's stack budget).
template <typename Sub>
__attribute__((noinline)) Status BindProjection(const Sub& sub, const Model& model,
                                                const char* prefix, int32_t layer,
                                                const char* block, const char* projection,
                                                int32_t d, Arena* arena, typename Sub::Matrix* w,
                                                const typename Sub::Param** bias,
                                                ErrorDetail* detail) {
  EDGENMT_RETURN_IF_ERROR(
      sub.BindMatrix(model, AttentionName(prefix, layer, block, projection, ".weight").c_str(), d,
                     d, arena, w, detail));
  return sub.BindVector(model, AttentionName(prefix, layer, block, projection, ".bias").c_str(), d,
                        bias, detail);
}

template <typename Sub>
__attribute__((noinline)) Status BindFormat(const Sub& sub, const Model& model, const char* prefix,
                                            int32_t layer, const char* block, const char* what,
                                            ActivationFormat* out, ErrorDetail* detail) {
  return sub.BindFormat(model, NameBuilder(prefix, layer, block, what).c_str(), out, detail);
}

// "<prefix><layer><suffix>", a matrix of rows x cols or (cols == 0) a vector of rows.
template <typename Sub>
__attribute__((noinline)) Status BindLayerTensor(const Sub& sub, const Model& model, const char* prefix,
                                                 int32_t layer, const char* suffix, int32_t rows,
                                                 int32_t cols, Arena* arena, typename Sub::Matrix* matrix,
                                                 const typename Sub::Param** vector, ErrorDetail* detail) {
  const NameBuilder name(prefix, layer, suffix);
  if (cols == 0) return sub.BindVector(model, name.c_str(), rows, vector, detail);
  return sub.BindMatrix(model, name.c_str(), rows, cols, arena, matrix, detail);
}

}  // namespace

template <typename Sub>
Status BindAttention(const Sub& sub, const Model& model, const char* prefix, int32_t layer,
                     const char* block, int32_t d, Arena* arena, AttentionWeights<Sub>* out,
                     ErrorDetail* detail) {
  EDGENMT_RETURN_IF_ERROR(BindProjection(sub, model, prefix, layer, block, "q_proj", d, arena,
                                         &out->q, &out->q_bias, detail));
  EDGENMT_RETURN_IF_ERROR(BindProjection(sub, model, prefix, layer, block, "k_proj", d, arena,
                                         &out->k, &out->k_bias, detail));
  EDGENMT_RETURN_IF_ERROR(BindProjection(sub, model, prefix, layer, block, "v_proj", d, arena,
                                         &out->v, &out->v_bias, detail));
  EDGENMT_RETURN_IF_ERROR(BindProjection(sub, model, prefix, layer, block, "out_proj", d, arena,
                                         &out->out, &out->out_bias, detail));
  EDGENMT_RETURN_IF_ERROR(
      BindFormat(sub, model, prefix, layer, block, ".input", &out->input, detail));
  EDGENMT_RETURN_IF_ERROR(
      BindFormat(sub, model, prefix, layer, block, ".q", &out->q_format, detail));
  EDGENMT_RETURN_IF_ERROR(
      BindFormat(sub, model, prefix, layer, block, ".k", &out->k_format, detail));
  return BindFormat(sub, model, prefix, layer, block, ".v", &out->v_format, detail);
}

template <typename Sub>
Status BindFeedForward(const Sub& sub, const Model& model, const char* prefix, int32_t layer,
                       int32_t d, int32_t ffn, Arena* arena, FeedForwardWeights<Sub>* out,
                       ErrorDetail* detail) {
  EDGENMT_RETURN_IF_ERROR(BindLayerTensor(sub, model, prefix, layer, ".linear1.weight", ffn, d, arena,
                                          &out->linear1, nullptr, detail));
  EDGENMT_RETURN_IF_ERROR(BindLayerTensor(sub, model, prefix, layer, ".linear1.bias", ffn, 0, arena,
                                          nullptr, &out->bias1, detail));
  EDGENMT_RETURN_IF_ERROR(BindLayerTensor(sub, model, prefix, layer, ".linear2.weight", d, ffn, arena,
                                          &out->linear2, nullptr, detail));
  EDGENMT_RETURN_IF_ERROR(BindLayerTensor(sub, model, prefix, layer, ".linear2.bias", d, 0, arena,
                                          nullptr, &out->bias2, detail));
  EDGENMT_RETURN_IF_ERROR(
      BindFormat(sub, model, prefix, layer, ".ffn", ".input", &out->input, detail));
  return BindFormat(sub, model, prefix, layer, ".ffn", ".hidden", &out->hidden, detail);
}

template <typename Sub>
Status BindLayerNorm(const Sub& sub, const Model& model, const char* prefix, int32_t layer,
                     const char* norm, int32_t d, LayerNormWeights<Sub>* out, ErrorDetail* detail) {
  if (layer < 0) {
    EDGENMT_RETURN_IF_ERROR(
        sub.BindVector(model, NameBuilder(norm, ".weight").c_str(), d, &out->gain, detail));
    return sub.BindVector(model, NameBuilder(norm, ".bias").c_str(), d, &out->shift, detail);
  }
  EDGENMT_RETURN_IF_ERROR(sub.BindVector(
      model, NameBuilder(prefix, layer, ".", norm, ".weight").c_str(), d, &out->gain, detail));
  return sub.BindVector(model, NameBuilder(prefix, layer, ".", norm, ".bias").c_str(), d,
                        &out->shift, detail);
}

#define EDGENMT_INSTANTIATE_TRANSFORMER_BINDERS(Sub)                                              \
  template Status BindAttention<Sub>(const Sub&, const Model&, const char*, int32_t, const char*, \
                                     int32_t, Arena*, AttentionWeights<Sub>*, ErrorDetail*);      \
  template Status BindFeedForward<Sub>(const Sub&, const Model&, const char*, int32_t, int32_t,   \
                                       int32_t, Arena*, FeedForwardWeights<Sub>*, ErrorDetail*);  \
  template Status BindLayerNorm<Sub>(const Sub&, const Model&, const char*, int32_t, const char*, \
                                     int32_t, LayerNormWeights<Sub>*, ErrorDetail*);
EDGENMT_INSTANTIATE_TRANSFORMER_BINDERS(TransformerSublayers)
EDGENMT_INSTANTIATE_TRANSFORMER_BINDERS(IntegerTransformerSublayers)
#undef EDGENMT_INSTANTIATE_TRANSFORMER_BINDERS

}  // namespace edgenmt
