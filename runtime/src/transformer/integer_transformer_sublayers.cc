#include "transformer/integer_transformer_sublayers.h"

#include <string.h>

#include "edgenmt/internal/fixed_point_transformer.h"
#include "edgenmt/internal/tensor_layout.h"

namespace edgenmt {
namespace {

constexpr uint32_t kOneScaleBits = 0x3f800000u;  // 1.0f: the stored constants' input scale
constexpr int32_t kQ20FracBits = 20;

// Q11.20 -> int8 @ 2^(m - 7): shift 13 + m. Q11.20 <-> int16 Q(m).(15 - m): shift 5 + m.
constexpr int32_t Int8Shift(const ActivationFormat& f) { return 13 + f.int_bits; }
constexpr int32_t StreamShift(const ActivationFormat& f) { return 5 + f.int_bits; }

// sqrt(v) as (multiplier in [2^30, 2^31), shift): sqrt(v) ~ multiplier * 2^(shift - 31).
void SqrtMultiplier(int64_t v, int32_t* multiplier, int32_t* shift) {
  const int32_t p = (fxp::CountLeadingZeros64(static_cast<uint64_t>(v)) - 2) / 2;
  *multiplier = static_cast<int32_t>(fxp::SquareRootFloor64(static_cast<uint64_t>(v) << (2 * p)));
  *shift = 31 - p;
}

// 1 / sqrt(v) the same way, rounded (fxp::InverseSqrtOfVariance).
void InverseSqrtMultiplier(int64_t v, int32_t* multiplier, int32_t* shift) {
  const fxp::InverseSqrt inv = fxp::InverseSqrtOfVariance(v);
  int64_t m = (inv.r + 1) >> 1;
  int32_t s = inv.q - 30;
  if (m == (int64_t{1} << 31)) {
    m >>= 1;
    ++s;
  }
  *multiplier = static_cast<int32_t>(m);
  *shift = s;
}

}  // namespace

Status IntegerTransformerSublayers::Prepare(const Model& model, const KernelTable* kernels,
                                            int32_t max_rows, int32_t max_sources, int32_t max_len,
                                            Arena* arena, ErrorDetail* detail) {
  (void)max_rows;
  (void)max_sources;
  const TransformerConfig& t = model.config().transformer;
  const KernelTable& k = *kernels;
  if (k.fully_connected_s8_s32 == nullptr || k.softmax_s32_s16 == nullptr ||
      k.log_softmax_s32 == nullptr || k.narrow_s32_s16 == nullptr ||
      k.embedding_lookup_s8_s32 == nullptr || k.layer_norm_s32 == nullptr ||
      k.requantize_s32_s8 == nullptr || k.gelu_s32_s8 == nullptr ||
      k.residual_add_s32_s16 == nullptr || k.attention_scores_s8 == nullptr ||
      k.attention_context_s8 == nullptr) {
    return detail->Fail(Status::kUnsupported, "kernel backend ", KernelBackendName(k.backend),
                        " lacks the int8-full Transformer's kernels");
  }
  if (t.d_model > fxp::kLayerNormMaxLength) {
    return detail->Fail(Status::kUnsupported, "d_model ", t.d_model,
                        " above the integer layer "
                        "norm's ",
                        fxp::kLayerNormMaxLength);
  }
  k_ = kernels;
  d_ = t.d_model;
  heads_ = t.heads;
  d_head_ = t.d_model / t.heads;
  ffn_ = t.ffn;
  pre_norm_ = t.norm == NormPlacement::kPre;
  gelu_ = t.activation == FeedForwardActivation::kGelu;
  SqrtMultiplier(d_, &embed_multiplier_, &embed_shift_);
  InverseSqrtMultiplier(d_head_, &score_multiplier_, &score_shift_);
  scores_ = arena->AllocateScratchArray<int32_t>(static_cast<size_t>(max_len));
  weights_ = arena->AllocateScratchArray<int16_t>(static_cast<size_t>(max_len));
  return Status::kOk;
}

Status IntegerTransformerSublayers::BindEmbedding(const Model& model, const char* name,
                                                  int32_t rows, int32_t cols, Arena*, Matrix* out,
                                                  ErrorDetail* detail) const {
  return BindIntMatrix(model, name, rows, cols, kOneScaleBits, out, detail);
}

Status IntegerTransformerSublayers::BindMatrix(const Model& model, const char* name, int32_t rows,
                                               int32_t cols, Arena*, Matrix* out,
                                               ErrorDetail* detail) const {
  return BindIntMatrix(model, name, rows, cols, kOneScaleBits, out, detail);
}

Status IntegerTransformerSublayers::BindVector(const Model& model, const char* name, int32_t size,
                                               const Param** out, ErrorDetail* detail) const {
  return BindBiasQ20(model, name, size, out, detail);
}

Status IntegerTransformerSublayers::BindPositions(const Model& model, const char* name,
                                                  int32_t rows, int32_t cols, const Param** out,
                                                  ErrorDetail* detail) const {
  return BindMatrixQ20(model, name, rows, cols, out, detail);
}

Status IntegerTransformerSublayers::BindFormat(const Model& model, const char* name,
                                               ActivationFormat* out, ErrorDetail* detail) const {
  int32_t index = 0;
  out->index = -1;
  ForEachExpectedActivation(model.config(), [&](const ExpectedTensor& t) {
    if (strcmp(t.name, name) == 0) {
      out->index = index;
      return false;
    }
    ++index;
    return true;
  });
  if (out->index < 0 || model.FindActivationFormat(name, &out->int_bits) != Status::kOk) {
    return detail->Fail(Status::kModelTensorMissing, "activation format ", name, " missing");
  }
  return Status::kOk;
}

void IntegerTransformerSublayers::Observe(const ActivationFormat& format, const Acc* v, int64_t n,
                                          bool relu) const {
  if (observer_ == nullptr || format.index < 0) return;
  if (values_ != nullptr && values_->observe != nullptr) {
    values_->observe(values_->user, format.index, v, n, relu);
  }
  int32_t& max_abs = observer_[format.index];
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = v[i] < 0 ? (relu ? 0 : -static_cast<int64_t>(v[i])) : v[i];
    if (a > max_abs) max_abs = a > fxp::kInt32Max ? fxp::kInt32Max : static_cast<int32_t>(a);
  }
}

// The sum before it saturates into the stream: a stream format too narrow shows its true need
// in one round, not one bit per round.
void IntegerTransformerSublayers::ObserveStreamSum(const ActivationFormat& residual,
                                                   const Stream* x, const Acc* o, int64_t n) const {
  if (observer_ == nullptr || residual.index < 0) return;
  int32_t& max_abs = observer_[residual.index];
  const int32_t up = StreamShift(residual);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t sum = static_cast<int64_t>(x[i]) * (int64_t{1} << up) + o[i];
    const int64_t a = sum < 0 ? -sum : sum;
    if (a > max_abs) max_abs = a > fxp::kInt32Max ? fxp::kInt32Max : static_cast<int32_t>(a);
  }
}

void IntegerTransformerSublayers::ToInt8(int64_t n, const Acc* v, const ActivationFormat& format,
                                         bool relu, Act* y) const {
  Observe(format, v, n, relu);
  k_->requantize_s32_s8(static_cast<int32_t>(n), v, Int8Shift(format), relu, y);
}

void IntegerTransformerSublayers::Embed(int32_t rows, const int32_t* ids, const Matrix& table,
                                        const Param* const* positions,
                                        const ActivationFormat& residual, Stream* x,
                                        Acc* scratch) const {
  k_->embedding_lookup_s8_s32(rows, ids, table.w, table.multiplier, table.shift, d_,
                              embed_multiplier_, embed_shift_, scratch, d_);
  for (int32_t r = 0; r < rows; ++r) {
    int32_t* row = scratch + static_cast<int64_t>(r) * d_;
    const int32_t* p = positions[r];
    for (int32_t i = 0; i < d_; ++i) row[i] = fxp::SaturatingAdd(row[i], p[i]);
  }
  const int64_t n = static_cast<int64_t>(rows) * d_;
  Observe(residual, scratch, n, false);
  k_->narrow_s32_s16(static_cast<int32_t>(n), scratch, StreamShift(residual), x);
}

void IntegerTransformerSublayers::StreamToQ20(int32_t rows, const Stream* x,
                                              const ActivationFormat& residual, const Norm* norm,
                                              Acc* out) const {
  const int64_t n = static_cast<int64_t>(rows) * d_;
  const int32_t up = norm != nullptr ? 0 : StreamShift(residual);
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<int32_t>(x[i]) * (int32_t{1} << up);
  if (norm == nullptr) return;
  for (int32_t r = 0; r < rows; ++r) {
    int32_t* row = out + static_cast<int64_t>(r) * d_;
    k_->layer_norm_s32(d_, row, 15 - residual.int_bits, norm->gain, norm->shift, row);
  }
}

const int8_t* IntegerTransformerSublayers::Input(int32_t rows, const Stream* x, const Norm& norm,
                                                 const ActivationFormat& residual,
                                                 const ActivationFormat& format, Act* y,
                                                 Acc* scratch) const {
  StreamToQ20(rows, x, residual, pre_norm_ ? &norm : nullptr, scratch);
  ToInt8(static_cast<int64_t>(rows) * d_, scratch, format, false, y);
  return y;
}

void IntegerTransformerSublayers::Project(const Matrix& w, const Param* bias, int32_t rows,
                                          const Act* in, const ActivationFormat& in_format,
                                          const ActivationFormat& out_format, Act* out,
                                          Acc* scratch) const {
  k_->fully_connected_s8_s32(rows, w.cols, w.rows, in, w.cols, w.w, w.cols, w.multiplier, w.shift,
                             in_format.int_bits - 7, bias, scratch, false);
  ToInt8(static_cast<int64_t>(rows) * w.rows, scratch, out_format, false, out);
}

void IntegerTransformerSublayers::Attend(const Act* q, const Act* const* keys,
                                         const Act* const* values, int32_t n,
                                         const ActivationFormat& q_format,
                                         const ActivationFormat& k_format, Act* out,
                                         float* mean_weights) const {
  // q . k * 2^(m_q - 7) * 2^(m_k - 7) / sqrt(d_head) in Q11.20.
  const int32_t shift = score_shift_ + q_format.int_bits + k_format.int_bits + 6;
  if (mean_weights != nullptr) memset(mean_weights, 0, sizeof(float) * static_cast<size_t>(n));
  for (int32_t h = 0; h < heads_; ++h) {
    const int32_t offset = h * d_head_;
    k_->attention_scores_s8(n, q + offset, keys, offset, d_head_, score_multiplier_, shift,
                            scores_);
    k_->softmax_s32_s16(n, scores_, 11, weights_);
    k_->attention_context_s8(n, weights_, values, offset, d_head_, out + offset);
    if (mean_weights != nullptr) {
      for (int32_t j = 0; j < n; ++j) mean_weights[j] += static_cast<float>(weights_[j]);
    }
  }
  if (mean_weights != nullptr) {
    const float scale = 1.0f / (32768.0f * static_cast<float>(heads_));
    for (int32_t j = 0; j < n; ++j) mean_weights[j] *= scale;
  }
}

void IntegerTransformerSublayers::AddToStream(int32_t rows, Acc* o, Stream* x, const Norm& norm,
                                              const ActivationFormat& residual) const {
  const int64_t n = static_cast<int64_t>(rows) * d_;
  if (pre_norm_) {
    ObserveStreamSum(residual, x, o, n);
    k_->residual_add_s32_s16(static_cast<int32_t>(n), o, StreamShift(residual), x);
    return;
  }
  // Post-norm: x = LN(x + o), the sum in Q11.20 in o's buffer.
  int32_t* sum = o;
  const int32_t up = StreamShift(residual);
  for (int64_t i = 0; i < n; ++i) {
    sum[i] = fxp::SaturatingAdd(static_cast<int32_t>(x[i]) * (int32_t{1} << up), sum[i]);
  }
  for (int32_t r = 0; r < rows; ++r) {
    int32_t* row = sum + static_cast<int64_t>(r) * d_;
    k_->layer_norm_s32(d_, row, kQ20FracBits, norm.gain, norm.shift, row);
  }
  Observe(residual, sum, n, false);
  k_->narrow_s32_s16(static_cast<int32_t>(n), sum, up, x);
}

void IntegerTransformerSublayers::Close(const Matrix& w, const Param* bias, int32_t rows,
                                        const Act* context, const ActivationFormat& context_format,
                                        Stream* x, const Norm& norm,
                                        const ActivationFormat& residual, Acc* scratch) const {
  k_->fully_connected_s8_s32(rows, w.cols, w.rows, context, w.cols, w.w, w.cols, w.multiplier,
                             w.shift, context_format.int_bits - 7, bias, scratch, false);
  AddToStream(rows, scratch, x, norm, residual);
}

void IntegerTransformerSublayers::FeedForwardBlock(int32_t rows, const FeedForward& w, const Act* y,
                                                   Act* hidden, Stream* x, const Norm& norm,
                                                   const ActivationFormat& residual,
                                                   Acc* scratch) const {
  const Matrix& l1 = w.linear1;
  const Matrix& l2 = w.linear2;
  k_->fully_connected_s8_s32(rows, l1.cols, l1.rows, y, l1.cols, l1.w, l1.cols, l1.multiplier,
                             l1.shift, w.input.int_bits - 7, w.bias1, scratch, false);
  const int64_t n = static_cast<int64_t>(rows) * ffn_;
  // The hidden format holds the activation's positive range (GELU's negative part is above
  // -0.17).
  Observe(w.hidden, scratch, n, true);
  if (gelu_) {
    k_->gelu_s32_s8(static_cast<int32_t>(n), scratch, Int8Shift(w.hidden), hidden);
  } else {
    k_->requantize_s32_s8(static_cast<int32_t>(n), scratch, Int8Shift(w.hidden), true, hidden);
  }
  k_->fully_connected_s8_s32(rows, l2.cols, l2.rows, hidden, l2.cols, l2.w, l2.cols, l2.multiplier,
                             l2.shift, w.hidden.int_bits - 7, w.bias2, scratch, false);
  AddToStream(rows, scratch, x, norm, residual);
}

const int8_t* IntegerTransformerSublayers::Output(int32_t rows, const Stream* x,
                                                  const Norm* final_norm,
                                                  const ActivationFormat& residual,
                                                  const ActivationFormat& format, Act* y,
                                                  Acc* scratch) const {
  StreamToQ20(rows, x, residual, final_norm, scratch);
  ToInt8(static_cast<int64_t>(rows) * d_, scratch, format, false, y);
  return y;
}

void IntegerTransformerSublayers::Generate(const Matrix& w, const Param* bias, int32_t rows,
                                           const Act* in, const ActivationFormat& in_format,
                                           Acc* logits, float* log_probs,
                                           int32_t* log_probs_q16) const {
  k_->fully_connected_s8_s32(rows, w.cols, w.rows, in, w.cols, w.w, w.cols, w.multiplier, w.shift,
                             in_format.int_bits - 7, bias, logits, false);
  const int32_t V = w.rows;
  for (int32_t r = 0; r < rows; ++r) {
    const int64_t offset = static_cast<int64_t>(r) * V;
    k_->log_softmax_s32(V, logits + offset, 11, log_probs_q16 + offset);
    for (int32_t v = 0; v < V; ++v) {
      log_probs[offset + v] = static_cast<float>(log_probs_q16[offset + v]) * (1.0f / 65536.0f);
    }
  }
}

}  // namespace edgenmt
