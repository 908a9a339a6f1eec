#include "stage_profile.h"

#include <string>

namespace edgenmt::cli {

StageProfile::StageProfile() {
  profiler_.begin = &StageProfile::Begin;
  profiler_.end = &StageProfile::End;
  profiler_.context = this;
  stack_.reserve(8);  // stages nest at most three deep
  SetProfiler(&profiler_);
}

StageProfile::~StageProfile() { SetProfiler(nullptr); }

void StageProfile::Begin(void* context, ProfileStage stage) {
  auto* self = static_cast<StageProfile*>(context);
  self->stack_.push_back(Frame{stage, Clock::now(), 0.0});
}

void StageProfile::End(void* context, ProfileStage stage) {
  const Clock::time_point now = Clock::now();
  auto* self = static_cast<StageProfile*>(context);
  if (self->stack_.empty() || self->stack_.back().stage != stage) return;  // unbalanced: ignore
  const Frame frame = self->stack_.back();
  self->stack_.pop_back();
  const double elapsed = std::chrono::duration<double>(now - frame.start).count();
  const auto index = static_cast<size_t>(stage);
  self->seconds_[index] += elapsed - frame.inner_seconds;
  ++self->calls_[index];
  if (!self->stack_.empty()) self->stack_.back().inner_seconds += elapsed;
}

void StageProfile::Print(FILE* out, KernelBackend backend, size_t arena_bytes, int32_t beam) const {
  const double lines = translations_ > 0 ? static_cast<double>(translations_) : 1.0;
  const double total = translate_seconds_ > 0.0 ? translate_seconds_ : 1e-12;
  std::fprintf(out,
               "edgenmt translate: profile of %lld line(s), beam %d, backend %s (%s), arena %zu "
               "bytes\n",
               static_cast<long long>(translations_), beam, KernelBackendName(backend),
               KernelBackendVariant(backend), arena_bytes);
  std::fprintf(out, "  %-34s %10s %11s %10s %7s\n", "stage (own time)", "calls", "total ms",
               "ms/line", "share");
  struct Row {
    ProfileStage stage;
    const char* label;
  };
  const Row rows[] = {
      {ProfileStage::kEncoder, "encoder"},
      {ProfileStage::kRecurrentCell, "recurrent cell (decoder)"},
      {ProfileStage::kAttention, "attention"},
      {ProfileStage::kFeedForward, "feed-forward (transformer)"},
      {ProfileStage::kOutputProjection, "output projection"},
      {ProfileStage::kDecoderStep, "decoder step, rest (embed, reorder)"},
      {ProfileStage::kSearch, "search (beam bookkeeping)"},
  };
  double staged = 0.0;
  for (const Row& row : rows) {
    const auto i = static_cast<size_t>(row.stage);
    staged += seconds_[i];
    std::fprintf(out, "  %-34s %10lld %11.3f %10.4f %6.1f%%\n", row.label,
                 static_cast<long long>(calls_[i]), 1e3 * seconds_[i], 1e3 * seconds_[i] / lines,
                 100.0 * seconds_[i] / total);
  }
  const double rest = translate_seconds_ - staged;
  std::fprintf(out, "  %-34s %10s %11.3f %10.4f %6.1f%%\n", "other (tokenize, detokenize)", "",
               1e3 * rest, 1e3 * rest / lines, 100.0 * rest / total);
  std::fprintf(out, "  %-34s %10lld %11.3f %10.4f %6.1f%%\n", "translate (total)",
               static_cast<long long>(translations_), 1e3 * translate_seconds_,
               1e3 * translate_seconds_ / lines, 100.0);
  std::string operations;
  for (int32_t i = 0; i < KernelOperationCount(); ++i) {
    operations +=
        std::string(i ? ", " : "") + KernelOperationName(i) + " " +
        (KernelOperationImplemented(backend, i) ? KernelOperationProvider(backend, i) : "(none)");
  }
  std::fprintf(out, "  kernel operations: %s\n", operations.c_str());
  std::fprintf(out, "  arena: %zu bytes, allocated once at session start\n", arena_bytes);
}

}  // namespace edgenmt::cli
