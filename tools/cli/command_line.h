// The CLI's command lines, parsed by CLI11: every option is declared, unknown options, missing
// values and stray words are usage errors (exit code 1), never ignored. Values are kept as
// text and checked by the typed getters, so range errors read the same for every option
// ("--beam must be an integer in [1, 64], got '65'", docs/ERRORS.md).
#ifndef EDGENMT_TOOLS_CLI_COMMAND_LINE_H_
#define EDGENMT_TOOLS_CLI_COMMAND_LINE_H_

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

namespace edgenmt::cli {

class CommandLine {
 public:
  // `program` names the command in help and errors, e.g. "edgenmt translate".
  explicit CommandLine(const std::string& program);

  // An option taking one value ("--name value", "--name=value"; a repeated option keeps the
  // last value). `names` as CLI11 spells them: "-m", "--beam", "-m,--model".
  void AddOption(const std::string& names, const std::string& description);
  // An option without a value.
  void AddFlag(const std::string& names, const std::string& description);
  // Positional words, any number; the command checks how many it got.
  void AddPositionals(const std::string& name, const std::string& description);

  enum class Outcome { kParsed, kHelp, kError };
  // Parses argv[1..argc). kHelp: --help was given (help() has the text); kError: *error says why.
  Outcome Parse(int argc, char** argv, std::string* error);
  std::string help() const { return app_.help(); }

  // `name` is the name an option was declared with, its longest spelling ("--beam", "-m").
  bool Has(const std::string& name) const;
  std::string Get(const std::string& name, const std::string& fallback = "") const;
  // Typed getters: true and *out unchanged when the option is absent; false with *error when
  // the value is not a number in [lo, hi].
  bool GetInt(const std::string& name, long lo, long hi, int* out, std::string* error) const;
  bool GetFloat(const std::string& name, double lo, double hi, float* out,
                std::string* error) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  const CLI::Option* Find(const std::string& name) const;

  CLI::App app_;
  std::map<std::string, std::string> values_;
  std::map<std::string, CLI::Option*> options_;
  std::vector<const CLI::Option*> valued_;  // the options that take a value
  std::vector<std::string> positional_;
};

}  // namespace edgenmt::cli

#endif  // EDGENMT_TOOLS_CLI_COMMAND_LINE_H_
