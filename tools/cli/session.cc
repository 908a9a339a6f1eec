#include "session.h"

#include <cstdio>
#include <cstdlib>

namespace edgenmt::cli {

bool LoadedModel::Load(const std::string& path) {
  path_ = path;
  std::string error;
  if (!file_.Open(path, &error)) {
    std::fprintf(stderr, "edgenmt: error: %s\n", error.c_str());
    return false;
  }
  const Status status = model_.Load(file_.data(), file_.size());
  if (status != Status::kOk) {
    std::fprintf(stderr, "edgenmt: error: %s: %s: %s\n", path.c_str(), StatusName(status),
                 model_.error_detail());
    return false;
  }
  return true;
}

void Session::FreeDeleter::operator()(void* p) const { std::free(p); }

bool Session::Init(const LoadedModel& model, const SessionLimits& limits) {
  size_t bytes = 0;
  char why[160];
  Status status = RequiredArenaBytes(model.model(), limits, &bytes, why, sizeof why);
  if (status != Status::kOk) {
    std::fprintf(stderr, "edgenmt: error: %s: cannot plan a session: %s: %s\n",
                 model.path().c_str(), StatusName(status), why);
    return false;
  }
  // aligned_alloc needs a size that is a multiple of the alignment.
  const size_t rounded = (bytes + 63) / 64 * 64;
  arena_.reset(std::aligned_alloc(64, rounded == 0 ? 64 : rounded));
  if (!arena_) {
    std::fprintf(stderr, "edgenmt: error: cannot allocate a %zu-byte arena\n", bytes);
    return false;
  }
  arena_bytes_ = bytes;
  status = translator_.Init(&model.model(), arena_.get(), bytes, limits);
  if (status != Status::kOk) {
    std::fprintf(stderr, "edgenmt: error: %s: %s: %s\n", model.path().c_str(), StatusName(status),
                 translator_.error_detail());
    return false;
  }
  return true;
}

bool ParseBackend(const std::string& name, KernelBackend* out) {
  return KernelBackendFromName(name.c_str(), out);
}

}  // namespace edgenmt::cli
