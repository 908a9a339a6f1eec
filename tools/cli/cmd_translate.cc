// edgenmt translate: stdin lines in, translations out, one bad line never stops the batch.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "batch_runner.h"
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
                        const OwnedResult& result) {
  AlignmentJson tokens = AlignmentJson::array();
  for (const int32_t id : result.src_ids) {
    const TokenView token = model.src_vocab().Token(id);
    tokens.push_back(std::string(token.data, token.size));
  }
  const size_t src_len = result.src_ids.size();
  AlignmentJson hypotheses = AlignmentJson::array();
  for (const OwnedHypothesis& hyp : result.hypotheses) {
    AlignmentJson attention = AlignmentJson::array();
    for (int32_t t = 0; t < hyp.attention_steps; ++t) {
      const float* row = hyp.attention.data() + static_cast<size_t>(t) * src_len;
      attention.push_back(std::vector<float>(row, row + src_len));
    }
    AlignmentJson entry;
    entry["output"] = hyp.text;
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
  AddThroughputOptions(&args);
  std::string error;
  const CommandLine::Outcome parsed = args.Parse(argc, argv, &error);
  if (parsed == CommandLine::Outcome::kHelp) {
    std::printf("%s", args.help().c_str());
    return kExitOk;
  }
  if (parsed == CommandLine::Outcome::kError || !args.Has("-m")) {
    std::fprintf(
        stderr, "edgenmt translate: error: %s\n",
        error.empty() ? "usage: edgenmt translate -m FILE [options] < input" : error.c_str());
    return kExitUsage;
  }
  LoadedModel model;
  if (!model.Load(args.Get("-m"))) return kExitModel;

  TranslateOptions decode = TranslateOptions::FromModel(model.model());
  KernelBackend backend = DefaultKernelBackend();
  int batch = 1, threads = 1;
  if (!ReadDecodeFlags(args, &decode, &backend, &error) ||
      !ReadThroughputFlags(args, &batch, &threads, &error)) {
    std::fprintf(stderr, "edgenmt translate: error: %s\n", error.c_str());
    return kExitUsage;
  }
  if (args.Has("--profile") && threads > 1) {
    // The profiler hook is one per process (edgenmt/profiler.h): stages of several threads
    // would be charged to each other.
    std::fprintf(stderr, "edgenmt translate: error: --profile needs --threads 1\n");
    return kExitUsage;
  }
  const bool want_alignments = args.Has("--alignments");
  if (want_alignments && !model.model().config().has_attention()) {
    std::fprintf(stderr, "edgenmt translate: error: --alignments needs a model with attention\n");
    return kExitUsage;
  }
  decode.return_attention = want_alignments;

  BatchRunner runner;
  if (!runner.Init(model, LimitsFor(model.model(), decode, backend, want_alignments), batch,
                   threads)) {
    return kExitRuntime;
  }
  Session& session = runner.session();

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
  // Lines are read in chunks, translated, then printed in input order. One session without
  // batching reads one line at a time (interactive use answers each line at once); otherwise
  // a chunk holds 8 batches per thread, so continuous batching keeps every batch full.
  const size_t chunk = batch == 1 && threads == 1 ? 1 : static_cast<size_t>(batch) * threads * 8;
  std::vector<std::string> lines;
  std::vector<OwnedResult> results;
  std::string line;
  for (bool more = true; more;) {
    lines.clear();
    while (lines.size() < chunk && (more = static_cast<bool>(std::getline(std::cin, line)))) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(line);
    }
    if (lines.empty()) break;
    const double chunk_seconds = runner.Run(lines, decode, &results);
    seconds += chunk_seconds;
    if (profile) profile->AddTranslations(chunk_seconds, static_cast<int64_t>(lines.size()));
    for (size_t i = 0; i < lines.size(); ++i) {
      ++line_number;
      const std::string& source = lines[i];
      const OwnedResult& result = results[i];
      if (result.status != Status::kOk) {
        ++failed;
        std::fprintf(stderr, "edgenmt translate: error: stdin:%lld: %s: %s\n",
                     static_cast<long long>(line_number), StatusName(result.status),
                     result.detail.c_str());
        // Keep outputs aligned with inputs: one empty line (N with --nbest) per failed source.
        for (int32_t k = 0; k < (decode.nbest > 1 ? decode.nbest : 1); ++k)
          std::fputc('\n', stdout);
        continue;
      }
      ++translated;
      if (result.src_unknown > 0) {
        std::fprintf(stderr,
                     "edgenmt translate: warning: stdin:%lld: %d unknown source token(s) "
                     "mapped to <unk>\n",
                     static_cast<long long>(line_number), result.src_unknown);
      }
      if (decode.nbest > 1) {
        for (int32_t h = 0; h < decode.nbest; ++h) {
          if (static_cast<size_t>(h) < result.hypotheses.size()) {
            const OwnedHypothesis& hyp = result.hypotheses[static_cast<size_t>(h)];
            std::printf("%s\t%d\t%.6f\t%s\n", source.c_str(), h + 1, hyp.score, hyp.text.c_str());
          } else {
            std::printf("%s\t%d\t\t\n", source.c_str(), h + 1);  // fewer finished than asked
          }
        }
      } else {
        std::printf("%s\n", result.hypotheses[0].text.c_str());
      }
      if (want_alignments) {
        alignments.push_back(Alignment(line_number, source, model.model(), result));
      }
    }
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
                 "(beam %d, batch %d, threads %d, arena %zu bytes, backend %s (%s))\n",
                 static_cast<long long>(translated), static_cast<long long>(failed),
                 translated > 0 ? 1e3 * seconds / static_cast<double>(translated) : 0.0,
                 decode.beam, batch, threads, session.arena_bytes(), KernelBackendName(backend),
                 KernelBackendVariant(backend));
  }
  if (profile) {
    profile->Print(stderr, backend, session.arena_bytes(), decode.beam);
  }
  return failed > 0 ? kExitSomeLinesFailed : kExitOk;
}

}  // namespace edgenmt::cli
