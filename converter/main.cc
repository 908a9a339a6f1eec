// edgenmt-convert: checkpoint directory (docs/MODEL.md) -> verified .enmt model file.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <map>
#include <string>

#include "convert.h"
#include "convert_error.h"

namespace {

using edgenmt::DecodingOptions;
using edgenmt::converter::ConvertError;
using edgenmt::converter::ConvertOptions;
using edgenmt::converter::kExitUsage;

constexpr char kUsage[] =
    "usage: edgenmt-convert --checkpoint DIR --out FILE [--dtype float32|int8|int8-full]\n"
    "                       [--max-src-len N] [--beam K] [--nbest N] [--alpha A] [--beta B]\n"
    "                       [--min-len N] [--max-len N] [--max-len-ratio R] [--created DATE]\n"
    "                       [--calibration FILE]\n"
    "\n"
    "Reads DIR/config.json, DIR/model.safetensors, DIR/src.vocab, DIR/tgt.vocab, checks them\n"
    "against docs/MODEL.md, and writes FILE atomically (never a partial file).\n"
    "  --dtype          weight storage and arithmetic (default float32; docs/INT8.md)\n"
    "  --calibration F  int8-full calibration sources, TSV first field (default data/g2p/dev.tsv)\n"
    "  --max-src-len N  arena plan source length (default: config max_src_len)\n"
    "  --beam K         default beam and arena plan beam (default 5)\n"
    "  --nbest, --alpha, --beta, --min-len, --max-len, --max-len-ratio: decoding defaults\n"
    "                   (default 1, 0.6, 0, 0, 2*max_src_len+2, 0)\n"
    "  --created DATE   provenance date (default: today UTC, or SOURCE_DATE_EPOCH)\n"
    "exit status: 0 ok, 1 bad usage, 2 bad checkpoint, 3 output write failure\n";

int32_t ParseInt(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const long long value = strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || value < INT32_MIN || value > INT32_MAX)
    throw ConvertError(kExitUsage, flag, "\"" + text + "\" is not an integer");
  return static_cast<int32_t>(value);
}

float ParseFloat(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const float value = strtof(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0)
    throw ConvertError(kExitUsage, flag, "\"" + text + "\" is not a number");
  return value;
}

// Parsed by CLI11 (unknown options, missing values and stray words are usage errors); values
// are kept as text and converted here, so every message names the flag the same way
// (docs/ERRORS.md: `--beam: "x" is not an integer`). A repeated option keeps its last value.
ConvertOptions ParseArgs(int argc, char** argv) {
  CLI::App app("edgenmt-convert");
  app.set_help_flag();  // --help prints kUsage below
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  bool help = false;
  app.add_flag("-h,--help", help);
  std::map<std::string, std::string> values;
  std::map<std::string, CLI::Option*> options;
  for (const char* flag :
       {"--checkpoint", "--out", "--dtype", "--max-src-len", "--beam", "--nbest", "--alpha",
        "--beta", "--min-len", "--max-len", "--max-len-ratio", "--created", "--calibration"}) {
    options[flag] = app.add_option(flag)->type_name("VALUE");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    throw ConvertError(kExitUsage, "", e.what());
  }
  if (help) {
    fputs(kUsage, stdout);
    exit(0);
  }
  for (const auto& [flag, option] : options) {
    if (option->count() > 0) values[flag] = option->results().back();
  }
  auto has = [&](const char* flag) { return values.count(flag) != 0; };

  ConvertOptions o;
  if (has("--checkpoint")) o.checkpoint_dir = values["--checkpoint"];
  if (has("--out")) o.out_path = values["--out"];
  if (has("--dtype")) {
    const std::string& dtype = values["--dtype"];
    if (dtype == "float32") {
      o.scheme = edgenmt::QuantScheme::kFloat32;
    } else if (dtype == "int8") {
      o.scheme = edgenmt::QuantScheme::kInt8Hybrid;
    } else if (dtype == "int8-full") {
      o.scheme = edgenmt::QuantScheme::kInt8Full;
    } else {
      throw ConvertError(kExitUsage, "--dtype",
                         "\"" + dtype + "\" is not float32, int8 or int8-full");
    }
  }
  if (has("--max-src-len")) o.max_src_len = ParseInt("--max-src-len", values["--max-src-len"]);
  DecodingOptions& d = o.decoding;
  if (has("--beam")) d.beam = ParseInt("--beam", values["--beam"]);
  if (has("--nbest")) d.nbest = ParseInt("--nbest", values["--nbest"]);
  if (has("--alpha")) d.alpha = ParseFloat("--alpha", values["--alpha"]);
  if (has("--beta")) d.beta = ParseFloat("--beta", values["--beta"]);
  if (has("--min-len")) d.min_len = ParseInt("--min-len", values["--min-len"]);
  if (has("--max-len")) {
    d.max_len = ParseInt("--max-len", values["--max-len"]);
    if (d.max_len == 0) throw ConvertError(kExitUsage, "--max-len", "must be >= 1");
  }
  if (has("--max-len-ratio"))
    d.max_len_ratio = ParseFloat("--max-len-ratio", values["--max-len-ratio"]);
  if (has("--created")) o.created = values["--created"];
  if (has("--calibration")) {
    o.calibration_path = values["--calibration"];
    o.calibration_required = true;
  }
  if (o.checkpoint_dir.empty())
    throw ConvertError(kExitUsage, "--checkpoint", "required (see --help)");
  if (o.out_path.empty()) throw ConvertError(kExitUsage, "--out", "required (see --help)");
  return o;
}

}  // namespace

// int8-full calibration runs the model over up to 2,000 sources (tens of seconds): progress on
// stderr, rewritten in place on a terminal, one line per batch otherwise.
void ShowCalibrationProgress(int64_t done, int64_t total) {
  static const bool terminal = isatty(fileno(stderr)) != 0;
  fprintf(stderr, "%sedgenmt-convert: int8-full calibration: %lld/%lld sources (%d%%)%s",
          terminal ? "\r" : "", static_cast<long long>(done), static_cast<long long>(total),
          total > 0 ? static_cast<int>(100 * done / total) : 100,
          terminal && done < total ? "" : "\n");
  fflush(stderr);
}

int main(int argc, char** argv) {
  try {
    ConvertOptions options = ParseArgs(argc, argv);
    options.calibration_progress = &ShowCalibrationProgress;
    const edgenmt::converter::ConvertSummary s = edgenmt::converter::Convert(options);
    printf("edgenmt-convert: wrote %s\n", options.out_path.c_str());
    printf("  checkpoint  %s (model.safetensors sha256 %s)\n", options.checkpoint_dir.c_str(),
           s.checkpoint_sha256.c_str());
    printf("  parameters  %lld in %d tensors\n", static_cast<long long>(s.parameters), s.tensors);
    printf("  file bytes  %zu\n", s.file_bytes);
    printf("  arena plan  max_src_len=%d beam=%d bytes=%llu%s\n", s.arena_plan.max_src_len,
           s.arena_plan.beam, static_cast<unsigned long long>(s.arena_plan.bytes),
           s.arena_plan.bytes == 0 ? " (not planned)" : "");
    printf(
        "  decoding    beam=%d nbest=%d alpha=%g beta=%g min_len=%d max_len=%d max_len_ratio=%g\n",
        s.decoding.beam, s.decoding.nbest, s.decoding.alpha, s.decoding.beta, s.decoding.min_len,
        s.decoding.max_len, s.decoding.max_len_ratio);
    for (const std::string& line : s.calibration) printf("  %s\n", line.c_str());
    if (!s.quantization.empty()) {
      printf("  quantization (SQNR of each stored tensor against the checkpoint):\n");
      printf("    %-36s %-9s %10s %10s %9s\n", "tensor", "storage", "f32 bytes", "bytes",
             "SQNR dB");
      for (const auto& q : s.quantization) {
        printf("    %-36s %-9s %10lld %10lld %9.2f\n", q.name.c_str(), q.storage.c_str(),
               static_cast<long long>(q.float_bytes), static_cast<long long>(q.stored_bytes),
               q.sqnr_db);
      }
      printf("  file size   %zu bytes = %.1f %% of the float32 file (%zu bytes)\n", s.file_bytes,
             100.0 * static_cast<double>(s.file_bytes) / static_cast<double>(s.float32_file_bytes),
             s.float32_file_bytes);
    }
    return 0;
  } catch (const ConvertError& e) {
    fprintf(stderr, "edgenmt-convert: error: %s\n", e.message().c_str());
    if (e.code() == kExitUsage) fputs("(run edgenmt-convert --help for usage)\n", stderr);
    return e.code();
  } catch (const std::exception& e) {
    fprintf(stderr, "edgenmt-convert: error: %s\n", e.what());
    return edgenmt::converter::kExitBadInput;
  }
}
