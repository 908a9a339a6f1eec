// edgenmt eval: scores a model on a word<TAB>phonemes file exactly like
// converter/reference/evaluate.py, optionally against a float reference model.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "batch_runner.h"
#include "command_line.h"
#include "commands.h"
#include "decode_flags.h"
#include "scoring.h"
#include "session.h"

namespace edgenmt::cli {
namespace {

std::vector<std::string> HypothesisTokens(const OwnedResult& result) {
  return SplitOnSpaces(result.hypotheses[0].text);
}

}  // namespace

int RunEval(int argc, char** argv) {
  CommandLine args("edgenmt eval");
  args.AddOption("-m", "model file (.enmt)");
  args.AddOption("--data", "word<TAB>phonemes file to score on");
  AddDecodeOptions(&args);
  args.AddOption("--reference", "float model file to compare outputs and log-probs with");
  args.AddOption("--limit", "score only the first N words");
  args.AddOption("--outputs",
                 "write word<TAB>output<TAB>score per word to FILE (golden format: "
                 "converter/reference/golden_outputs.py)");
  AddThroughputOptions(&args);
  std::string error;
  const CommandLine::Outcome parsed = args.Parse(argc, argv, &error);
  if (parsed == CommandLine::Outcome::kHelp) {
    std::printf("%s", args.help().c_str());
    return kExitOk;
  }
  if (parsed == CommandLine::Outcome::kError || !args.Has("-m") || !args.Has("--data")) {
    std::fprintf(
        stderr, "edgenmt eval: error: %s\n",
        error.empty() ? "usage: edgenmt eval -m FILE --data TSV [options]" : error.c_str());
    return kExitUsage;
  }
  LoadedModel model;
  if (!model.Load(args.Get("-m"))) return kExitModel;

  // The decoding evaluate.py uses: greedy unless --beam, n-best 1, no penalties, max length 64.
  TranslateOptions decode;
  decode.beam = 1;
  decode.nbest = 1;
  decode.alpha = 0.0f;
  decode.beta = 0.0f;
  decode.min_len = 0;
  decode.max_len = 64;
  decode.max_len_ratio = 0.0f;
  KernelBackend backend = DefaultKernelBackend();
  int limit = 0, batch = 1, threads = 1;
  if (!ReadDecodeFlags(args, &decode, &backend, &error) ||
      !args.GetInt("--limit", 1, 1 << 30, &limit, &error) ||
      !ReadThroughputFlags(args, &batch, &threads, &error)) {
    std::fprintf(stderr, "edgenmt eval: error: %s\n", error.c_str());
    return kExitUsage;
  }
  decode.nbest = 1;

  std::vector<EvalItem> items;
  if (!ReadEvalData(args.Get("--data"), &items, &error)) {
    std::fprintf(stderr, "edgenmt eval: error: %s\n", error.c_str());
    return kExitData;
  }
  if (limit > 0 && static_cast<size_t>(limit) < items.size())
    items.resize(static_cast<size_t>(limit));

  // One more target token than max_len so ScoreIds can also score a forced-end output (where
  // a Transformer has the position for it; otherwise that output is not scored).
  SessionLimits limits = LimitsFor(model.model(), decode, backend, false);
  limits.max_tgt_len = ScoringTargetLimit(model.model(), decode.max_len);
  BatchRunner runner;
  if (!runner.Init(model, limits, batch, threads)) return kExitRuntime;
  Session& session = runner.session();

  const bool compare = args.Has("--reference");
  LoadedModel reference_model;
  BatchRunner reference_runner;
  if (compare) {
    if (!reference_model.Load(args.Get("--reference"))) return kExitModel;
    SessionLimits reference_limits = LimitsFor(reference_model.model(), decode, backend, false);
    reference_limits.max_tgt_len = ScoringTargetLimit(reference_model.model(), decode.max_len);
    if (!reference_runner.Init(reference_model, reference_limits, batch, threads)) {
      return kExitRuntime;
    }
  }

  FILE* outputs = nullptr;
  if (args.Has("--outputs")) {
    outputs = std::fopen(args.Get("--outputs").c_str(), "w");
    if (outputs == nullptr) {
      std::fprintf(stderr, "edgenmt eval: error: cannot write %s\n", args.Get("--outputs").c_str());
      return kExitData;
    }
  }
  ErrorRateAccumulator scores, reference_scores;
  int64_t failed = 0, identical = 0, compared = 0;
  // Teacher-forced comparison on the reference model's own output: per step |log p - log p_ref|.
  double abs_log_prob_error = 0.0, max_abs_log_prob_error = 0.0;
  int64_t scored_steps = 0;
  std::vector<float> step_lp(static_cast<size_t>(decode.max_len) + 1);
  std::vector<float> ref_step_lp(static_cast<size_t>(decode.max_len) + 1);
  // Every word is translated first (batches on the sessions' threads; the timed part), then
  // scored in file order.
  std::vector<std::string> sources;
  sources.reserve(items.size());
  for (const EvalItem& item : items) sources.push_back(item.source);
  std::vector<OwnedResult> results, ref_results;
  const double seconds = runner.Run(sources, decode, &results);
  if (compare) reference_runner.Run(sources, decode, &ref_results);
  for (size_t i = 0; i < items.size(); ++i) {
    const EvalItem& item = items[i];
    const OwnedResult& result = results[i];
    const Status status = result.status;
    std::vector<std::string> hypothesis;
    if (status != Status::kOk) {
      // Scored as an empty output (every phoneme wrong), like a failed translation would be.
      ++failed;
      std::fprintf(stderr, "edgenmt eval: error: '%s': %s: %s\n", item.source.c_str(),
                   StatusName(status), result.detail.c_str());
    } else {
      hypothesis = HypothesisTokens(result);
    }
    if (outputs != nullptr) {
      const OwnedHypothesis* best = status == Status::kOk ? &result.hypotheses[0] : nullptr;
      std::fprintf(outputs, "%s\t%s\t%.6f\n", item.source.c_str(), best ? best->text.c_str() : "",
                   best ? static_cast<double>(best->score) : -INFINITY);
    }
    scores.Add(hypothesis, item.references);
    if (compare) {
      const OwnedResult& ref_result = ref_results[i];
      if (ref_result.status == Status::kOk) {
        std::vector<std::string> ref_hypothesis = HypothesisTokens(ref_result);
        reference_scores.Add(ref_hypothesis, item.references);
        ++compared;
        if (status == Status::kOk && ref_hypothesis == hypothesis) ++identical;
        const OwnedHypothesis& ref_best = ref_result.hypotheses[0];
        const int32_t src_len = static_cast<int32_t>(ref_result.src_ids.size());
        const int32_t length = static_cast<int32_t>(ref_best.ids.size());
        if (reference_runner.session().translator().ScoreIds(ref_result.src_ids.data(), src_len,
                                                             ref_best.ids.data(), length,
                                                             ref_step_lp.data()) == Status::kOk &&
            session.translator().ScoreIds(ref_result.src_ids.data(), src_len, ref_best.ids.data(),
                                          length, step_lp.data()) == Status::kOk) {
          for (int32_t t = 0; t <= length; ++t) {
            const double e = std::fabs(static_cast<double>(step_lp[t]) - ref_step_lp[t]);
            abs_log_prob_error += e;
            max_abs_log_prob_error = std::max(max_abs_log_prob_error, e);
            ++scored_steps;
          }
        }
      }
    }
  }
  if (outputs != nullptr && std::fclose(outputs) != 0) {
    std::fprintf(stderr, "edgenmt eval: error: writing %s failed\n", args.Get("--outputs").c_str());
    return kExitData;
  }
  const double words_per_second = seconds > 0 ? static_cast<double>(items.size()) / seconds : 0.0;
  std::fprintf(stderr,
               "edgenmt eval: %zu words, %lld failed, %.1f words/s (beam %d, batch %d, threads %d, "
               "backend %s (%s), arena %zu bytes = persistent %zu + scratch %zu, model %zu "
               "bytes)\n",
               items.size(), static_cast<long long>(failed), words_per_second, decode.beam, batch,
               threads, KernelBackendName(backend), KernelBackendVariant(backend),
               session.arena_bytes(), session.translator().arena_persistent_bytes(),
               session.translator().arena_scratch_bytes(), model.model().buffer_size());
  if (compare) {
    std::printf("reference: words=%lld WER=%.2f PER=%.2f\n",
                static_cast<long long>(reference_scores.words()), reference_scores.wer_percent(),
                reference_scores.per_percent());
    std::printf(
        "agreement=%.2f%% (%lld/%lld identical outputs)\n",
        compared > 0 ? 100.0 * static_cast<double>(identical) / static_cast<double>(compared) : 0.0,
        static_cast<long long>(identical), static_cast<long long>(compared));
    std::printf(
        "log-prob error per step: mean %.6f max %.6f over %lld steps (teacher-forced on "
        "the reference's outputs)\n",
        scored_steps > 0 ? abs_log_prob_error / static_cast<double>(scored_steps) : 0.0,
        max_abs_log_prob_error, static_cast<long long>(scored_steps));
  }
  std::printf("words=%lld WER=%.2f PER=%.2f\n", static_cast<long long>(scores.words()),
              scores.wer_percent(), scores.per_percent());
  return kExitOk;
}

}  // namespace edgenmt::cli
