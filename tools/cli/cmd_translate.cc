// edgenmt translate: stdin lines in, translations out, one bad line never stops the batch.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.h"
#include "decode_flags.h"
#include "command_line.h"
#include "session.h"
#include "stage_profile.h"

namespace edgenmt::cli {
namespace {

// Key order as written; numbers as float, so dump() prints 9 significant digits (enough to
// read each float back exactly) and non-finite values as null.
using AlignmentJson = nlohmann::basic_json<nlohmann::ordered_map, std::vector, std::string, bool,
                                           std::int64_t, std::uint64_t, float>;

// One source line's alignments: the attention matrices of its hypotheses.
AlignmentJson Alignment(int64_t line_number, const std::string& source, const Model& model,
                        const TranslationResult& result) {
  AlignmentJson tokens = AlignmentJson::array();
  for (int32_t i = 0; i < result.src_len; ++i) {
    const TokenView token = model.src_vocab().Token(result.src_ids[i]);
    tokens.push_back(std::string(token.data, token.size));
  }
  AlignmentJson hypotheses = AlignmentJson::array();
  for (int32_t h = 0; h < result.num_hypotheses; ++h) {
    const Hypothesis& hyp = result.hypotheses[h];
    AlignmentJson attention = AlignmentJson::array();
    for (int32_t t = 0; hyp.attention != nullptr && t < hyp.attention_steps; ++t) {
      const float* row = hyp.attention + static_cast<size_t>(t) * result.src_len;
      attention.push_back(std::vector<float>(row, row + result.src_len));
    }
    AlignmentJson entry;
    entry["output"] = std::string(hyp.text, hyp.text_length);
    entry["score"] = hyp.score;
    entry["attention"] = std::move(attention);
    hypotheses.push_back(std::move(entry));
  }
  AlignmentJson line;
  line["line"] = line_number;
  line["source"] = source;
  line["source_tokens"] = std::move(tokens);
  line["hypotheses"] = std::move(hypotheses);
  return line;
}

}  // namespace

int RunTranslate(int argc, char** argv) {
  CommandLine args("edgenmt translate");
  args.AddOption("-m", "model file (.enmt)");
  AddDecodeOptions(&args);
  args.AddOption("--alignments", "write each hypothesis' attention to this JSON file");
  args.AddFlag("--timing", "print ms per line, beam, arena and backend on stderr");
  args.AddFlag("--profile", "print time per stage, kernel backends and arena on stderr");
  std::string error;
  const CommandLine::Outcome parsed = args.Parse(argc, argv, &error);
  if (parsed == CommandLine::Outcome::kHelp) {
    std::printf("%s", args.help().c_str());
    return kExitOk;
  }
  if (parsed == CommandLine::Outcome::kError || !args.Has("-m")) {
    std::fprintf(stderr, "edgenmt translate: error: %s\n",
                 error.empty() ? "usage: edgenmt translate -m FILE [options] < input" : error.c_str());
    return kExitUsage;
  }
  LoadedModel model;
  if (!model.Load(args.Get("-m"))) return kExitModel;

  TranslateOptions decode = TranslateOptions::FromModel(model.model());
  KernelBackend backend = DefaultKernelBackend();
  if (!ReadDecodeFlags(args, &decode, &backend, &error)) {
    std::fprintf(stderr, "edgenmt translate: error: %s\n", error.c_str());
    return kExitUsage;
  }
  const bool want_alignments = args.Has("--alignments");
  if (want_alignments && model.model().config().attention == AttentionType::kNone) {
    std::fprintf(stderr, "edgenmt translate: error: --alignments needs a model with attention\n");
    return kExitUsage;
  }
  decode.return_attention = want_alignments;

  Session session;
  if (!session.Init(model, LimitsFor(model.model(), decode, backend, want_alignments))) {
    return kExitRuntime;
  }

  std::ofstream alignment_file;
  AlignmentJson alignments = AlignmentJson::array();
  if (want_alignments) {
    alignment_file.open(args.Get("--alignments"));
    if (!alignment_file) {
      std::fprintf(stderr, "edgenmt translate: error: %s: cannot open for writing\n",
                   args.Get("--alignments").c_str());
      return kExitData;
    }
  }

  std::unique_ptr<StageProfile> profile;
  if (args.Has("--profile")) profile = std::make_unique<StageProfile>();
  int64_t line_number = 0, failed = 0, translated = 0;
  double seconds = 0.0;
  std::string line;
  while (std::getline(std::cin, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    TranslationResult result;
    const auto start = std::chrono::steady_clock::now();
    const Status status =
        session.translator().Translate(line.data(), line.size(), decode, &result);
    const double line_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    seconds += line_seconds;
    if (profile) profile->AddTranslation(line_seconds);
    if (status != Status::kOk) {
      ++failed;
      std::fprintf(stderr, "edgenmt translate: error: stdin:%lld: %s: %s\n",
                   static_cast<long long>(line_number), StatusName(status),
                   session.translator().error_detail());
      // Keep outputs aligned with inputs: one empty line (N with --nbest) per failed source.
      for (int32_t k = 0; k < (decode.nbest > 1 ? decode.nbest : 1); ++k) std::fputc('\n', stdout);
      continue;
    }
    ++translated;
    if (result.src_unknown > 0) {
      std::fprintf(stderr, "edgenmt translate: warning: stdin:%lld: %d unknown source token(s) "
                   "mapped to <unk>\n", static_cast<long long>(line_number), result.src_unknown);
    }
    if (decode.nbest > 1) {
      for (int32_t h = 0; h < decode.nbest; ++h) {
        if (h < result.num_hypotheses) {
          const Hypothesis& hyp = result.hypotheses[h];
          std::printf("%s\t%d\t%.6f\t%.*s\n", line.c_str(), h + 1, hyp.score,
                      static_cast<int>(hyp.text_length), hyp.text);
        } else {
          std::printf("%s\t%d\t\t\n", line.c_str(), h + 1);  // fewer finished than asked
        }
      }
    } else {
      const Hypothesis& best = result.hypotheses[0];
      std::printf("%.*s\n", static_cast<int>(best.text_length), best.text);
    }
    if (want_alignments) alignments.push_back(Alignment(line_number, line, model.model(), result));
  }
  std::fflush(stdout);
  if (want_alignments) {
    alignment_file << alignments.dump() << '\n';
    alignment_file.close();
    if (!alignment_file) {
      std::fprintf(stderr, "edgenmt translate: error: %s: write failed\n",
                   args.Get("--alignments").c_str());
      return kExitData;
    }
  }
  if (args.Has("--timing")) {
    std::fprintf(stderr,
                 "edgenmt translate: %lld line(s) translated, %lld failed, %.3f ms per line "
                 "(beam %d, arena %zu bytes, backend %s (%s))\n",
                 static_cast<long long>(translated), static_cast<long long>(failed),
                 translated > 0 ? 1e3 * seconds / static_cast<double>(translated) : 0.0,
                 decode.beam, session.arena_bytes(), KernelBackendName(backend),
                 KernelBackendVariant(backend));
  }
  if (profile) {
    profile->Print(stderr, backend, session.arena_bytes(), decode.beam);
  }
  return failed > 0 ? kExitSomeLinesFailed : kExitOk;
}

}  // namespace edgenmt::cli
