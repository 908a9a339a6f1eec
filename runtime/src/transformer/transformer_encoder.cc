#include "transformer/transformer_encoder.h"

#include "numerics/float_tensors.h"
#include "profile_scope.h"

namespace edgenmt {

Status TransformerEncoder::Prepare(const TransformerSublayers* sublayers, const Model& model,
                                   int32_t max_src_len, Arena* arena, ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  sub_ = sublayers;
  layers_ = c.enc_layers;
  pre_norm_ = c.transformer.norm == NormPlacement::kPre;
  if (layers_ > kMaxTransformerLayers) {
    return detail->Fail(Status::kUnsupported, "enc_layers ", layers_,
                        " out of range (this build supports up to ", kMaxTransformerLayers, ")");
  }
  const FloatNumerics& n = sub_->numerics();
  const int32_t d = c.transformer.d_model, ffn = c.transformer.ffn;
  EDGENMT_RETURN_IF_ERROR(n.BindEmbedding(model, "src_embed.weight", c.src_vocab_size, d, arena,
                                          &embedding_, detail));
  EDGENMT_RETURN_IF_ERROR(BindMatrixF32(model, "src_pos", c.max_src_len, d, &positions_, detail));
  layer_ = arena->AllocateArray<EncoderLayerWeights>(static_cast<size_t>(layers_));
  for (int32_t l = 0; l < layers_; ++l) {
    EncoderLayerWeights& w = layer_ != nullptr ? layer_[l] : measuring_layer_;
    EDGENMT_RETURN_IF_ERROR(
        BindAttention(n, model, "encoder.", l, ".self_attn", d, arena, &w.self_attn, detail));
    EDGENMT_RETURN_IF_ERROR(BindLayerNorm(model, "encoder.", l, "norm1", d, &w.norm1, detail));
    EDGENMT_RETURN_IF_ERROR(BindFeedForward(n, model, "encoder.", l, d, ffn, arena, &w.ffn, detail));
    EDGENMT_RETURN_IF_ERROR(BindLayerNorm(model, "encoder.", l, "norm2", d, &w.norm2, detail));
  }
  if (pre_norm_) {
    EDGENMT_RETURN_IF_ERROR(BindLayerNorm(model, "", -1, "encoder_norm", d, &final_norm_, detail));
  }
  const size_t S = static_cast<size_t>(max_src_len);
  x_ = arena->AllocateScratchArray<float>(S, static_cast<size_t>(d));
  y_ = arena->AllocateScratchArray<float>(S, static_cast<size_t>(d));
  q_ = arena->AllocateScratchArray<float>(S, static_cast<size_t>(d));
  k_ = arena->AllocateScratchArray<float>(S, static_cast<size_t>(d));
  v_ = arena->AllocateScratchArray<float>(S, static_cast<size_t>(d));
  context_ = arena->AllocateScratchArray<float>(S, static_cast<size_t>(d));
  out_ = arena->AllocateScratchArray<float>(S, static_cast<size_t>(d));
  hidden_ = arena->AllocateScratchArray<float>(S, static_cast<size_t>(ffn));
  scores_ = arena->AllocateScratchArray<float>(S, 2);
  rows_ = arena->AllocateScratchArray<const float*>(S, 2);
  return Status::kOk;
}

const float* TransformerEncoder::Encode(const int32_t* src_ids, int32_t S) {
  ProfileScope profile(ProfileStage::kEncoder);
  const FloatNumerics& n = sub_->numerics();
  const int32_t d = sub_->d_model();
  const float** keys = rows_;
  const float** values = rows_ + S;
  for (int32_t s = 0; s < S; ++s) keys[s] = positions_ + static_cast<int64_t>(s) * d;
  sub_->Embed(S, src_ids, embedding_, keys, x_);
  for (int32_t s = 0; s < S; ++s) {
    keys[s] = k_ + static_cast<int64_t>(s) * d;
    values[s] = v_ + static_cast<int64_t>(s) * d;
  }
  for (int32_t l = 0; l < layers_; ++l) {
    const EncoderLayerWeights& w = layer_[l];
    const float* in = sub_->Input(S, x_, w.norm1, y_);
    n.Linear(w.self_attn.q, S, in, w.self_attn.q_bias, q_, false);
    n.Linear(w.self_attn.k, S, in, w.self_attn.k_bias, k_, false);
    n.Linear(w.self_attn.v, S, in, w.self_attn.v_bias, v_, false);
    for (int32_t s = 0; s < S; ++s) {
      const int64_t offset = static_cast<int64_t>(s) * d;
      sub_->Attend(q_ + offset, keys, values, S, scores_, context_ + offset, nullptr);
    }
    n.Linear(w.self_attn.out, S, context_, w.self_attn.out_bias, out_, false);
    sub_->Residual(S, x_, out_, w.norm1);
    in = sub_->Input(S, x_, w.norm2, y_);
    sub_->FeedForward(S, w.ffn, in, hidden_, out_);
    sub_->Residual(S, x_, out_, w.norm2);
  }
  if (pre_norm_) sub_->Norm(S, x_, final_norm_, x_);
  return x_;
}

}  // namespace edgenmt
