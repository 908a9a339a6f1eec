#include "layers/attention.h"

#include <math.h>
#include <string.h>

#include "layers/weights.h"
#include "profile_scope.h"

namespace edgenmt {

Status Attention::Prepare(const Model& model, int32_t max_src_len, int32_t max_rows,
                          Arena* arena, ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  type_ = c.attention;
  score_ = type_ == AttentionType::kBahdanau ? ScoreType::kConcat : c.score;
  encoder_size_ = c.encoder_output_size();
  query_size_ = c.dec_hidden;
  attn_hidden_ = c.attn_hidden;
  window_ = c.window;
  max_src_len_ = max_src_len;
  const int32_t E = encoder_size_, H = query_size_, A = attn_hidden_;
  if (type_ == AttentionType::kNone) {
    return detail->Fail(Status::kInternal, "attention layer prepared without attention");
  }
  const bool local = type_ == AttentionType::kLocalM || type_ == AttentionType::kLocalP;
  if (local && window_ < 1) {
    return detail->Fail(Status::kModelConfigInvalid, "local attention needs window >= 1");
  }
  const bool additive = type_ == AttentionType::kBahdanau || score_ == ScoreType::kConcat;
  size_t query_proj_width = 0;
  if (type_ == AttentionType::kBahdanau) {
    EDGENMT_RETURN_IF_ERROR(BindVectorF32(model, "attn.key.bias", A, &key_b_, detail));
  }
  switch (score_) {
    case ScoreType::kDot:
      if (E != H) {
        return detail->Fail(Status::kModelConfigInvalid, "dot score needs E == H (", E, " vs ",
                            H, ")");
      }
      break;
    case ScoreType::kGeneral:
      EDGENMT_RETURN_IF_ERROR(
          BindMatrix(model, "attn.linear_in.weight", E, H, arena, &linear_in_, detail));
      query_proj_width = static_cast<size_t>(E);
      break;
    case ScoreType::kConcat:
      EDGENMT_RETURN_IF_ERROR(
          BindMatrix(model, "attn.query.weight", A, H, arena, &query_w_, detail));
      EDGENMT_RETURN_IF_ERROR(BindMatrix(model, "attn.key.weight", A, E, arena, &key_w_, detail));
      EDGENMT_RETURN_IF_ERROR(BindMatrix(model, "attn.v.weight", 1, A, arena, &v_, detail));
      query_proj_width = static_cast<size_t>(A);
      break;
    case ScoreType::kLocation:
      if (max_src_len > c.max_src_len) {
        return detail->Fail(Status::kLimitExceeded, "max_src_len ", max_src_len,
                            " exceeds the location score width ", c.max_src_len);
      }
      EDGENMT_RETURN_IF_ERROR(
          BindMatrix(model, "attn.location.weight", c.max_src_len, H, arena, &location_w_, detail));
      break;
  }
  if (type_ == AttentionType::kLocalP) {
    EDGENMT_RETURN_IF_ERROR(
          BindMatrix(model, "attn.predict_w.weight", A, H, arena, &predict_w_, detail));
    EDGENMT_RETURN_IF_ERROR(
          BindMatrix(model, "attn.predict_v.weight", 1, A, arena, &predict_v_, detail));
  }
  const size_t rows = static_cast<size_t>(max_rows);
  const size_t src = static_cast<size_t>(max_src_len);
  weights_ = arena->AllocateArray<float>(rows, src);
  context_ = arena->AllocateArray<float>(rows, static_cast<size_t>(E));
  scores_ = arena->AllocateArray<float>(rows, src);
  if (query_proj_width > 0) query_proj_ = arena->AllocateArray<float>(rows, query_proj_width);
  if (additive) {
    keys_ = arena->AllocateArray<float>(src, static_cast<size_t>(A));
    hidden_ = arena->AllocateArray<float>(static_cast<size_t>(A));
  }
  if (type_ == AttentionType::kLocalP) {
    predict_ = arena->AllocateArray<float>(rows, static_cast<size_t>(A));
    positions_ = arena->AllocateArray<float>(rows);
  }
  window_lo_ = arena->AllocateArray<int32_t>(rows);
  window_hi_ = arena->AllocateArray<int32_t>(rows);
  return Status::kOk;
}

void Attention::SetSource(const KernelTable& k, const float* states, int32_t src_len) {
  states_ = states;
  src_len_ = src_len;
  if (keys_ != nullptr) {
    // W_k h̄_s (+ b_k for bahdanau) for every s, once per sentence.
    ApplyLinear(k, src_len, states, key_w_, key_b_, keys_, false);
  }
}

void Attention::ComputeWindows(const KernelTable& k, int32_t rows, const float* query,
                               int32_t step) {
  const int32_t S = src_len_;
  for (int32_t r = 0; r < rows; ++r) {
    window_lo_[r] = 0;
    window_hi_[r] = S - 1;
  }
  if (type_ == AttentionType::kLocalM) {
    const int32_t p = step < S - 1 ? step : S - 1;
    const int32_t lo = p - window_ > 0 ? p - window_ : 0;
    const int32_t hi = p + window_ < S - 1 ? p + window_ : S - 1;
    for (int32_t r = 0; r < rows; ++r) {
      window_lo_[r] = lo;
      window_hi_[r] = hi;
    }
  } else if (type_ == AttentionType::kLocalP) {
    // p_t = S * sigmoid(v_p . tanh(W_p q)).
    const int32_t A = attn_hidden_;
    ApplyLinear(k, rows, query, predict_w_, nullptr, predict_, false);
    k.tanh_f32(rows * A, predict_, predict_);
    ApplyLinear(k, rows, predict_, predict_v_, nullptr, positions_, false);
    k.sigmoid_f32(rows, positions_, positions_);
    for (int32_t r = 0; r < rows; ++r) {
      const float p = static_cast<float>(S) * positions_[r];
      positions_[r] = p;
      const float lo = ceilf(p - static_cast<float>(window_));
      const float hi = floorf(p + static_cast<float>(window_));
      window_lo_[r] = lo > 0.0f ? static_cast<int32_t>(lo) : 0;
      window_hi_[r] = hi < static_cast<float>(S - 1) ? static_cast<int32_t>(hi) : S - 1;
    }
  }
}

// score = v . tanh(W_q q + keys_s), keys_s = W_k h̄_s (+ b_k), only inside each row's window.
void Attention::AdditiveScores(const KernelTable& k, int32_t rows) {
  const int32_t A = attn_hidden_;
  const int32_t S = src_len_;
  for (int32_t r = 0; r < rows; ++r) {
    const float* q_proj = query_proj_ + static_cast<int64_t>(r) * A;
    float* score_row = scores_ + static_cast<int64_t>(r) * S;
    for (int32_t s = window_lo_[r]; s <= window_hi_[r]; ++s) {
      const float* key = keys_ + static_cast<int64_t>(s) * A;
      for (int32_t j = 0; j < A; ++j) hidden_[j] = q_proj[j] + key[j];
      k.tanh_f32(A, hidden_, hidden_);
      ApplyLinear(k, 1, hidden_, v_, nullptr, score_row + s, false);
    }
  }
}

void Attention::ComputeScores(const KernelTable& k, int32_t rows, const float* query) {
  const int32_t S = src_len_;
  const int32_t E = encoder_size_;
  const int32_t H = query_size_;
  switch (score_) {
    case ScoreType::kDot:
      // scores[r][s] = q_r . h̄_s: h̄ [S, E] is exactly an [out = S, in = E] weight matrix.
      k.fully_connected_f32(rows, E, S, query, states_, nullptr, scores_, false);
      break;
    case ScoreType::kGeneral:
      ApplyLinear(k, rows, query, linear_in_, nullptr, query_proj_, false);
      k.fully_connected_f32(rows, E, S, query_proj_, states_, nullptr, scores_, false);
      break;
    case ScoreType::kConcat:
      ApplyLinear(k, rows, query, query_w_, nullptr, query_proj_, false);
      AdditiveScores(k, rows);
      break;
    case ScoreType::kLocation:
      // (W_l q)[s] for s < S: the first S rows of W_l.
      ApplyLinear(k, rows, query, location_w_, nullptr, scores_, false, S);
      break;
  }
}

void Attention::Attend(const KernelTable& k, int32_t rows, const float* query, int32_t step) {
  ProfileScope profile(ProfileStage::kAttention);
  const int32_t S = src_len_;
  const int32_t E = encoder_size_;
  ComputeWindows(k, rows, query, step);
  ComputeScores(k, rows, query);
  // Gaussian of local_p: exp(-(s - p)^2 / (2 sigma^2)), sigma = D / 2.
  const float sigma = static_cast<float>(window_) / 2.0f;
  const float two_sigma_sq = 2.0f * sigma * sigma;
  for (int32_t r = 0; r < rows; ++r) {
    const int32_t lo = window_lo_[r];
    const int32_t hi = window_hi_[r];
    float* a = weights_ + static_cast<int64_t>(r) * S;
    const float* score_row = scores_ + static_cast<int64_t>(r) * S;
    for (int32_t s = 0; s < lo; ++s) a[s] = 0.0f;
    for (int32_t s = hi + 1; s < S; ++s) a[s] = 0.0f;
    k.softmax_f32(hi - lo + 1, score_row + lo, a + lo);
    if (type_ == AttentionType::kLocalP) {
      const float p = positions_[r];
      for (int32_t s = lo; s <= hi; ++s) {
        const float d = static_cast<float>(s) - p;
        a[s] *= expf(-(d * d) / two_sigma_sq);
      }
    }
    // c_t = sum_s a_t(s) h̄_s over the window.
    float* c = context_ + static_cast<int64_t>(r) * E;
    memset(c, 0, sizeof(float) * static_cast<size_t>(E));
    for (int32_t s = lo; s <= hi; ++s) {
      const float w = a[s];
      const float* h = states_ + static_cast<int64_t>(s) * E;
      for (int32_t j = 0; j < E; ++j) c[j] += w * h[j];
    }
  }
}

}  // namespace edgenmt
