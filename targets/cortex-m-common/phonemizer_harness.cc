// Cortex-M phonemizer firmware (issue 59 §6): reads English text one line at a time from a host
// file (semihosting) and writes each line's phonemes exactly as `edgenmt phonemize -m FILE
// [--format F]` prints them, with the phonemizer file (model + lexicon) linked into flash and
// the arena in SRAM, through the front end's public API only. Figures (arena, file bytes, peak
// stack, instructions per input word) go to the semihosting console.
//
//   command line (semihosting): PROGRAM TEXT_FILE OUTPUT_FILE [arpabet|ipa|json]
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "edgenmt/phonemizer.h"
#include "edgenmt/status.h"
#include "platform.h"
#include "semihosting.h"

#ifndef EDGENMT_FIRMWARE_ARENA_BYTES
#error "EDGENMT_FIRMWARE_ARENA_BYTES (the static arena size) must be set by the build"
#endif

extern "C" const uint8_t edgenmt_model_data[];
extern "C" const uint8_t edgenmt_model_data_end[];

namespace {

constexpr int kExitOk = 0, kExitUsage = 2, kExitModel = 3, kExitLine = 4, kExitRuntime = 5;
// The longest text line this harness reads (the library itself takes a line of any length).
constexpr size_t kMaxLineBytes = 4096;

alignas(16)
    __attribute__((section(".edgenmt_arena"))) uint8_t g_arena[EDGENMT_FIRMWARE_ARENA_BYTES];
edgenmt::Phonemizer g_phonemizer;
char g_cmdline[512];
char g_line[kMaxLineBytes + 2];

struct LineContext {
  FILE* out = nullptr;
  long line = 0;
  bool write_failed = false;
};

void WriteOutput(void* user, const char* bytes, size_t n) {
  auto* context = static_cast<LineContext*>(user);
  if (fwrite(bytes, 1, n, context->out) != n) context->write_failed = true;
}

void PrintWarning(void* user, const char* message) {
  platform_log("warning: line %ld: %s", static_cast<LineContext*>(user)->line, message);
}

// Same count as docs/PHONEMIZER.md's "input words": runs of non-space bytes.
long CountInputWords(const char* text, size_t len) {
  long words = 0;
  bool in_word = false;
  for (size_t i = 0; i < len; ++i) {
    const bool space = text[i] == ' ' || text[i] == '\t';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

double CalibrateTicksPerInstruction() {  // as harness.cc: -icount shift=0 makes ticks count
  constexpr uint32_t kIterations = 4u * 1000u * 1000u;
  uint32_t n = kIterations;
  const uint64_t start = platform_clock_ticks();
  __asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
  return static_cast<double>(platform_clock_ticks() - start) / (2.0 * kIterations);
}

int Run() {
  platform_clock_init();
  const double ticks_per_instruction = CalibrateTicksPerInstruction();
  if (semihosting_get_cmdline(g_cmdline, sizeof g_cmdline) != 0) {
    platform_log("error: no semihosting command line (need: PROGRAM TEXT OUTPUT [FORMAT])");
    return kExitUsage;
  }
  const char* args[4] = {nullptr, nullptr, nullptr, nullptr};
  int argc = 0;
  for (char* token = strtok(g_cmdline, " "); token != nullptr && argc < 4;
       token = strtok(nullptr, " ")) {
    args[argc++] = token;
  }
  if (argc < 3) {
    platform_log("error: usage: PROGRAM TEXT_FILE OUTPUT_FILE [arpabet|ipa|json]");
    return kExitUsage;
  }
  edgenmt::PhonemeFormat format = edgenmt::PhonemeFormat::kArpabet;
  if (argc == 4) {
    if (strcmp(args[3], "ipa") == 0)
      format = edgenmt::PhonemeFormat::kIpa;
    else if (strcmp(args[3], "json") == 0)
      format = edgenmt::PhonemeFormat::kJson;
    else if (strcmp(args[3], "arpabet") != 0) {
      platform_log("error: format %s: must be arpabet, ipa or json", args[3]);
      return kExitUsage;
    }
  }

  const size_t file_bytes = static_cast<size_t>(edgenmt_model_data_end - edgenmt_model_data);
  edgenmt::PhonemizerLimits limits;
  size_t required = 0;
  char detail[160] = {0};
  const uint64_t init_start = platform_clock_ticks();
  size_t depth = platform_stack_paint();
  edgenmt::Status status = edgenmt::Phonemizer::RequiredArenaBytes(
      edgenmt_model_data, file_bytes, limits, &required, detail, sizeof detail);
  if (status != edgenmt::Status::kOk) {
    platform_log("error: file: %s: %s", edgenmt::StatusName(status), detail);
    return kExitModel;
  }
  status = g_phonemizer.Init(edgenmt_model_data, file_bytes, limits, g_arena, sizeof g_arena);
  const uint64_t init_ticks = platform_clock_ticks() - init_start;
  const size_t init_stack = depth + platform_stack_peak();
  if (status != edgenmt::Status::kOk) {
    platform_log("error: init: %s: %s", edgenmt::StatusName(status), g_phonemizer.error_detail());
    return kExitRuntime;
  }
  platform_log("file: %u bytes in flash at %p (lexicon %u words, %s)",
               static_cast<unsigned>(file_bytes), static_cast<const void*>(edgenmt_model_data),
               static_cast<unsigned>(g_phonemizer.lexicon_words()),
               g_phonemizer.lexicon_complete() ? "complete" : "the model's misses only");
  platform_log("arena: %u bytes used of %u; init: %llu instructions",
               static_cast<unsigned>(g_phonemizer.arena_bytes_used()),
               static_cast<unsigned>(sizeof g_arena),
               static_cast<unsigned long long>(init_ticks / ticks_per_instruction + 0.5));

  FILE* in = fopen(args[1], "r");
  if (in == nullptr) {
    platform_log("error: %s: cannot open", args[1]);
    return kExitUsage;
  }
  LineContext context;
  context.out = fopen(args[2], "w");
  if (context.out == nullptr) {
    platform_log("error: %s: cannot open for writing", args[2]);
    return kExitUsage;
  }
  edgenmt::PhonemizerOutput output;
  output.write = &WriteOutput;
  output.warn = &PrintWarning;
  output.user = &context;

  long words = 0, failed = 0;
  uint64_t total_ticks = 0;
  size_t phonemize_stack = 0;
  while (fgets(g_line, sizeof g_line, in) != nullptr) {
    size_t len = strlen(g_line);
    ++context.line;
    if (len > 0 && g_line[len - 1] == '\n') {
      --len;
    } else if (!feof(in)) {  // longer than the buffer: say so, never cut it silently
      platform_log("error: %s:%ld: longer than %u bytes", args[1], context.line,
                   static_cast<unsigned>(kMaxLineBytes));
      return kExitLine;
    }
    if (len > 0 && g_line[len - 1] == '\r') --len;
    words += CountInputWords(g_line, len);
    depth = platform_stack_paint();
    const uint64_t start = platform_clock_ticks();
    status = g_phonemizer.Phonemize(g_line, len, format, output);
    total_ticks += platform_clock_ticks() - start;
    const size_t stack = depth + platform_stack_peak();
    if (stack > phonemize_stack) phonemize_stack = stack;
    if (status != edgenmt::Status::kOk) {
      ++failed;
      platform_log("error: %s:%ld: %s", args[1], context.line, g_phonemizer.error_detail());
      fputc('\n', context.out);  // one output line per input line, as the CLI
    }
  }
  fclose(in);
  if (fclose(context.out) != 0 || context.write_failed) {
    platform_log("error: %s: write failed", args[2]);
    return kExitRuntime;
  }
  const double per_word = words > 0 ? static_cast<double>(total_ticks) / words : 0.0;
  platform_log("phonemized %ld line(s), %ld input word(s), %ld failed", context.line, words,
               failed);
  platform_log(
      "clock: %llu ticks per input word at %lu Hz; %llu instructions per input word "
      "if run with -icount shift=0",
      static_cast<unsigned long long>(per_word + 0.5), static_cast<unsigned long>(board_clock_hz()),
      static_cast<unsigned long long>(per_word / ticks_per_instruction + 0.5));
  platform_log("stack: peak %u bytes in Init, %u bytes in Phonemize (of %u reserved)",
               static_cast<unsigned>(init_stack), static_cast<unsigned>(phonemize_stack),
               static_cast<unsigned>(platform_stack_size()));
  return failed > 0 ? kExitLine : kExitOk;
}

}  // namespace

int main() { return Run(); }
