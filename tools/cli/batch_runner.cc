#include "batch_runner.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdio>
#include <thread>

namespace edgenmt::cli {
namespace {

void CopyResult(const TranslationResult& result, OwnedResult* out) {
  out->status = Status::kOk;
  out->detail.clear();
  out->src_ids.assign(result.src_ids, result.src_ids + result.src_len);
  out->src_unknown = result.src_unknown;
  out->hypotheses.resize(static_cast<size_t>(result.num_hypotheses));
  for (int32_t h = 0; h < result.num_hypotheses; ++h) {
    const Hypothesis& in = result.hypotheses[h];
    OwnedHypothesis& hyp = out->hypotheses[static_cast<size_t>(h)];
    hyp.ids.assign(in.ids, in.ids + in.length);
    hyp.text.assign(in.text, in.text_length);
    hyp.score = in.score;
    hyp.log_prob = in.log_prob;
    hyp.ended_with_eos = in.ended_with_eos;
    hyp.attention_steps = in.attention != nullptr ? in.attention_steps : 0;
    hyp.attention.clear();
    if (in.attention != nullptr) {
      const size_t values =
          static_cast<size_t>(in.attention_steps) * static_cast<size_t>(result.src_len);
      hyp.attention.assign(in.attention, in.attention + values);
    }
  }
}

void SetError(Status status, const char* detail, OwnedResult* out) {
  out->status = status;
  out->detail = detail == nullptr ? "" : detail;
  out->src_ids.clear();
  out->src_unknown = 0;
  out->hypotheses.clear();
}

// TranslateBatch's callback: the part's results, indexed from the part's first source.
struct BatchSink {
  OwnedResult* first;
};

void OnBatchResult(void* user, int32_t index, Status status, const TranslationResult* result,
                   const char* detail) {
  OwnedResult* out = static_cast<BatchSink*>(user)->first + index;
  if (status == Status::kOk && result != nullptr) {
    CopyResult(*result, out);
  } else {
    SetError(status, detail, out);
  }
}

}  // namespace

void AddThroughputOptions(CommandLine* command_line) {
  command_line->AddOption("--batch", "sources decoded together per session, 1..1024 (default 1)");
  command_line->AddOption("--threads",
                          "sessions on as many threads over the one model, 1..256 "
                          "(default 1); output stays in input order");
}

bool ReadThroughputFlags(const CommandLine& args, int* batch, int* threads, std::string* error) {
  *batch = 1;
  *threads = 1;
  return args.GetInt("--batch", 1, 1024, batch, error) &&
         args.GetInt("--threads", 1, 256, threads, error);
}

bool BatchRunner::Init(const LoadedModel& model, SessionLimits limits, int batch, int threads) {
  batch_ = batch;
  limits.max_batch = batch;
  sessions_.clear();
  for (int t = 0; t < threads; ++t) {
    sessions_.push_back(std::make_unique<Session>());
    if (!sessions_.back()->Init(model, limits)) return false;
  }
  return true;
}

void BatchRunner::RunPart(Session* session, const std::vector<std::string>& sources, size_t begin,
                          size_t end, const TranslateOptions& options,
                          std::vector<OwnedResult>* results) {
  Translator& translator = session->translator();
  if (batch_ == 1) {  // one at a time: exactly the path without --batch
    for (size_t i = begin; i < end; ++i) {
      TranslationResult result;
      const Status status =
          translator.Translate(sources[i].data(), sources[i].size(), options, &result);
      if (status == Status::kOk) {
        CopyResult(result, &(*results)[i]);
      } else {
        SetError(status, translator.error_detail(), &(*results)[i]);
      }
    }
    return;
  }
  if (begin == end) return;
  std::vector<const char*> pointers;
  std::vector<size_t> lengths;
  for (size_t i = begin; i < end; ++i) {
    pointers.push_back(sources[i].data());
    lengths.push_back(sources[i].size());
  }
  BatchSink sink{results->data() + begin};
  const Status status =
      translator.TranslateBatch(pointers.data(), lengths.data(), static_cast<int32_t>(end - begin),
                                options, &OnBatchResult, &sink);
  if (status != Status::kOk) {  // nothing was run (options or state): every source fails so
    for (size_t i = begin; i < end; ++i)
      SetError(status, translator.error_detail(), &(*results)[i]);
  }
}

double BatchRunner::Run(const std::vector<std::string>& sources, const TranslateOptions& options,
                        std::vector<OwnedResult>* results) {
  results->assign(sources.size(), OwnedResult{});
  const auto start = std::chrono::steady_clock::now();
  const size_t parts = std::min(sessions_.size(), std::max<size_t>(sources.size(), 1));
  std::vector<std::thread> workers;
  for (size_t k = 1; k < parts; ++k) {
    workers.emplace_back(&BatchRunner::RunPart, this, sessions_[k].get(), std::cref(sources),
                         sources.size() * k / parts, sources.size() * (k + 1) / parts,
                         std::cref(options), results);
  }
  RunPart(sessions_[0].get(), sources, 0, sources.size() / parts, options, results);
  for (std::thread& worker : workers) worker.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace edgenmt::cli
