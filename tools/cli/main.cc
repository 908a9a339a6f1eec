// edgenmt: translate with, evaluate and inspect edgenmt model files.
#include <cstdio>
#include <cstring>

#include "commands.h"
#include "session.h"

namespace {

void PrintUsage(FILE* out) {
  std::fprintf(
      out,
      "usage: edgenmt <command> [options]\n"
      "\n"
      "commands:\n"
      "  translate -m FILE [--beam K] [--nbest N] [--alpha A] [--beta B] [--min-len L]\n"
      "            [--max-len L] [--max-len-ratio R] [--alignments OUT.json]\n"
      "            [--backend simd|reference|auto|xnnpack] [--timing] [--profile]\n"
      "            [--batch N] [--threads T]\n"
      "      one source per line on stdin, one output per line on stdout; with --nbest N > 1,\n"
      "      N lines per source: source<TAB>rank<TAB>score<TAB>output. A bad line is reported\n"
      "      on stderr, gives an empty output line, and translation goes on (exit code 4).\n"
      "      --batch N decodes N sources together, --threads T runs T sessions on T threads;\n"
      "      output stays in input order, identical to one source at a time.\n"
      "  eval -m FILE --data TSV [--beam K] [--alpha A] [--beta B] [--max-len L]\n"
      "       [--reference FLOAT_FILE] [--limit N] [--backend simd|reference|auto|xnnpack]\n"
      "       [--batch N] [--threads T]\n"
      "      scores like converter/reference/evaluate.py; last line words=N WER=xx.xx PER=yy.yy\n"
      "  inspect FILE [--reference FLOAT_FILE]\n"
      "      config, vocabularies, tensors, arena plan, decoding defaults, provenance;\n"
      "      with --reference, each quantized tensor's SQNR and the size against float32\n"
      "  phonemize -m PHONEMIZER_FILE [--format arpabet|ipa|json] [--user-lexicon FILE]\n"
      "            [--no-lexicon] [--backend simd|reference|auto|xnnpack]\n"
      "      English text on stdin (any length, UTF-8), phonemes on stdout, one line per line;\n"
      "      numbers, dates, money and abbreviations read aloud (docs/TEXT_NORMALIZATION.md)\n"
      "\n"
      "the default backend is simd where the CPU has it (AVX2+FMA, NEON), else reference\n"
      "\n"
      "exit codes: 0 ok, 1 usage, 2 model rejected, 3 data/output file, 4 some lines failed,\n"
      "            5 session could not be created\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 ||
      std::strcmp(argv[1], "help") == 0) {
    PrintUsage(argc < 2 ? stderr : stdout);
    return argc < 2 ? edgenmt::cli::kExitUsage : edgenmt::cli::kExitOk;
  }
  const char* command = argv[1];
  if (std::strcmp(command, "translate") == 0) return edgenmt::cli::RunTranslate(argc - 1, argv + 1);
  if (std::strcmp(command, "eval") == 0) return edgenmt::cli::RunEval(argc - 1, argv + 1);
  if (std::strcmp(command, "inspect") == 0) return edgenmt::cli::RunInspect(argc - 1, argv + 1);
  if (std::strcmp(command, "phonemize") == 0) {
    return edgenmt::cli::RunPhonemize(argc - 1, argv + 1);
  }
  std::fprintf(stderr, "edgenmt: error: unknown command '%s'\n", command);
  PrintUsage(stderr);
  return edgenmt::cli::kExitUsage;
}
