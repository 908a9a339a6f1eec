// edgenmt phonemize: English text on stdin, phonemes on stdout, one output line per input line
// (frontend/, docs/PHONEMIZER.md).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.h"
#include "commands.h"
#include "edgenmt/phonemizer.h"
#include "model_file.h"
#include "session.h"

namespace edgenmt::cli {
namespace {

struct LineContext {
  uint64_t line = 0;
  uint64_t warnings = 0;
};

void WriteStdout(void*, const char* bytes, size_t n) { std::fwrite(bytes, 1, n, stdout); }

void PrintWarning(void* user, const char* message) {
  auto* context = static_cast<LineContext*>(user);
  ++context->warnings;
  std::fprintf(stderr, "edgenmt phonemize: line %llu: %s\n",
               static_cast<unsigned long long>(context->line), message);
}

struct LexiconContext {
  const std::string* path;
};

void PrintLexiconError(void* user, uint32_t line, const char* message) {
  auto* context = static_cast<LexiconContext*>(user);
  std::fprintf(stderr, "edgenmt phonemize: %s:%u: %s\n", context->path->c_str(), line, message);
}

}  // namespace

int RunPhonemize(int argc, char** argv) {
  CommandLine args("edgenmt phonemize");
  args.AddOption("-m", "phonemizer file (build/models/phonemizer-en.enmt)");
  args.AddOption("--format", "arpabet (default), ipa or json");
  args.AddOption("--user-lexicon", "CMUdict-format file whose words override the lexicon");
  args.AddFlag("--no-lexicon", "do not use the file's lexicon (held-out evaluation)");
  args.AddOption("--backend", "simd, reference, auto or xnnpack");
  std::string error;
  switch (args.Parse(argc, argv, &error)) {
    case CommandLine::Outcome::kHelp: std::printf("%s", args.help().c_str()); return kExitOk;
    case CommandLine::Outcome::kError:
      std::fprintf(stderr, "edgenmt phonemize: error: %s\n", error.c_str());
      return kExitUsage;
    case CommandLine::Outcome::kParsed: break;
  }
  if (!args.Has("-m")) {
    std::fprintf(stderr, "edgenmt phonemize: error: -m FILE is required\n");
    return kExitUsage;
  }
  const std::string model_path = args.Get("-m");
  const std::string format_name = args.Get("--format", "arpabet");
  PhonemeFormat format;
  if (format_name == "arpabet")
    format = PhonemeFormat::kArpabet;
  else if (format_name == "ipa")
    format = PhonemeFormat::kIpa;
  else if (format_name == "json")
    format = PhonemeFormat::kJson;
  else {
    std::fprintf(stderr,
                 "edgenmt phonemize: error: --format must be arpabet, ipa or json, "
                 "got '%s'\n",
                 format_name.c_str());
    return kExitUsage;
  }
  PhonemizerLimits limits;
  limits.use_lexicon = !args.Has("--no-lexicon");
  if (args.Has("--backend") && !ParseBackend(args.Get("--backend"), &limits.backend)) {
    std::fprintf(stderr, "edgenmt phonemize: error: unknown --backend '%s'\n",
                 args.Get("--backend").c_str());
    return kExitUsage;
  }
  std::string user_lexicon;
  const std::string user_lexicon_path = args.Get("--user-lexicon");
  if (!user_lexicon_path.empty()) {
    std::ifstream in(user_lexicon_path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "edgenmt phonemize: error: %s: cannot open\n",
                   user_lexicon_path.c_str());
      return kExitData;
    }
    std::ostringstream text;
    text << in.rdbuf();
    user_lexicon = text.str();
    // The arena is sized for this file exactly: its bytes and (at most) one word a line.
    uint64_t lines = 1;
    for (char c : user_lexicon) lines += c == '\n';
    if (user_lexicon.size() > (1u << 30) || lines > (1u << 24)) {
      std::fprintf(stderr, "edgenmt phonemize: error: %s: larger than 1 GiB or 16 M lines\n",
                   user_lexicon_path.c_str());
      return kExitData;
    }
    limits.user_lexicon_max_words = static_cast<uint32_t>(lines);
    limits.user_lexicon_max_bytes = static_cast<uint32_t>(user_lexicon.size() + 1);
  }
  MappedFile file;
  if (!file.Open(model_path, &error)) {
    std::fprintf(stderr, "edgenmt phonemize: error: %s\n", error.c_str());
    return kExitModel;
  }
  char detail[200] = {0};
  size_t bytes = 0;
  Status status = Phonemizer::RequiredArenaBytes(file.data(), file.size(), limits, &bytes, detail,
                                                 sizeof detail);
  if (status != Status::kOk) {
    std::fprintf(stderr, "edgenmt phonemize: error: %s: %s (%s)\n", model_path.c_str(), detail,
                 StatusName(status));
    return status == Status::kLimitExceeded || status == Status::kUnsupported ? kExitRuntime
                                                                              : kExitModel;
  }
  std::vector<uint64_t> arena(bytes / 8 + 2);
  Phonemizer phonemizer;
  status = phonemizer.Init(file.data(), file.size(), limits, arena.data(), arena.size() * 8);
  if (status != Status::kOk) {
    std::fprintf(stderr, "edgenmt phonemize: error: %s: %s (%s)\n", model_path.c_str(),
                 phonemizer.error_detail(), StatusName(status));
    return kExitRuntime;
  }
  if (!user_lexicon_path.empty()) {
    LexiconContext context{&user_lexicon_path};
    status = phonemizer.LoadUserLexicon(user_lexicon.data(), user_lexicon.size(),
                                        &PrintLexiconError, &context);
    if (status != Status::kOk) {
      std::fprintf(stderr, "edgenmt phonemize: error: %s: %s (%s)\n", user_lexicon_path.c_str(),
                   phonemizer.error_detail(), StatusName(status));
      return kExitData;
    }
  }
  LineContext context;
  PhonemizerOutput output;
  output.write = &WriteStdout;
  output.warn = &PrintWarning;
  output.user = &context;
  std::string line;
  while (std::getline(std::cin, line)) {
    ++context.line;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    status = phonemizer.Phonemize(line.data(), line.size(), format, output);
    if (status != Status::kOk) {
      std::fprintf(stderr, "edgenmt phonemize: line %llu: %s\n",
                   static_cast<unsigned long long>(context.line), phonemizer.error_detail());
      std::fputc('\n', stdout);  // one output line per input line, always
    }
  }
  if (std::fflush(stdout) != 0) return kExitData;
  return kExitOk;
}

}  // namespace edgenmt::cli
