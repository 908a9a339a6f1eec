// `edgenmt translate --profile`: times the runtime's stages (edgenmt/profiler.h) with the host's
// steady clock. Each stage is charged its own time only (a decoder step's time excludes the
// cells, attention and projection inside it), so the rows add up to the translation time.
#ifndef EDGENMT_TOOLS_CLI_STAGE_PROFILE_H_
#define EDGENMT_TOOLS_CLI_STAGE_PROFILE_H_

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "edgenmt/profiler.h"
#include "edgenmt/translator.h"

namespace edgenmt::cli {

class StageProfile {
 public:
  // Installs itself as the process' profiler until destroyed.
  StageProfile();
  ~StageProfile();
  StageProfile(const StageProfile&) = delete;
  StageProfile& operator=(const StageProfile&) = delete;

  // Adds one Translate call's wall time (stages are accumulated by the hook).
  void AddTranslation(double seconds) {
    translate_seconds_ += seconds;
    ++translations_;
  }
  // Adds `count` lines translated together (one batch call) in `seconds`.
  void AddTranslations(double seconds, int64_t count) {
    translate_seconds_ += seconds;
    translations_ += count;
  }

  // The table: per stage calls, ms, ms per line and share; the backend of each kernel
  // operation; the arena.
  void Print(FILE* out, KernelBackend backend, size_t arena_bytes, int32_t beam) const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Frame {
    ProfileStage stage;
    Clock::time_point start;
    double inner_seconds;  // time of the stages nested in this one
  };
  static void Begin(void* context, ProfileStage stage);
  static void End(void* context, ProfileStage stage);

  Profiler profiler_{};
  std::vector<Frame> stack_;
  std::array<double, kProfileStageCount> seconds_{};
  std::array<int64_t, kProfileStageCount> calls_{};
  double translate_seconds_ = 0.0;
  int64_t translations_ = 0;
};

}  // namespace edgenmt::cli

#endif  // EDGENMT_TOOLS_CLI_STAGE_PROFILE_H_
