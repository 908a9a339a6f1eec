#include "search/beam_search.h"

#include <math.h>
#include <string.h>

#include "edgenmt/internal/fixed_point.h"
#include "profile_scope.h"

namespace edgenmt {
namespace {

// lp(n) = ((5 + n) / 6)^alpha, n = output tokens plus one for </s>. Single precision: the
// runtime uses no double math (FPU-less cores emulate it).
float LengthPenalty(float alpha, int32_t n) {
  return alpha == 0.0f ? 1.0f : powf((5.0f + static_cast<float>(n)) / 6.0f, alpha);
}

// Cumulative log-prob arithmetic per score type: float for the float schemes, Q15.16 int32 for
// integer-only decoders (docs/INT8.md "Generator and beam scores"), so int8-full ranks its
// hypotheses on exact integer sums.
template <typename Score>
struct ScoreMath;
template <>
struct ScoreMath<float> {
  static float Masked() { return -INFINITY; }
  static float Add(float a, float b) { return a + b; }
  static float ToFloat(float x) { return x; }
};
template <>
struct ScoreMath<int32_t> {
  static int32_t Masked() { return fxp::kInt32Min; }
  static int32_t Add(int32_t a, int32_t b) { return fxp::SaturatingAdd(a, b); }
  static float ToFloat(int32_t x) { return static_cast<float>(x) * (1.0f / 65536.0f); }
};

}  // namespace

Status BeamSearch::Prepare(int32_t max_beam, int32_t max_nbest, int32_t max_tgt_len,
                           int32_t max_src_len, int32_t vocab_size, bool model_has_attention,
                           bool keep_attention, bool persistent, Arena* arena,
                           ErrorDetail* detail) {
  if (max_beam < 1 || max_nbest < 1 || max_nbest > max_beam || max_tgt_len < 1 || max_src_len < 1 ||
      vocab_size < 1) {
    return detail->Fail(Status::kInvalidArgument,
                        "search limits need 1 <= max_nbest <= "
                        "max_beam, max_tgt_len >= 1");
  }
  if (keep_attention && !model_has_attention) {
    return detail->Fail(Status::kUnsupported, "attention requested but the model has none");
  }
  max_beam_ = max_beam;
  max_nbest_ = max_nbest;
  max_tgt_len_ = max_tgt_len;
  max_src_len_ = max_src_len;
  track_coverage_ = model_has_attention;
  keep_attention_ = keep_attention;
  const size_t beam = static_cast<size_t>(max_beam);
  const size_t steps = static_cast<size_t>(max_tgt_len);
  const size_t src = static_cast<size_t>(max_src_len);
  // Scores are float or int32 (both 4 bytes) depending on the decoder: raw storage.
  static_assert(sizeof(float) == sizeof(int32_t), "score storage is shared");
  live_scores_ = Buffer<int32_t>(arena, persistent, beam);
  next_scores_ = Buffer<int32_t>(arena, persistent, beam);
  live_tokens_ = Buffer<int32_t>(arena, persistent, beam);
  next_tokens_ = Buffer<int32_t>(arena, persistent, beam);
  next_parents_ = Buffer<int32_t>(arena, persistent, beam);
  cand_scores_ = Buffer<int32_t>(arena, persistent, beam);
  cand_parents_ = Buffer<int32_t>(arena, persistent, beam);
  cand_tokens_ = Buffer<int32_t>(arena, persistent, beam);
  history_parents_ = Buffer<int32_t>(arena, persistent, steps, beam);
  history_tokens_ = Buffer<int32_t>(arena, persistent, steps, beam);
  if (track_coverage_) {
    coverage_ = Buffer<float>(arena, persistent, beam, src);
    coverage_next_ = Buffer<float>(arena, persistent, beam, src);
  }
  if (keep_attention_) attention_history_ = Buffer<float>(arena, persistent, steps, beam, src);
  finished_ = Buffer<Finished>(arena, persistent, beam);
  order_ = Buffer<int32_t>(arena, persistent, beam);
  result_ids_ = arena->AllocateArray<int32_t>(static_cast<size_t>(max_nbest), steps);
  if (keep_attention_) {
    result_attention_ = arena->AllocateArray<float>(static_cast<size_t>(max_nbest), steps, src);
  }
  results_ = arena->AllocateArray<SearchResult>(static_cast<size_t>(max_nbest));
  num_finished_ = 0;
  num_results_ = 0;
  return Status::kOk;
}

// ceil(ratio * src_len) is computed exactly in integers from the float's mantissa and exponent
// (a float product would round 1.1f * 30 down to 33.0; the reference's double gives 34).
int32_t BeamSearch::MaxSteps(const DecodingOptions& options, int32_t src_len) {
  if (!(options.max_len_ratio > 0.0f)) return options.max_len;
  uint32_t bits = 0;
  memcpy(&bits, &options.max_len_ratio, sizeof(bits));
  const fxp::FloatParts ratio = fxp::DecodeFloat32Bits(bits);
  // ratio * src_len = mantissa * src_len * 2^exponent, mantissa < 2^24, src_len < 2^31.
  const uint64_t product = static_cast<uint64_t>(ratio.mantissa) * static_cast<uint64_t>(src_len);
  uint64_t steps = 0;
  if (!ratio.valid) {
    steps = UINT64_MAX;  // +infinity: no limit from the ratio
  } else if (ratio.exponent >= 0) {
    steps = ratio.exponent >= 9 || (product >> (63 - ratio.exponent)) != 0
                ? UINT64_MAX
                : product << ratio.exponent;
  } else {
    const int right = -ratio.exponent;
    steps = right >= 64 ? (product != 0 ? 1 : 0)
                        : (product >> right) + ((product & ((uint64_t{1} << right) - 1)) != 0);
  }
  const int32_t ratio_steps = steps < 1             ? 1
                              : steps > 2147483647u ? 2147483647
                                                    : static_cast<int32_t>(steps);
  return options.max_len < ratio_steps ? options.max_len : ratio_steps;
}

// Keeps the best `count` of rows x vocab candidates (cumulative log-prob of the row plus the
// token's log-prob), best first. Scanning in (row, token) order and inserting a candidate only
// after every kept one with an equal score implements the tie rule: earlier parent, then lower
// token id. Returns how many were kept (count unless there are fewer candidates).
template <typename Score>
int32_t BeamSearch::SelectCandidates(const Score* log_probs, int32_t rows, int32_t vocab,
                                     int32_t count) {
  const Score* live_scores = Scores<Score>(live_scores_);
  Score* cand_scores = Scores<Score>(cand_scores_);
  int32_t kept = 0;
  for (int32_t r = 0; r < rows; ++r) {
    const Score base = live_scores[r];
    const Score* row = log_probs + static_cast<int64_t>(r) * vocab;
    for (int32_t v = 0; v < vocab; ++v) {
      const Score score = ScoreMath<Score>::Add(base, row[v]);
      if (kept == count && !(score > cand_scores[kept - 1])) continue;
      int32_t pos = kept == count ? count - 1 : kept++;
      while (pos > 0 && cand_scores[pos - 1] < score) {
        cand_scores[pos] = cand_scores[pos - 1];
        cand_parents_[pos] = cand_parents_[pos - 1];
        cand_tokens_[pos] = cand_tokens_[pos - 1];
        --pos;
      }
      cand_scores[pos] = score;
      cand_parents_[pos] = r;
      cand_tokens_[pos] = v;
    }
  }
  return kept;
}

// logprob / lp(|Y| + 1) + cp(Y), cp = beta * sum_s log(min(max(coverage_s, 1e-6), 1)).
float BeamSearch::FinalScore(const DecodingOptions& options, float log_prob, int32_t length,
                             const float* coverage, int32_t src_len) const {
  float score = log_prob / LengthPenalty(options.alpha, length + 1);
  if (options.beta > 0.0f && coverage != nullptr) {
    float penalty = 0.0f;
    for (int32_t s = 0; s < src_len; ++s) {
      // The 1e-6 floor keeps cp finite under local attention (exact zeros outside windows).
      float c = coverage[s];
      c = c < 1e-6f ? 1e-6f : (c > 1.0f ? 1.0f : c);
      penalty += logf(c);
    }
    score += options.beta * penalty;
  }
  return score;
}

void BeamSearch::Run(SequenceDecoder* decoder, const DecodingOptions& options) {
  const bool exact = decoder->log_probs_q16() != nullptr;
  Begin(options, decoder->src_len(), decoder->vocab_size(), decoder->bos_id(), decoder->eos_id());
  for (;;) {
    {
      ProfileScope step(ProfileStage::kDecoderStep);
      decoder->Step(live_tokens_, live_);
    }
    const bool done = exact ? Advance(decoder->log_probs_q16(), decoder->attention())
                            : Advance(decoder->log_probs(), decoder->attention());
    if (done) break;
    decoder->Reorder(next_parents_, live_);
  }
}

void BeamSearch::Begin(const DecodingOptions& options, int32_t src_len, int32_t vocab_size,
                       int32_t bos_id, int32_t eos_id) {
  options_ = options;
  src_len_ = src_len;
  vocab_size_ = vocab_size;
  eos_id_ = eos_id;
  max_steps_ = MaxSteps(options, src_len);
  use_coverage_ = track_coverage_ && options.beta > 0.0f;
  num_finished_ = 0;
  num_results_ = 0;
  steps_ = 0;
  live_ = 1;
  live_scores_[0] = 0;  // 0.0f and Q15.16 zero share the bits
  live_tokens_[0] = bos_id;
  if (use_coverage_) memset(coverage_, 0, sizeof(float) * static_cast<size_t>(src_len));
}

bool BeamSearch::Advance(float* log_probs, const float* attention) {
  return AdvanceScored<float>(log_probs, attention);
}
bool BeamSearch::Advance(int32_t* log_probs_q16, const float* attention) {
  return AdvanceScored<int32_t>(log_probs_q16, attention);
}

// One step of docs/MODEL.md's search at step t = steps_: masks, selects, finishes; true when
// the search is over (results built), else next_parents_ / live_ describe the next rows.
template <typename Score>
bool BeamSearch::AdvanceScored(Score* log_probs, const float* attention) {
  using Math = ScoreMath<Score>;
  const DecodingOptions& options = options_;
  Score* live_scores = Scores<Score>(live_scores_);
  Score* next_scores = Scores<Score>(next_scores_);
  const Score* cand_scores = Scores<Score>(cand_scores_);
  const int32_t S = src_len_;
  const int32_t V = vocab_size_;
  const int32_t eos = eos_id_;
  const int32_t K = options.beam;
  const int32_t N = options.nbest;
  const int32_t max_steps = max_steps_;
  const bool use_coverage = use_coverage_;
  const size_t cov_row_bytes = sizeof(float) * static_cast<size_t>(S);
  const int32_t t = steps_;
  const int32_t live = live_;
  if (t < options.min_len) {
    for (int32_t r = 0; r < live; ++r)
      log_probs[static_cast<int64_t>(r) * V + eos] = Math::Masked();
  }
  if (keep_attention_) {
    memcpy(attention_history_ + static_cast<int64_t>(t) * max_beam_ * S, attention,
           cov_row_bytes * static_cast<size_t>(live));
  }
  if (use_coverage) {
    for (int32_t r = 0; r < live; ++r) {
      float* cov = coverage_ + static_cast<int64_t>(r) * S;
      const float* a = attention + static_cast<int64_t>(r) * S;
      for (int32_t s = 0; s < S; ++s) cov[s] += a[s];
    }
  }

  const int32_t kept = SelectCandidates(log_probs, live, V, K - num_finished_);
  int32_t next_live = 0;
  int32_t* step_parents = history_parents_ + static_cast<int64_t>(t) * max_beam_;
  int32_t* step_tokens = history_tokens_ + static_cast<int64_t>(t) * max_beam_;
  for (int32_t j = 0; j < kept; ++j) {
    const int32_t parent = cand_parents_[j];
    if (cand_tokens_[j] == eos) {
      Finished& f = finished_[num_finished_++];
      f.length = t;
      f.row = parent;
      f.eos = true;
      f.log_prob = Math::ToFloat(cand_scores[j]);
      f.score =
          FinalScore(options, f.log_prob, t,
                     use_coverage ? coverage_ + static_cast<int64_t>(parent) * S : nullptr, S);
    } else {
      next_parents_[next_live] = parent;
      next_tokens_[next_live] = cand_tokens_[j];
      next_scores[next_live] = cand_scores[j];
      step_parents[next_live] = parent;
      step_tokens[next_live] = cand_tokens_[j];
      ++next_live;
    }
  }
  if (next_live == 0) return Finish(t + 1);
  if (use_coverage) {
    for (int32_t r = 0; r < next_live; ++r) {
      memcpy(coverage_next_ + static_cast<int64_t>(r) * S,
             coverage_ + static_cast<int64_t>(next_parents_[r]) * S, cov_row_bytes);
    }
    float* swap = coverage_;
    coverage_ = coverage_next_;
    coverage_next_ = swap;
  }
  live_ = next_live;
  memcpy(live_scores, next_scores, sizeof(Score) * static_cast<size_t>(next_live));
  memcpy(live_tokens_, next_tokens_, sizeof(int32_t) * static_cast<size_t>(next_live));

  if (t + 1 == max_steps) {
    // Forced end: every live hypothesis finishes in live order, no extra log-prob or token.
    for (int32_t r = 0; r < next_live; ++r) {
      Finished& f = finished_[num_finished_++];
      f.length = t + 1;
      f.row = r;
      f.eos = false;
      f.log_prob = Math::ToFloat(live_scores[r]);
      f.score = FinalScore(options, f.log_prob, t + 1,
                           use_coverage ? coverage_ + static_cast<int64_t>(r) * S : nullptr, S);
    }
    return Finish(t + 1);
  }
  // Early stop: no live hypothesis can beat the N-th best finished score any more.
  if (num_finished_ >= N) {
    Score best_live = live_scores[0];
    for (int32_t r = 1; r < next_live; ++r)
      best_live = live_scores[r] > best_live ? live_scores[r] : best_live;
    const float bound = Math::ToFloat(best_live) / LengthPenalty(options.alpha, max_steps + 1);
    // N-th best finished score: count how many finished scores are strictly better.
    float nth = 0.0f;
    for (int32_t i = 0; i < num_finished_; ++i) {
      int32_t better = 0, equal_before = 0;
      for (int32_t j = 0; j < num_finished_; ++j) {
        if (finished_[j].score > finished_[i].score)
          ++better;
        else if (finished_[j].score == finished_[i].score && j < i)
          ++equal_before;
      }
      if (better + equal_before == N - 1) nth = finished_[i].score;
    }
    if (bound < nth) return Finish(t + 1);
  }
  steps_ = t + 1;
  return false;
}

bool BeamSearch::Finish(int32_t steps) {
  steps_ = steps;
  live_ = 0;
  BuildResults(options_, src_len_);
  return true;
}

void BeamSearch::BuildResults(const DecodingOptions& options, int32_t src_len) {
  // Stable sort of the finished list by score, descending (insertion sort: at most max_beam).
  const int32_t count = num_finished_;
  for (int32_t i = 0; i < count; ++i) {
    int32_t pos = i;
    while (pos > 0 && finished_[order_[pos - 1]].score < finished_[i].score) {
      order_[pos] = order_[pos - 1];
      --pos;
    }
    order_[pos] = i;
  }
  const bool greedy = options.beam == 1;
  num_results_ = count < options.nbest ? count : options.nbest;
  const int32_t S = src_len;
  for (int32_t n = 0; n < num_results_; ++n) {
    const Finished& f = finished_[order_[n]];
    int32_t* ids = result_ids_ + static_cast<int64_t>(n) * max_tgt_len_;
    float* attention =
        keep_attention_ ? result_attention_ + static_cast<int64_t>(n) * max_tgt_len_ * S : nullptr;
    const int32_t attention_steps = f.length + (f.eos ? 1 : 0);
    int32_t row = f.row;  // row in the live set of step f.length
    if (attention != nullptr && f.eos) {
      memcpy(attention + static_cast<int64_t>(f.length) * S,
             attention_history_ + (static_cast<int64_t>(f.length) * max_beam_ + row) * S,
             sizeof(float) * static_cast<size_t>(S));
    }
    for (int32_t u = f.length - 1; u >= 0; --u) {
      const int32_t parent = history_parents_[static_cast<int64_t>(u) * max_beam_ + row];
      ids[u] = history_tokens_[static_cast<int64_t>(u) * max_beam_ + row];
      if (attention != nullptr) {
        memcpy(attention + static_cast<int64_t>(u) * S,
               attention_history_ + (static_cast<int64_t>(u) * max_beam_ + parent) * S,
               sizeof(float) * static_cast<size_t>(S));
      }
      row = parent;
    }
    SearchResult& result = results_[n];
    result.ids = ids;
    result.length = f.length;
    result.log_prob = f.log_prob;
    result.score = greedy ? f.log_prob : f.score;
    result.ended_with_eos = f.eos;
    result.attention = attention;
    result.attention_steps = attention != nullptr ? attention_steps : 0;
  }
}

}  // namespace edgenmt
