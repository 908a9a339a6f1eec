// A model mapped from disk plus a Translator over a host-allocated arena: the CLI's one way
// to get from a path to translations. The arena is sized with RequiredArenaBytes, exactly as
// firmware would size a static buffer.
#ifndef EDGENMT_TOOLS_CLI_SESSION_H_
#define EDGENMT_TOOLS_CLI_SESSION_H_

#include <cstdint>
#include <memory>
#include <string>

#include "edgenmt/model.h"
#include "edgenmt/translator.h"
#include "model_file.h"

namespace edgenmt::cli {

// Exit codes of the CLI (docs/USAGE.md "Exit codes and errors").
enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 1,            // bad command line
  kExitModel = 2,            // model file missing, unreadable or rejected by verification
  kExitData = 3,             // data file missing or malformed, output file not writable
  kExitSomeLinesFailed = 4,  // translate: at least one line failed (the others were translated)
  kExitRuntime = 5,          // session could not be created (arena, limits, backend)
};

// Loads and verifies a model file. On failure prints "edgenmt: error: PATH: reason" to stderr.
class LoadedModel {
 public:
  bool Load(const std::string& path);
  const Model& model() const { return model_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  MappedFile file_;
  Model model_;
};

class Session {
 public:
  // Creates a translator for `limits`; prints an error naming the model path on failure.
  bool Init(const LoadedModel& model, const SessionLimits& limits);
  Translator& translator() { return translator_; }
  size_t arena_bytes() const { return arena_bytes_; }

 private:
  struct FreeDeleter {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, FreeDeleter> arena_;
  size_t arena_bytes_ = 0;
  Translator translator_;
};

bool ParseBackend(const std::string& name, KernelBackend* out);

}  // namespace edgenmt::cli

#endif  // EDGENMT_TOOLS_CLI_SESSION_H_
