// The converter's one error type: where (a path or a tensor name), why, and the exit code.
#ifndef EDGENMT_CONVERTER_CONVERT_ERROR_H_
#define EDGENMT_CONVERTER_CONVERT_ERROR_H_

#include <stdexcept>
#include <string>

namespace edgenmt::converter {

// Process exit codes of edgenmt-convert.
enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 1,        // bad command line
  kExitBadInput = 2,     // the checkpoint directory is missing, unreadable or inconsistent
  kExitWriteFailed = 3,  // the output file could not be written
};

class ConvertError : public std::runtime_error {
 public:
  ConvertError(ExitCode code, std::string where, const std::string& reason)
      : std::runtime_error(reason), code_(code), where_(std::move(where)) {}
  ExitCode code() const { return code_; }
  const std::string& where() const { return where_; }
  // "<where>: <reason>" as printed after "edgenmt-convert: error: ".
  std::string message() const { return where_.empty() ? what() : where_ + ": " + what(); }

 private:
  ExitCode code_;
  std::string where_;
};

}  // namespace edgenmt::converter

#endif  // EDGENMT_CONVERTER_CONVERT_ERROR_H_
