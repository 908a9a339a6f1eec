#include "args.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace edgenmt::cli {

static bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool Args::Parse(int argc, char** argv, int first, std::string* error) {
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-') {
      positional_.push_back(arg);
      continue;
    }
    std::string value;
    bool has_inline_value = false;
    const size_t eq = arg.find('=');
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_inline_value = true;
    }
    if (Contains(flags_, arg)) {
      if (has_inline_value) {
        *error = "option " + arg + " takes no value";
        return false;
      }
      values_[arg] = "1";
    } else if (Contains(options_, arg)) {
      if (!has_inline_value) {
        if (i + 1 >= argc) {
          *error = "option " + arg + " needs a value";
          return false;
        }
        value = argv[++i];
      }
      values_[arg] = value;
    } else {
      *error = "unknown option " + arg;
      return false;
    }
  }
  return true;
}

std::string Args::Get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

bool Args::GetInt(const std::string& name, long lo, long hi, int* out, std::string* error) const {
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

bool Args::GetFloat(const std::string& name, double lo, double hi, float* out,
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
