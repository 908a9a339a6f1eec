#include "transformer/transformer_weights.h"

#include "transformer/integer_transformer_sublayers.h"
#include "transformer/transformer_sublayers.h"

namespace edgenmt {
namespace {

// A linear layer's "<prefix><layer><block><linear>.weight" (rows x cols) and ".bias" (rows), e.g.
// "decoder.1.cross_attn.q_proj.bias" or "encoder.0.linear1.weight" (block ""). Not inlined:
// each binder's frame holds one name, not all of them (Init's stack budget).
template <typename Sub>
__attribute__((noinline)) Status BindLinear(const Sub& sub, const Model& model, const char* prefix,
                                            int32_t layer, const char* block, const char* linear,
                                            int32_t rows, int32_t cols, Arena* arena,
                                            typename Sub::Matrix* w,
                                            const typename Sub::Param** bias, ErrorDetail* detail) {
  EDGENMT_RETURN_IF_ERROR(
      sub.BindMatrix(model, NameBuilder(prefix, layer, block, linear, ".weight").c_str(), rows,
                     cols, arena, w, detail));
  return sub.BindVector(model, NameBuilder(prefix, layer, block, linear, ".bias").c_str(), rows,
                        bias, detail);
}

template <typename Sub>
__attribute__((noinline)) Status BindFormat(const Sub& sub, const Model& model, const char* prefix,
                                            int32_t layer, const char* block, const char* what,
                                            ActivationFormat* out, ErrorDetail* detail) {
  return sub.BindFormat(model, NameBuilder(prefix, layer, block, what).c_str(), out, detail);
}

}  // namespace

template <typename Sub>
Status BindAttention(const Sub& sub, const Model& model, const char* prefix, int32_t layer,
                     const char* block, int32_t d, Arena* arena, AttentionWeights<Sub>* out,
                     ErrorDetail* detail) {
  EDGENMT_RETURN_IF_ERROR(BindLinear(sub, model, prefix, layer, block, ".q_proj", d, d, arena,
                                     &out->q, &out->q_bias, detail));
  EDGENMT_RETURN_IF_ERROR(BindLinear(sub, model, prefix, layer, block, ".k_proj", d, d, arena,
                                     &out->k, &out->k_bias, detail));
  EDGENMT_RETURN_IF_ERROR(BindLinear(sub, model, prefix, layer, block, ".v_proj", d, d, arena,
                                     &out->v, &out->v_bias, detail));
  EDGENMT_RETURN_IF_ERROR(BindLinear(sub, model, prefix, layer, block, ".out_proj", d, d, arena,
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
  EDGENMT_RETURN_IF_ERROR(BindLinear(sub, model, prefix, layer, "", ".linear1", ffn, d, arena,
                                     &out->linear1, &out->bias1, detail));
  EDGENMT_RETURN_IF_ERROR(BindLinear(sub, model, prefix, layer, "", ".linear2", d, ffn, arena,
                                     &out->linear2, &out->bias2, detail));
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
