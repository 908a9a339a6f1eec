#include "rnn/attention.h"

#include <string.h>

#include <type_traits>

#include "rnn/float_rnn_numerics.h"
#include "rnn/integer_rnn_numerics.h"
#include "profile_scope.h"

namespace edgenmt {

template <class N>
Status Attention<N>::Prepare(const N* numerics, const Model& model, int32_t max_src_len,
                             int32_t max_rows, int32_t max_sources, Arena* arena,
                             ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  n_ = numerics;
  type_ = c.rnn.attention;
  // Bahdanau always scores additively (its config says concat).
  score_ = type_ == AttentionType::kBahdanau ? ScoreType::kConcat : c.rnn.score;
  encoder_size_ = c.encoder_output_size();
  attn_hidden_ = c.rnn.attn_hidden;
  window_ = c.rnn.window;
  const int32_t E = encoder_size_, H = c.rnn.dec_hidden, A = attn_hidden_;
  if (type_ == AttentionType::kNone) {
    return detail->Fail(Status::kInternal, "attention layer prepared without attention");
  }
  const bool local = type_ == AttentionType::kLocalM || type_ == AttentionType::kLocalP;
  if (local && window_ < 1) {
    return detail->Fail(Status::kModelConfigInvalid, "local attention needs window >= 1");
  }
  size_t query_proj_width = 0;
  if (type_ == AttentionType::kBahdanau) {
    EDGENMT_RETURN_IF_ERROR(n_->BindBias(model, "attn.key.bias", A, &key_b_, detail));
  }
  switch (score_) {
    case ScoreType::kDot:
      if (E != H) {
        return detail->Fail(Status::kModelConfigInvalid, "dot score needs E == H (", E, " vs ", H,
                            ")");
      }
      break;
    case ScoreType::kGeneral:
      EDGENMT_RETURN_IF_ERROR(
          n_->BindMatrix(model, "attn.linear_in.weight", E, H, arena, &linear_in_, detail));
      query_proj_width = static_cast<size_t>(E);
      break;
    case ScoreType::kConcat:
      EDGENMT_RETURN_IF_ERROR(
          n_->BindMatrix(model, "attn.query.weight", A, H, arena, &query_w_, detail));
      EDGENMT_RETURN_IF_ERROR(
          n_->BindMatrix(model, "attn.key.weight", A, E, arena, &key_w_, detail));
      EDGENMT_RETURN_IF_ERROR(n_->BindMatrix(model, "attn.v.weight", 1, A, arena, &v_, detail));
      query_proj_width = static_cast<size_t>(A);
      break;
    case ScoreType::kLocation:
      if (max_src_len > c.max_src_len) {
        return detail->Fail(Status::kLimitExceeded, "max_src_len ", max_src_len,
                            " exceeds the location score width ", c.max_src_len);
      }
      EDGENMT_RETURN_IF_ERROR(n_->BindMatrix(model, "attn.location.weight", c.max_src_len, H, arena,
                                             &location_w_, detail));
      break;
  }
  if (type_ == AttentionType::kLocalP) {
    EDGENMT_RETURN_IF_ERROR(
        n_->BindMatrix(model, "attn.predict_w.weight", A, H, arena, &predict_w_, detail));
    EDGENMT_RETURN_IF_ERROR(
        n_->BindMatrix(model, "attn.predict_v.weight", 1, A, arena, &predict_v_, detail));
  }
  const size_t rows = static_cast<size_t>(max_rows);
  const size_t src = static_cast<size_t>(max_src_len);
  max_src_len_ = max_src_len;
  // One source (no batch) lives in the object itself: a batch-1 arena as before batching.
  sources_ = max_sources == 1 ? &single_source_
                              : arena->AllocateArray<Source>(static_cast<size_t>(max_sources));
  scores_base_ = arena->AllocateScratchArray<Acc>(rows, src);
  weights_base_ = arena->AllocateScratchArray<typename N::Weight>(rows, src);
  float_weights_base_ = std::is_same<typename N::Weight, float>::value
                            ? reinterpret_cast<float*>(weights_base_)
                            : arena->AllocateScratchArray<float>(rows, src);
  context_base_ = arena->AllocateScratchArray<Hidden>(rows, static_cast<size_t>(E));
  if (query_proj_width > 0) {
    query_proj_base_ = arena->AllocateScratchArray<Acc>(rows, query_proj_width);
  }
  if (score_ == ScoreType::kConcat) {
    keys_base_ =
        arena->AllocateArray<Acc>(static_cast<size_t>(max_sources), src, static_cast<size_t>(A));
    additive_sum_ = arena->AllocateScratchArray<Acc>(static_cast<size_t>(A));
    additive_hidden_ = arena->AllocateScratchArray<Hidden>(static_cast<size_t>(A));
  }
  if (type_ == AttentionType::kLocalP) {
    predict_base_ = arena->AllocateScratchArray<Acc>(rows, static_cast<size_t>(A));
    predict_hidden_base_ = arena->AllocateScratchArray<Hidden>(rows, static_cast<size_t>(A));
    logits_base_ = arena->AllocateScratchArray<Acc>(rows);
    positions_base_ = arena->AllocateScratchArray<typename N::Position>(rows);
  }
  window_lo_base_ = arena->AllocateScratchArray<int32_t>(rows);
  window_hi_base_ = arena->AllocateScratchArray<int32_t>(rows);
  return Status::kOk;
}

template <class N>
void Attention<N>::SetSource(int32_t slot, const Hidden* states, const typename N::Memory* memory,
                             int32_t src_len) {
  sources_[slot] = Source{states, memory, src_len};
  if (keys_base_ != nullptr) {
    // W_k h̄_s (+ b_k for bahdanau) for every s, once per sentence.
    Acc* keys = keys_base_ + static_cast<int64_t>(slot) * max_src_len_ * attn_hidden_;
    n_->Linear(key_w_, src_len, states, key_b_, keys, false);
  }
}

template <class N>
void Attention<N>::Select(int32_t slot, int32_t row_begin) {
  const Source& source = sources_[slot];
  states_ = source.states;
  memory_ = source.memory;
  src_len_ = source.src_len;
  const int64_t r = row_begin;
  const int64_t src = max_src_len_;
  const int64_t A = attn_hidden_;
  if (keys_base_ != nullptr) keys_ = keys_base_ + slot * src * A;
  scores_ = scores_base_ + r * src;
  weights_ = weights_base_ + r * src;
  float_weights_ = float_weights_base_ + r * src;
  context_ = context_base_ + r * encoder_size_;
  const int64_t query_width = score_ == ScoreType::kGeneral ? encoder_size_ : A;
  if (query_proj_base_ != nullptr) query_proj_ = query_proj_base_ + r * query_width;
  if (predict_base_ != nullptr) {
    predict_ = predict_base_ + r * A;
    predict_hidden_ = predict_hidden_base_ + r * A;
    logits_ = logits_base_ + r;
    positions_ = positions_base_ + r;
  }
  window_lo_ = window_lo_base_ + r;
  window_hi_ = window_hi_base_ + r;
}

template <class N>
void Attention<N>::ComputeWindows(int32_t rows, const Hidden* query, int32_t step) {
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
    // p_t = S * sigmoid(v_p . tanh(W_p q)), the logit from ProjectQueries.
    (void)query;
    for (int32_t r = 0; r < rows; ++r) {
      n_->LocalPWindow(logits_[r], S, window_, &positions_[r], &window_lo_[r], &window_hi_[r]);
    }
  }
}

// score = v . tanh(W_q q + keys_s), keys_s = W_k h̄_s (+ b_k), only inside each row's window.
template <class N>
void Attention<N>::AdditiveScores(int32_t rows) {
  const int32_t A = attn_hidden_;
  const int32_t S = src_len_;
  for (int32_t r = 0; r < rows; ++r) {
    const Acc* q_proj = query_proj_ + static_cast<int64_t>(r) * A;
    Acc* score_row = scores_ + static_cast<int64_t>(r) * S;
    for (int32_t s = window_lo_[r]; s <= window_hi_[r]; ++s) {
      n_->AddAcc(A, q_proj, keys_ + static_cast<int64_t>(s) * A, additive_sum_);
      n_->TanhToHidden(A, additive_sum_, additive_hidden_);
      n_->Linear(v_, 1, additive_hidden_, nullptr, score_row + s, false);
    }
  }
}

template <class N>
void Attention<N>::ComputeScores(int32_t rows, const Hidden* query) {
  const int32_t S = src_len_;
  const int32_t E = encoder_size_;
  switch (score_) {
    case ScoreType::kDot:
      n_->DotScores(rows, query, memory_, S, E, window_lo_, window_hi_, scores_);
      break;
    case ScoreType::kGeneral:  // W_a q from ProjectQueries
      n_->GeneralScores(rows, query_proj_, memory_, S, E, window_lo_, window_hi_, scores_);
      break;
    case ScoreType::kConcat:  // W_q q from ProjectQueries
      AdditiveScores(rows);
      break;
    case ScoreType::kLocation:
      // (W_l q)[s] for s < S: the first S rows of W_l.
      n_->Linear(location_w_, rows, query, nullptr, scores_, false, S);
      break;
  }
}

template <class N>
void Attention<N>::ProjectQueries(int32_t rows, const Hidden* query) {
  if (score_ == ScoreType::kGeneral) {
    n_->Linear(linear_in_, rows, query, nullptr, query_proj_base_, false);
  } else if (score_ == ScoreType::kConcat) {
    n_->Linear(query_w_, rows, query, nullptr, query_proj_base_, false);
  }
  if (type_ == AttentionType::kLocalP) {
    n_->Linear(predict_w_, rows, query, nullptr, predict_base_, false);
    n_->TanhToHidden(rows * attn_hidden_, predict_base_, predict_hidden_base_);
    n_->Linear(predict_v_, rows, predict_hidden_base_, nullptr, logits_base_, false);
  }
}

template <class N>
void Attention<N>::AttendProjected(int32_t slot, int32_t row_begin, int32_t rows,
                                   const Hidden* query, int32_t step) {
  Select(slot, row_begin);
  const int32_t S = src_len_;
  const int32_t E = encoder_size_;
  ComputeWindows(rows, query, step);
  ComputeScores(rows, query);
  for (int32_t r = 0; r < rows; ++r) {
    const int32_t lo = window_lo_[r];
    const int32_t hi = window_hi_[r];
    typename N::Weight* a = weights_ + static_cast<int64_t>(r) * S;
    n_->Softmax(hi - lo + 1, scores_ + static_cast<int64_t>(r) * S + lo, a + lo);
    if (type_ == AttentionType::kLocalP) n_->LocalPGaussian(lo, hi, positions_[r], window_, a + lo);
    // c_t = sum_s a_t(s) h̄_s over the window.
    n_->Context(hi - lo + 1, a + lo, memory_ + static_cast<int64_t>(lo) * E, E,
                context_ + static_cast<int64_t>(r) * E);
    float* out = float_weights_ + static_cast<int64_t>(r) * S;
    for (int32_t s = 0; s < lo; ++s) out[s] = 0.0f;
    for (int32_t s = hi + 1; s < S; ++s) out[s] = 0.0f;
    if (static_cast<void*>(out) != static_cast<void*>(a)) {
      for (int32_t s = lo; s <= hi; ++s) out[s] = N::WeightToFloat(a[s]);
    }
  }
}

#if defined(EDGENMT_WITH_FLOAT_SCHEMES)  // CMake EDGENMT_FLOAT_SCHEMES
template class Attention<FloatRnnNumerics>;
#endif
template class Attention<IntegerRnnNumerics>;

}  // namespace edgenmt
