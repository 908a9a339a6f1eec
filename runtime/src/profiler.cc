#include "edgenmt/profiler.h"

#include "profile_scope.h"

namespace edgenmt {

const Profiler* g_profiler = nullptr;

void SetProfiler(const Profiler* profiler) { g_profiler = profiler; }

const char* ProfileStageName(ProfileStage stage) {
  switch (stage) {
    case ProfileStage::kEncoder: return "encoder";
    case ProfileStage::kSearch: return "search";
    case ProfileStage::kDecoderStep: return "decoder step";
    case ProfileStage::kRecurrentCell: return "recurrent cell";
    case ProfileStage::kAttention: return "attention";
    case ProfileStage::kOutputProjection: return "output projection";
    case ProfileStage::kFeedForward: return "feed-forward";
  }
  return "unknown";
}

}  // namespace edgenmt
