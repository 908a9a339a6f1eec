// The runtime side of edgenmt/profiler.h: a scope that reports one stage to the installed
// Profiler, if any. Building with -DEDGENMT_NO_PROFILING removes even the pointer test.
#ifndef EDGENMT_PROFILE_SCOPE_H_
#define EDGENMT_PROFILE_SCOPE_H_

#include "edgenmt/profiler.h"

namespace edgenmt {

extern const Profiler* g_profiler;  // profiler.cc; set by SetProfiler

class ProfileScope {
 public:
#if defined(EDGENMT_NO_PROFILING)
  explicit ProfileScope(ProfileStage) {}
#else
  explicit ProfileScope(ProfileStage stage) : profiler_(g_profiler), stage_(stage) {
    if (profiler_ != nullptr) profiler_->begin(profiler_->context, stage_);
  }
  ~ProfileScope() {
    if (profiler_ != nullptr) profiler_->end(profiler_->context, stage_);
  }

 private:
  const Profiler* profiler_;
  ProfileStage stage_;
#endif
  ProfileScope(const ProfileScope&) = delete;
  ProfileScope& operator=(const ProfileScope&) = delete;
};

}  // namespace edgenmt

#endif  // EDGENMT_PROFILE_SCOPE_H_
