#include "transformer/transformer_sublayers.h"

#include <math.h>
#include <string.h>

#include "numerics/float_tensors.h"

namespace edgenmt {

Status TransformerSublayers::Prepare(const Model& model, const KernelTable* kernels,
                                     int32_t max_rows, int32_t max_sources, int32_t max_len,
                                     Arena* arena, ErrorDetail* detail) {
  const TransformerConfig& t = model.config().transformer;
  if (kernels->layer_norm_f32 == nullptr || kernels->relu_f32 == nullptr ||
      kernels->gelu_f32 == nullptr) {
    return detail->Fail(Status::kUnsupported, "kernel backend ",
                        KernelBackendName(kernels->backend), " lacks the Transformer's kernels");
  }
  d_ = t.d_model;
  heads_ = t.heads;
  d_head_ = t.d_model / t.heads;
  ffn_ = t.ffn;
  pre_norm_ = t.norm == NormPlacement::kPre;
  gelu_ = t.activation == FeedForwardActivation::kGelu;
  embed_scale_ = static_cast<float>(sqrt(static_cast<double>(d_)));
  score_divisor_ = static_cast<float>(sqrt(static_cast<double>(d_head_)));
  const int32_t widest = ffn_ > d_ ? ffn_ : d_;
  EDGENMT_RETURN_IF_ERROR(
      numerics_.Prepare(model, kernels, max_rows, widest, arena, detail, max_sources));
  scores_ = arena->AllocateScratchArray<float>(static_cast<size_t>(max_len), 2);
  return Status::kOk;
}

Status TransformerSublayers::BindEmbedding(const Model& model, const char* name, int32_t rows,
                                           int32_t cols, Arena* arena, Matrix* out,
                                           ErrorDetail* detail) const {
  return numerics_.BindEmbedding(model, name, rows, cols, arena, out, detail);
}

Status TransformerSublayers::BindMatrix(const Model& model, const char* name, int32_t rows,
                                        int32_t cols, Arena* arena, Matrix* out,
                                        ErrorDetail* detail) const {
  return numerics_.BindMatrix(model, name, rows, cols, arena, out, detail);
}

Status TransformerSublayers::BindVector(const Model& model, const char* name, int32_t size,
                                        const Param** out, ErrorDetail* detail) const {
  return BindVectorF32(model, name, size, out, detail);
}

Status TransformerSublayers::BindPositions(const Model& model, const char* name, int32_t rows,
                                           int32_t cols, const Param** out,
                                           ErrorDetail* detail) const {
  return BindMatrixF32(model, name, rows, cols, out, detail);
}

void TransformerSublayers::Norm1(int32_t rows, const float* x, const Norm& norm, float* y) const {
  const KernelTable& k = numerics_.kernels();
  for (int32_t r = 0; r < rows; ++r) {
    const int64_t offset = static_cast<int64_t>(r) * d_;
    k.layer_norm_f32(d_, x + offset, norm.gain, norm.shift, kTransformerLayerNormEps, y + offset);
  }
}

void TransformerSublayers::Residual(int32_t rows, float* x, const float* o,
                                    const Norm& norm) const {
  const int64_t n = static_cast<int64_t>(rows) * d_;
  for (int64_t i = 0; i < n; ++i) x[i] += o[i];
  if (!pre_norm_) Norm1(rows, x, norm, x);
}

void TransformerSublayers::Embed(int32_t rows, const int32_t* ids, const Matrix& table,
                                 const Param* const* positions, const ActivationFormat&, Stream* x,
                                 Acc*) const {
  const KernelTable& k = numerics_.kernels();
  if (table.s8 != nullptr) {
    k.embedding_lookup_s8_f32(rows, ids, table.s8, table.row_scales, d_, x, d_);
  } else {
    k.embedding_lookup_f32(rows, ids, table.f32, d_, x, d_);
  }
  for (int32_t r = 0; r < rows; ++r) {
    float* row = x + static_cast<int64_t>(r) * d_;
    const float* p = positions[r];
    for (int32_t i = 0; i < d_; ++i) row[i] = row[i] * embed_scale_ + p[i];
  }
}

const float* TransformerSublayers::Input(int32_t rows, const Stream* x, const Norm& norm,
                                         const ActivationFormat&, const ActivationFormat&, Act* y,
                                         Acc*) const {
  if (!pre_norm_) return x;
  Norm1(rows, x, norm, y);
  return y;
}

void TransformerSublayers::Project(const Matrix& w, const Param* bias, int32_t rows, const Act* in,
                                   const ActivationFormat&, const ActivationFormat&, Act* out,
                                   Acc*) const {
  numerics_.Linear(w, rows, in, bias, out, false);
}

void TransformerSublayers::Attend(const Act* q, const Act* const* keys, const Act* const* values,
                                  int32_t n, const ActivationFormat&, const ActivationFormat&,
                                  Act* out, float* mean_weights) const {
  const KernelTable& k = numerics_.kernels();
  float* scores = scores_;
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

void TransformerSublayers::Close(const Matrix& w, const Param* bias, int32_t rows,
                                 const Act* context, const ActivationFormat&, Stream* x,
                                 const Norm& norm, const ActivationFormat&, Acc* scratch) const {
  numerics_.Linear(w, rows, context, bias, scratch, false);
  Residual(rows, x, scratch, norm);
}

void TransformerSublayers::FeedForwardBlock(int32_t rows, const FeedForward& w, const Act* y,
                                            Act* hidden, Stream* x, const Norm& norm,
                                            const ActivationFormat&, Acc* scratch) const {
  numerics_.Linear(w.linear1, rows, y, w.bias1, hidden, false);
  const KernelTable& k = numerics_.kernels();
  // One call per row keeps the element count in int32 for any valid shape.
  for (int32_t r = 0; r < rows; ++r) {
    float* h = hidden + static_cast<int64_t>(r) * ffn_;
    if (gelu_) {
      k.gelu_f32(ffn_, h, h);
    } else {
      k.relu_f32(ffn_, h, h);
    }
  }
  numerics_.Linear(w.linear2, rows, hidden, w.bias2, scratch, false);
  Residual(rows, x, scratch, norm);
}

const float* TransformerSublayers::Output(int32_t rows, const Stream* x, const Norm* final_norm,
                                          const ActivationFormat&, const ActivationFormat&, Act* y,
                                          Acc*) const {
  if (final_norm == nullptr) return x;
  Norm1(rows, x, *final_norm, y);
  return y;
}

void TransformerSublayers::Generate(const Matrix& w, const Param* bias, int32_t rows, const Act* in,
                                    const ActivationFormat&, Acc* logits, float* log_probs,
                                    int32_t*) const {
  numerics_.Linear(w, rows, in, bias, logits, false);
  const int32_t V = w.rows;
  for (int32_t r = 0; r < rows; ++r) {
    const int64_t offset = static_cast<int64_t>(r) * V;
    numerics_.LogSoftmax(V, logits + offset, log_probs + offset, log_probs + offset);
  }
}

}  // namespace edgenmt
