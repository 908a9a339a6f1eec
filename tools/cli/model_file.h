// Host-side model file access for the CLI: maps a model file read-only (never copied), so the
// runtime sees it exactly as it would see flash on a device. mmap returns page-aligned memory,
// which satisfies the runtime's 64-byte alignment requirement.
#ifndef EDGENMT_TOOLS_CLI_MODEL_FILE_H_
#define EDGENMT_TOOLS_CLI_MODEL_FILE_H_

#include <cstddef>
#include <string>

namespace edgenmt::cli {

class MappedFile {
 public:
  MappedFile() = default;
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  // Maps `path`; on failure returns false and sets *error to "path: reason".
  bool Open(const std::string& path, std::string* error);

  const void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;  // an empty file has no mapping
};

}  // namespace edgenmt::cli

#endif  // EDGENMT_TOOLS_CLI_MODEL_FILE_H_
