// Translator::ScoreIds: teacher-forced log-probabilities of a given target (edgenmt/translator.h).
#include <string.h>

#include "edgenmt/translator.h"
#include "error_detail.h"
#include "translator_state.h"

namespace edgenmt {

Status Translator::ScoreIds(const int32_t* src_ids, int32_t src_len, const int32_t* tgt_ids,
                            int32_t tgt_len, float* step_log_probs) {
  ErrorDetail detail(error_detail_, sizeof(error_detail_));
  Status status = Status::kOk;
  const int32_t src_vocab = initialized_ ? model_->config().src_vocab_size : 0;
  const int32_t tgt_vocab = initialized_ ? model_->config().tgt_vocab_size : 0;
  if (!initialized_) {
    status = detail.Fail(Status::kNotInitialized, "ScoreIds before a successful Init");
  } else if (src_ids == nullptr || step_log_probs == nullptr || (tgt_ids == nullptr && tgt_len > 0) ||
             src_len < 0 || tgt_len < 0) {
    status = detail.Fail(Status::kInvalidArgument, "null pointer or negative length");
  } else if (src_len == 0) {
    status = detail.Fail(Status::kSourceEmpty, "source has no tokens");
  } else if (src_len > limits_.max_src_len) {
    status = detail.Fail(Status::kSourceTooLong, "source has ", src_len,
                         " tokens, max_src_len is ", limits_.max_src_len);
  } else if (tgt_len >= limits_.max_tgt_len) {
    status = detail.Fail(Status::kLimitExceeded, "target has ", tgt_len,
                         " tokens, the session allows fewer than ", limits_.max_tgt_len);
  }
  for (int32_t i = 0; status == Status::kOk && i < src_len; ++i) {
    if (src_ids[i] < 0 || src_ids[i] >= src_vocab) {
      status = detail.Fail(Status::kSourceTokenOutOfRange, "source id ", src_ids[i], " at ", i,
                           " outside [0, ", src_vocab, ")");
    }
  }
  for (int32_t i = 0; status == Status::kOk && i < tgt_len; ++i) {
    if (tgt_ids[i] < 0 || tgt_ids[i] >= tgt_vocab) {
      status = detail.Fail(Status::kInvalidArgument, "target id ", tgt_ids[i], " at ", i,
                           " outside [0, ", tgt_vocab, ")");
    }
  }
  if (status != Status::kOk) {
    const char* text = detail.c_str();
    size_t n = strlen(text);
    if (n >= sizeof(error_detail_)) n = sizeof(error_detail_) - 1;
    memcpy(error_detail_, text, n);
    error_detail_[n] = '\0';
    return status;
  }

  State& s = *state_;
  if (src_ids != s.src_ids) memmove(s.src_ids, src_ids, sizeof(int32_t) * static_cast<size_t>(src_len));
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
