#include "transformer/transformer_sublayers.h"

#include <math.h>
#include <string.h>

namespace edgenmt {

void TransformerSublayers::Init(const FloatNumerics* numerics, const TransformerConfig& config) {
  n_ = numerics;
  d_ = config.d_model;
  heads_ = config.heads;
  d_head_ = config.d_model / config.heads;
  ffn_ = config.ffn;
  pre_norm_ = config.norm == NormPlacement::kPre;
  gelu_ = config.activation == FeedForwardActivation::kGelu;
  embed_scale_ = static_cast<float>(sqrt(static_cast<double>(d_)));
  score_divisor_ = static_cast<float>(sqrt(static_cast<double>(d_head_)));
}

void TransformerSublayers::Norm(int32_t rows, const float* x, const LayerNormWeights& norm,
                                float* y) const {
  const KernelTable& k = n_->kernels();
  for (int32_t r = 0; r < rows; ++r) {
    const int64_t offset = static_cast<int64_t>(r) * d_;
    k.layer_norm_f32(d_, x + offset, norm.gain, norm.shift, kTransformerLayerNormEps, y + offset);
  }
}

const float* TransformerSublayers::Input(int32_t rows, const float* x, const LayerNormWeights& norm,
                                         float* y) const {
  if (!pre_norm_) return x;
  Norm(rows, x, norm, y);
  return y;
}

void TransformerSublayers::Residual(int32_t rows, float* x, const float* o,
                                    const LayerNormWeights& norm) const {
  const int64_t n = static_cast<int64_t>(rows) * d_;
  for (int64_t i = 0; i < n; ++i) x[i] += o[i];
  if (!pre_norm_) Norm(rows, x, norm, x);
}

void TransformerSublayers::FeedForward(int32_t rows, const FeedForwardWeights& w, const float* y,
                                       float* hidden, float* out) const {
  n_->Linear(w.linear1, rows, y, w.bias1, hidden, false);
  const KernelTable& k = n_->kernels();
  // One call per row keeps the element count in int32 for any valid shape.
  for (int32_t r = 0; r < rows; ++r) {
    float* h = hidden + static_cast<int64_t>(r) * ffn_;
    if (gelu_) {
      k.gelu_f32(ffn_, h, h);
    } else {
      k.relu_f32(ffn_, h, h);
    }
  }
  n_->Linear(w.linear2, rows, hidden, w.bias2, out, false);
}

void TransformerSublayers::Embed(int32_t rows, const int32_t* ids, const FloatNumerics::Matrix& table,
                                 const float* const* positions, float* out) const {
  const KernelTable& k = n_->kernels();
  if (table.s8 != nullptr) {
    k.embedding_lookup_s8_f32(rows, ids, table.s8, table.row_scales, d_, out, d_);
  } else {
    k.embedding_lookup_f32(rows, ids, table.f32, d_, out, d_);
  }
  for (int32_t r = 0; r < rows; ++r) {
    float* x = out + static_cast<int64_t>(r) * d_;
    const float* p = positions[r];
    for (int32_t i = 0; i < d_; ++i) x[i] = x[i] * embed_scale_ + p[i];
  }
}

void TransformerSublayers::Attend(const float* q, const float* const* keys,
                                  const float* const* values, int32_t n, float* scores,
                                  float* out, float* mean_weights) const {
  const KernelTable& k = n_->kernels();
  memset(out, 0, sizeof(float) * static_cast<size_t>(d_));
  if (mean_weights != nullptr) memset(mean_weights, 0, sizeof(float) * static_cast<size_t>(n));
  for (int32_t h = 0; h < heads_; ++h) {
    const int32_t offset = h * d_head_;
    const float* qh = q + offset;
    for (int32_t j = 0; j < n; ++j) {
      const float* kh = keys[j] + offset;
      float dot = 0.0f;
      for (int32_t i = 0; i < d_head_; ++i) dot += qh[i] * kh[i];
      scores[j] = dot / score_divisor_;
    }
    float* weights = scores + n;
    k.softmax_f32(n, scores, weights);
    float* oh = out + offset;
    for (int32_t j = 0; j < n; ++j) {
      const float w = weights[j];
      const float* vh = values[j] + offset;
      for (int32_t i = 0; i < d_head_; ++i) oh[i] += w * vh[i];
      if (mean_weights != nullptr) mean_weights[j] += w;
    }
  }
  if (mean_weights != nullptr) {
    const float inv = static_cast<float>(heads_);
    for (int32_t j = 0; j < n; ++j) mean_weights[j] /= inv;
  }
}

}  // namespace edgenmt
