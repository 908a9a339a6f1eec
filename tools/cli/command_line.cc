#include "command_line.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace edgenmt::cli {

CommandLine::CommandLine(const std::string& program) : app_(program) {
  app_.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

// The key an option is stored under: its long name if it has one, else its short one.
static std::string Key(const CLI::Option* option) {
  const auto& longs = option->get_lnames();
  return longs.empty() ? "-" + option->get_snames().front() : "--" + longs.front();
}

void CommandLine::AddOption(const std::string& names, const std::string& description) {
  CLI::Option* option = app_.add_option(names, description)->type_name("VALUE");
  options_[Key(option)] = option;
  valued_.push_back(option);
}

void CommandLine::AddFlag(const std::string& names, const std::string& description) {
  CLI::Option* option = app_.add_flag(names, description);
  options_[Key(option)] = option;
}

void CommandLine::AddPositionals(const std::string& name, const std::string& description) {
  app_.add_option(name, positional_, description);
}

CommandLine::Outcome CommandLine::Parse(int argc, char** argv, std::string* error) {
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return Outcome::kHelp;
  } catch (const CLI::ParseError& e) {
    *error = e.what();
    return Outcome::kError;
  }
  for (const CLI::Option* option : valued_) {
    if (option->count() > 0) values_[Key(option)] = option->results().back();
  }
  return Outcome::kParsed;
}

const CLI::Option* CommandLine::Find(const std::string& name) const {
  auto it = options_.find(name);
  return it == options_.end() ? nullptr : it->second;
}

bool CommandLine::Has(const std::string& name) const {
  const CLI::Option* option = Find(name);
  return option != nullptr && option->count() > 0;
}

std::string CommandLine::Get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

bool CommandLine::GetInt(const std::string& name, long lo, long hi, int* out,
                         std::string* error) const {
  auto it = values_.find(name);
  if (it == values_.end()) return true;  // keep the default
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(it->second.c_str(), &end, 10);
  if (errno != 0 || end == it->second.c_str() || *end != '\0' || v < lo || v > hi) {
    *error = name + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
             "], got '" + it->second + "'";
    return false;
  }
  *out = static_cast<int>(v);
  return true;
}

bool CommandLine::GetFloat(const std::string& name, double lo, double hi, float* out,
                           std::string* error) const {
  auto it = values_.find(name);
  if (it == values_.end()) return true;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  if (errno != 0 || end == it->second.c_str() || *end != '\0' || !std::isfinite(v) || v < lo ||
      v > hi) {
    *error = name + " must be a number in [" + std::to_string(lo) + ", " + std::to_string(hi) +
             "], got '" + it->second + "'";
    return false;
  }
  *out = static_cast<float>(v);
  return true;
}

}  // namespace edgenmt::cli
