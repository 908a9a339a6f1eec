#include "transformer/transformer_encoder.h"

#include "transformer/integer_transformer_sublayers.h"
#include "transformer/transformer_sublayers.h"

namespace edgenmt {

template <typename Sub>
Status TransformerEncoder<Sub>::Prepare(const Sub* sub, const Model& model, int32_t max_src_len,
                                        Arena* arena, ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  sub_ = sub;
  layers_ = c.enc_layers;
  pre_norm_ = c.transformer.norm == NormPlacement::kPre;
  if (layers_ > kMaxTransformerLayers) {
    return detail->Fail(Status::kUnsupported, "enc_layers ", layers_,
                        " out of range (this build supports up to ", kMaxTransformerLayers, ")");
  }
  const int32_t d = c.transformer.d_model, ffn = c.transformer.ffn;
  EDGENMT_RETURN_IF_ERROR(sub->BindEmbedding(model, "src_embed.weight", c.src_vocab_size, d, arena,
                                             &embedding_, detail));
  EDGENMT_RETURN_IF_ERROR(
      sub->BindPositions(model, "src_pos", c.max_src_len, d, &positions_, detail));
  EDGENMT_RETURN_IF_ERROR(sub->BindFormat(model, "encoder.residual", &residual_format_, detail));
  EDGENMT_RETURN_IF_ERROR(sub->BindFormat(model, "encoder.memory", &memory_format_, detail));
  layer_ = arena->AllocateArray<EncoderLayerWeights<Sub>>(static_cast<size_t>(layers_));
  for (int32_t l = 0; l < layers_; ++l) {
    EncoderLayerWeights<Sub>& w = layer_ != nullptr ? layer_[l] : measuring_layer_;
    EDGENMT_RETURN_IF_ERROR(
        BindAttention(*sub, model, "encoder.", l, ".self_attn", d, arena, &w.self_attn, detail));
    EDGENMT_RETURN_IF_ERROR(
        BindLayerNorm(*sub, model, "encoder.", l, "norm1", d, &w.norm1, detail));
    EDGENMT_RETURN_IF_ERROR(
        BindFeedForward(*sub, model, "encoder.", l, d, ffn, arena, &w.ffn, detail));
    EDGENMT_RETURN_IF_ERROR(
        BindLayerNorm(*sub, model, "encoder.", l, "norm2", d, &w.norm2, detail));
  }
  if (pre_norm_) {
    EDGENMT_RETURN_IF_ERROR(
        BindLayerNorm(*sub, model, "", -1, "encoder_norm", d, &final_norm_, detail));
  }
  const size_t S = static_cast<size_t>(max_src_len), D = static_cast<size_t>(d);
  const size_t widest = static_cast<size_t>(ffn > d ? ffn : d);
  x_ = arena->AllocateScratchArray<Stream>(S, D);
  y_ = arena->AllocateScratchArray<Act>(S, D);
  q_ = arena->AllocateScratchArray<Act>(S, D);
  k_ = arena->AllocateScratchArray<Act>(S, D);
  v_ = arena->AllocateScratchArray<Act>(S, D);
  context_ = arena->AllocateScratchArray<Act>(S, D);
  hidden_ = arena->AllocateScratchArray<Act>(S, static_cast<size_t>(ffn));
  scratch_ = arena->AllocateScratchArray<Acc>(S, widest);
  rows_ = arena->AllocateScratchArray<const Act*>(S, 2);
  position_rows_ = arena->AllocateScratchArray<const Param*>(S);
  return Status::kOk;
}

template <typename Sub>
const typename Sub::Act* TransformerEncoder<Sub>::Encode(const int32_t* src_ids, int32_t S) {
  const Sub& sub = *sub_;
  const int32_t d = sub.d_model();
  const ActivationFormat& res = residual_format_;
  for (int32_t s = 0; s < S; ++s) position_rows_[s] = positions_ + static_cast<int64_t>(s) * d;
  sub.Embed(S, src_ids, embedding_, position_rows_, res, x_, scratch_);
  const Act** keys = rows_;
  const Act** values = rows_ + S;
  for (int32_t s = 0; s < S; ++s) {
    keys[s] = k_ + static_cast<int64_t>(s) * d;
    values[s] = v_ + static_cast<int64_t>(s) * d;
  }
  for (int32_t l = 0; l < layers_; ++l) {
    const EncoderLayerWeights<Sub>& w = layer_[l];
    const AttentionWeights<Sub>& a = w.self_attn;
    const Act* in = sub.Input(S, x_, w.norm1, res, a.input, y_, scratch_);
    sub.Project(a.q, a.q_bias, S, in, a.input, a.q_format, q_, scratch_);
    sub.Project(a.k, a.k_bias, S, in, a.input, a.k_format, k_, scratch_);
    sub.Project(a.v, a.v_bias, S, in, a.input, a.v_format, v_, scratch_);
    for (int32_t s = 0; s < S; ++s) {
      const int64_t offset = static_cast<int64_t>(s) * d;
      sub.Attend(q_ + offset, keys, values, S, a.q_format, a.k_format, context_ + offset, nullptr);
    }
    sub.Close(a.out, a.out_bias, S, context_, a.v_format, x_, w.norm1, res, scratch_);
    in = sub.Input(S, x_, w.norm2, res, w.ffn.input, y_, scratch_);
    sub.FeedForwardBlock(S, w.ffn, in, hidden_, x_, w.norm2, res, scratch_);
  }
  return sub.Output(S, x_, pre_norm_ ? &final_norm_ : nullptr, res, memory_format_, y_, scratch_);
}

#if defined(EDGENMT_WITH_FLOAT_SCHEMES)  // CMake EDGENMT_FLOAT_SCHEMES
template class TransformerEncoder<TransformerSublayers>;
#endif
template class TransformerEncoder<IntegerTransformerSublayers>;

}  // namespace edgenmt
