// Beam search (and greedy = beam 1) over a SequenceDecoder, exactly as docs/MODEL.md "Decoding":
// shrinking beam, ties to the earlier parent then the lower token id, min/max length (absolute
// and ratio), length and coverage penalties, n-best, and the early-stop rule. Deterministic:
// the same inputs give the same outputs on every backend that computes the same log-probs.
//
// Histories are kept as back-pointers (per step: parent row and token of each live
// hypothesis), so nothing is copied per step except the live rows' attention when it is
// kept; results are rebuilt by walking back from each finished hypothesis.
//
// Arena (Prepare): live scores, tokens, candidates, parents [max_beam]; back-pointers
// [max_tgt_len, max_beam] x 2; coverage [max_beam, max_src] x 2 (attention models);
// attention history [max_tgt_len, max_beam, max_src] (keep_attention only); finished list
// [max_beam]; results: ids [max_nbest, max_tgt_len], attention [max_nbest, max_tgt_len,
// max_src] (keep_attention only).
#ifndef EDGENMT_SEARCH_BEAM_SEARCH_H_
#define EDGENMT_SEARCH_BEAM_SEARCH_H_

#include <stdint.h>

#include "decoder/sequence_decoder.h"
#include "edgenmt/internal/arena.h"
#include "edgenmt/decoding_options.h"
#include "error_detail.h"

namespace edgenmt {

struct SearchResult {
  const int32_t* ids;  // [length] output tokens, without <s> / </s>
  int32_t length;
  float score;              // final score (greedy: the log-prob)
  float log_prob;           // sum of the natural-log probabilities of the tokens (+ </s>)
  bool ended_with_eos;      // false when ended by max_steps
  const float* attention;   // [attention_steps, src_len] or null (keep_attention off)
  int32_t attention_steps;  // length + (ended_with_eos ? 1 : 0)
};

class BeamSearch {
 public:
  Status Prepare(int32_t max_beam, int32_t max_nbest, int32_t max_tgt_len, int32_t max_src_len,
                 int32_t vocab_size, bool model_has_attention, bool keep_attention, bool persistent,
                 Arena* arena, ErrorDetail* detail);

  // Searches on a decoder that has just been Encode()d. Options must already be validated
  // (ValidateDecodingOptions) and within the limits given to Prepare (beam <= max_beam, nbest
  // <= max_nbest, the effective max_steps <= max_tgt_len). Attention is kept whenever Prepare
  // reserved it; return_attention is the caller's business.
  void Run(SequenceDecoder* decoder, const DecodingOptions& options);

  // The same search one step at a time, for a caller that steps the decoder itself (several
  // searches over one batched decoder, Translator::TranslateBatch): Begin, then per step the
  // decoder advances live() rows fed live_tokens(), and Advance takes that step's log-probs
  // ([live(), vocab_size], Q15.16 for an integer decoder, masked in place) and attention
  // ([live(), src_len] or null without attention). It returns true when the search is over
  // (results ready, live() == 0); otherwise the decoder's next rows are parents()[0, live()).
  // Run is exactly this loop. Begin's options follow Run's contract.
  void Begin(const DecodingOptions& options, int32_t src_len, int32_t vocab_size, int32_t bos_id,
             int32_t eos_id);
  bool Advance(float* log_probs, const float* attention);
  bool Advance(int32_t* log_probs_q16, const float* attention);
  int32_t live() const { return live_; }
  const int32_t* live_tokens() const { return live_tokens_; }
  const int32_t* parents() const { return next_parents_; }

  // max_steps of docs/MODEL.md for a source of src_len tokens.
  static int32_t MaxSteps(const DecodingOptions& options, int32_t src_len);

  int32_t num_results() const { return num_results_; }
  const SearchResult& result(int32_t i) const { return results_[i]; }
  // Decoder steps taken: by the last Run, or so far by the search in progress (Begin / Advance).
  int32_t steps() const { return steps_; }

 private:
  struct Finished {
    int32_t length;  // output tokens
    int32_t row;     // row in the live set of step `length` (its parent row for </s>)
    bool eos;        // ended by </s> (else forced by max_steps)
    float log_prob;
    float score;
  };

  // Score: float, or int32 Q15.16 for decoders with exact integer log-probs (log_probs_q16).
  template <typename Score>
  bool AdvanceScored(Score* log_probs, const float* attention);
  bool Finish(int32_t steps);
  // Search state lives in scratch, or in persistent memory where other phases (a batch's
  // encoder) run between steps.
  template <typename T, typename... Dims>
  static T* Buffer(Arena* arena, bool persistent, size_t count, Dims... dims) {
    return persistent ? arena->AllocateArray<T>(count, dims...)
                      : arena->AllocateScratchArray<T>(count, dims...);
  }
  template <typename Score>
  int32_t SelectCandidates(const Score* log_probs, int32_t rows, int32_t vocab, int32_t count);
  template <typename Score>
  static Score* Scores(int32_t* storage) {
    return reinterpret_cast<Score*>(storage);
  }
  float FinalScore(const DecodingOptions& options, float log_prob, int32_t length,
                   const float* coverage, int32_t src_len) const;
  void BuildResults(const DecodingOptions& options, int32_t src_len);

  int32_t max_beam_ = 0;
  int32_t max_nbest_ = 0;
  int32_t max_tgt_len_ = 0;
  int32_t max_src_len_ = 0;
  bool track_coverage_ = false;
  bool keep_attention_ = false;

  int32_t* live_scores_ = nullptr;  // cumulative log-prob per live row (float or Q15.16)
  int32_t* next_scores_ = nullptr;
  int32_t* live_tokens_ = nullptr;  // previous token per live row (decoder input)
  int32_t* next_tokens_ = nullptr;
  int32_t* next_parents_ = nullptr;
  int32_t* cand_scores_ = nullptr;  // selected candidates, best first (float or Q15.16)
  int32_t* cand_parents_ = nullptr;
  int32_t* cand_tokens_ = nullptr;
  int32_t* history_parents_ = nullptr;  // [max_tgt_len, max_beam]
  int32_t* history_tokens_ = nullptr;   // [max_tgt_len, max_beam]
  float* coverage_ = nullptr;           // [max_beam, max_src] sum of a_t per live row
  float* coverage_next_ = nullptr;
  float* attention_history_ = nullptr;  // [max_tgt_len, max_beam, max_src]
  Finished* finished_ = nullptr;        // [max_beam]
  int32_t* order_ = nullptr;            // [max_beam] finished sorted by score
  int32_t* result_ids_ = nullptr;       // [max_nbest, max_tgt_len]
  float* result_attention_ = nullptr;   // [max_nbest, max_tgt_len, max_src]
  SearchResult* results_ = nullptr;     // [max_nbest]

  DecodingOptions options_{};  // of the search in progress (Begin)
  int32_t src_len_ = 0;
  int32_t vocab_size_ = 0;
  int32_t eos_id_ = 0;
  int32_t max_steps_ = 0;
  bool use_coverage_ = false;
  int32_t live_ = 0;

  int32_t num_finished_ = 0;
  int32_t num_results_ = 0;
  int32_t steps_ = 0;
};

}  // namespace edgenmt

#endif  // EDGENMT_SEARCH_BEAM_SEARCH_H_
