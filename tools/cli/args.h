// A minimal, strict command-line parser for the CLI: every option is declared with its kind,
// unknown options and malformed numbers are errors (exit code 1), never ignored.
#ifndef EDGENMT_TOOLS_CLI_ARGS_H_
#define EDGENMT_TOOLS_CLI_ARGS_H_

#include <map>
#include <string>
#include <vector>

namespace edgenmt::cli {

class Args {
 public:
  // `flags` take no value; `options` take one (as "--name value" or "--name=value").
  Args(std::vector<std::string> flags, std::vector<std::string> options)
      : flags_(std::move(flags)), options_(std::move(options)) {}

  // Parses argv[first..argc). Returns false with *error set on an unknown option or a missing
  // value. Non-option words go to positional().
  bool Parse(int argc, char** argv, int first, std::string* error);

  bool Has(const std::string& name) const { return values_.count(name) != 0; }
  std::string Get(const std::string& name, const std::string& fallback = "") const;
  // Typed getters: false with *error when the value is not a number in [lo, hi].
  bool GetInt(const std::string& name, long lo, long hi, int* out, std::string* error) const;
  bool GetFloat(const std::string& name, double lo, double hi, float* out, std::string* error) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::vector<std::string> flags_;
  std::vector<std::string> options_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

}  // namespace edgenmt::cli

#endif  // EDGENMT_TOOLS_CLI_ARGS_H_
