// `--batch N --threads T` for `translate` and `eval`: T Sessions (each its own Translator and
// arena) over one LoadedModel, each on its own std::thread over a contiguous part of the
// sources, each translating its part with Translator::TranslateBatch (limits.max_batch = N;
// N = 1: Translate, one source at a time, exactly as without the flags). Results are copied
// out of the arenas and stored by input index, so callers print them in input order.
#ifndef EDGENMT_TOOLS_CLI_BATCH_RUNNER_H_
#define EDGENMT_TOOLS_CLI_BATCH_RUNNER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "command_line.h"
#include "edgenmt/translator.h"
#include "session.h"

namespace edgenmt::cli {

// One hypothesis, owned (edgenmt::Hypothesis points into an arena).
struct OwnedHypothesis {
  std::vector<int32_t> ids;
  std::string text;
  float score = 0.0f;
  float log_prob = 0.0f;
  bool ended_with_eos = false;
  std::vector<float> attention;  // [attention_steps, src_len], empty unless asked for
  int32_t attention_steps = 0;
};

// One source's outcome: status kOk with hypotheses, or the error and its detail.
struct OwnedResult {
  Status status = Status::kInternal;
  std::string detail;
  std::vector<int32_t> src_ids;
  int32_t src_unknown = 0;
  std::vector<OwnedHypothesis> hypotheses;  // best first
};

// Declares --batch and --threads.
void AddThroughputOptions(CommandLine* command_line);
// Reads them (1 when absent). False with *error on a bad value.
bool ReadThroughputFlags(const CommandLine& args, int* batch, int* threads, std::string* error);

class BatchRunner {
 public:
  // `threads` sessions for `limits`, each with limits.max_batch = batch. Prints why on failure.
  bool Init(const LoadedModel& model, SessionLimits limits, int batch, int threads);

  // Translates sources[0, n) into (*results)[0, n) (resized to n), in input order; returns the
  // wall-clock seconds of the translation (copying the results included).
  double Run(const std::vector<std::string>& sources, const TranslateOptions& options,
             std::vector<OwnedResult>* results);

  // The first session (for ScoreIds, arena figures: every session has the same arena).
  Session& session() { return *sessions_[0]; }
  int batch() const { return batch_; }
  int threads() const { return static_cast<int>(sessions_.size()); }

 private:
  void RunPart(Session* session, const std::vector<std::string>& sources, size_t begin, size_t end,
               const TranslateOptions& options, std::vector<OwnedResult>* results);

  std::vector<std::unique_ptr<Session>> sessions_;
  int batch_ = 1;
};

}  // namespace edgenmt::cli

#endif  // EDGENMT_TOOLS_CLI_BATCH_RUNNER_H_
