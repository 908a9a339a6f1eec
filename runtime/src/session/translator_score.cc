// Translator::ScoreIds: teacher-forced log-probabilities of a given target (edgenmt/translator.h).
#include <string.h>

#include "edgenmt/translator.h"
#include "error_detail.h"
#include "session/translator_state.h"

namespace edgenmt {

Status Translator::ScoreIds(const int32_t* src_ids, int32_t src_len, const int32_t* tgt_ids,
                            int32_t tgt_len, float* step_log_probs) {
  if (!initialized_) return Fail(Status::kNotInitialized, "ScoreIds before a successful Init");
  if (src_ids == nullptr || step_log_probs == nullptr || (tgt_ids == nullptr && tgt_len > 0) ||
      src_len < 0 || tgt_len < 0) {
    return Fail(Status::kInvalidArgument, "null pointer or negative length");
  }
  EDGENMT_RETURN_IF_ERROR(CheckSource(src_ids, src_len));
  if (tgt_len >= limits_.max_tgt_len) {
    return Fail(Status::kLimitExceeded, "target has ", tgt_len,
                " tokens, the session allows fewer than ", limits_.max_tgt_len);
  }
  const int32_t tgt_vocab = model_->config().tgt_vocab_size;
  for (int32_t i = 0; i < tgt_len; ++i) {
    if (tgt_ids[i] < 0 || tgt_ids[i] >= tgt_vocab) {
      return Fail(Status::kInvalidArgument, "target id ", tgt_ids[i], " at ", i, " outside [0, ",
                  tgt_vocab, ")");
    }
  }

  State& s = *state_;
  if (src_ids != s.src_ids)
    memmove(s.src_ids, src_ids, sizeof(int32_t) * static_cast<size_t>(src_len));
  s.decoder.Encode(s.src_ids, src_len);
  int32_t previous = s.decoder.bos_id();
  for (int32_t t = 0; t <= tgt_len; ++t) {
    s.decoder.Step(&previous, 1);
    const int32_t target = t < tgt_len ? tgt_ids[t] : s.decoder.eos_id();
    step_log_probs[t] = s.decoder.log_probs()[target];
    previous = target;
  }
  error_detail_[0] = '\0';
  return Status::kOk;
}

}  // namespace edgenmt
