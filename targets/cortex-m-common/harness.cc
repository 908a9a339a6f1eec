// Cortex-M test harness: translates one source per line of a host file (semihosting) with the
// model linked into flash and the arena in SRAM, through the runtime's public API only, and
// writes one output per line, exactly as `edgenmt translate -m MODEL [--beam K]` prints them
// (a failed source gives an empty line and exit status 4). Figures (arena, peak stack, clock
// ticks and instructions per word) go to the semihosting console.
//
//   command line (semihosting): PROGRAM WORDS_FILE OUTPUT_FILE [BEAM]
//   BEAM: 1 = greedy; absent = the decoding defaults stored in the model, like the CLI.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edgenmt/model.h"
#include "edgenmt/status.h"
#include "edgenmt/translator.h"
#include "platform.h"
#include "semihosting.h"

#ifndef EDGENMT_FIRMWARE_ARENA_BYTES
#error "EDGENMT_FIRMWARE_ARENA_BYTES (the static arena size) must be set by the build"
#endif

extern "C" const uint8_t edgenmt_model_data[];
extern "C" const uint8_t edgenmt_model_data_end[];

namespace {

constexpr int kExitOk = 0, kExitUsage = 2, kExitModel = 3, kExitSource = 4, kExitRuntime = 5;

alignas(16)
    __attribute__((section(".edgenmt_arena"))) uint8_t g_arena[EDGENMT_FIRMWARE_ARENA_BYTES];
edgenmt::Model g_model;
edgenmt::Translator g_translator;
char g_cmdline[512];
char g_line[1024];

// Processor clock ticks per instruction, from a loop of known length. Under QEMU with
// -icount shift=0 every instruction advances virtual time by 1 ns, so ticks / this ratio counts
// instructions; on hardware (or QEMU without -icount) the ratio is meaningless and only the
// ticks (cycles) are.
double CalibrateTicksPerInstruction() {
  constexpr uint32_t kIterations = 4u * 1000u * 1000u;
  uint32_t n = kIterations;
  const uint64_t start = platform_clock_ticks();
  __asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
  const uint64_t ticks = platform_clock_ticks() - start;
  return static_cast<double>(ticks) / (2.0 * kIterations);
}

size_t ArenaFor(int32_t beam) {
  edgenmt::SessionLimits limits;
  limits.max_beam = beam;
  limits.max_nbest = 1;
  size_t bytes = 0;
  return edgenmt::RequiredArenaBytes(g_model, limits, &bytes) == edgenmt::Status::kOk ? bytes : 0;
}

int Run() {
  platform_clock_init();
  const double ticks_per_instruction = CalibrateTicksPerInstruction();

  if (semihosting_get_cmdline(g_cmdline, sizeof g_cmdline) != 0) {
    platform_log("error: no semihosting command line (need: PROGRAM WORDS OUTPUT [BEAM])");
    return kExitUsage;
  }
  const char* args[4] = {nullptr, nullptr, nullptr, nullptr};
  int argc = 0;
  for (char* token = strtok(g_cmdline, " "); token != nullptr && argc < 4;
       token = strtok(nullptr, " ")) {
    args[argc++] = token;
  }
  if (argc < 3) {
    platform_log("error: usage: PROGRAM WORDS_FILE OUTPUT_FILE [BEAM]");
    return kExitUsage;
  }

  const size_t model_bytes = static_cast<size_t>(edgenmt_model_data_end - edgenmt_model_data);
  // Start-up (issue 61 §3): Model::Load + Translator::Init, what every boot pays.
  const uint64_t load_start = platform_clock_ticks();
  edgenmt::Status status = g_model.Load(edgenmt_model_data, model_bytes);
  const uint64_t load_ticks = platform_clock_ticks() - load_start;
  if (status != edgenmt::Status::kOk) {
    platform_log("error: model: %s: %s", edgenmt::StatusName(status), g_model.error_detail());
    return kExitModel;
  }
  platform_log("model: %u bytes in flash at %p", static_cast<unsigned>(model_bytes),
               static_cast<const void*>(edgenmt_model_data));

  edgenmt::TranslateOptions options = edgenmt::TranslateOptions::FromModel(g_model);
  if (argc == 4) {
    options.beam = atoi(args[3]);
    if (options.beam < 1) {
      platform_log("error: beam %s: must be >= 1", args[3]);
      return kExitUsage;
    }
    if (options.nbest > options.beam) options.nbest = options.beam;
  }
  edgenmt::SessionLimits limits;
  limits.max_src_len = g_model.config().max_src_len;
  limits.max_beam = options.beam;
  limits.max_nbest = options.nbest;
  limits.max_tgt_len = options.max_len;

  size_t depth = platform_stack_paint();
  const uint64_t init_start = platform_clock_ticks();
  status = g_translator.Init(&g_model, g_arena, sizeof g_arena, limits);
  const uint64_t init_ticks = platform_clock_ticks() - init_start;
  const size_t init_stack = depth + platform_stack_peak();
  if (status != edgenmt::Status::kOk) {
    platform_log("error: init: %s: %s", edgenmt::StatusName(status), g_translator.error_detail());
    return kExitRuntime;
  }
  platform_log(
      "startup: Load %llu + Init %llu = %llu instructions if run with -icount shift=0",
      static_cast<unsigned long long>(load_ticks / ticks_per_instruction + 0.5),
      static_cast<unsigned long long>(init_ticks / ticks_per_instruction + 0.5),
      static_cast<unsigned long long>((load_ticks + init_ticks) / ticks_per_instruction + 0.5));
  platform_log("arena: %u bytes used of %u (beam %d); required at beam 1: %u, beam 5: %u",
               static_cast<unsigned>(g_translator.arena_bytes_used()),
               static_cast<unsigned>(sizeof g_arena), static_cast<int>(options.beam),
               static_cast<unsigned>(ArenaFor(1)), static_cast<unsigned>(ArenaFor(5)));

  FILE* in = fopen(args[1], "r");
  if (in == nullptr) {
    platform_log("error: %s: cannot open", args[1]);
    return kExitUsage;
  }
  FILE* out = fopen(args[2], "w");
  if (out == nullptr) {
    platform_log("error: %s: cannot open for writing", args[2]);
    return kExitUsage;
  }

  long words = 0, failed = 0;
  uint64_t total_ticks = 0, max_ticks = 0;
  size_t translate_stack = 0;
  while (fgets(g_line, sizeof g_line, in) != nullptr) {
    size_t len = strlen(g_line);
    if (len > 0 && g_line[len - 1] == '\n') --len;
    if (len > 0 && g_line[len - 1] == '\r') --len;
    ++words;
    edgenmt::TranslationResult result;
    depth = platform_stack_paint();
    const uint64_t start = platform_clock_ticks();
    status = g_translator.Translate(g_line, len, options, &result);
    const uint64_t ticks = platform_clock_ticks() - start;
    const size_t stack = depth + platform_stack_peak();
    if (stack > translate_stack) translate_stack = stack;
    total_ticks += ticks;
    if (ticks > max_ticks) max_ticks = ticks;
    if (status != edgenmt::Status::kOk) {
      ++failed;
      platform_log("error: %s:%ld: %s: %s", args[1], words, edgenmt::StatusName(status),
                   g_translator.error_detail());
      fputc('\n', out);
      continue;
    }
    const edgenmt::Hypothesis& best = result.hypotheses[0];
    fwrite(best.text, 1, best.text_length, out);
    fputc('\n', out);
  }
  fclose(in);
  if (fclose(out) != 0) {
    platform_log("error: %s: write failed", args[2]);
    return kExitRuntime;
  }

  const double per_word = words > 0 ? static_cast<double>(total_ticks) / words : 0.0;
  platform_log("translated %ld word(s), %ld failed, beam %d", words, failed,
               static_cast<int>(options.beam));
  platform_log(
      "clock: %llu ticks per word (max %llu) at %lu Hz; %llu instructions per word "
      "(max %llu) if run with -icount shift=0 (calibrated %.6f ticks/instruction)",
      static_cast<unsigned long long>(per_word + 0.5), static_cast<unsigned long long>(max_ticks),
      static_cast<unsigned long>(board_clock_hz()),
      static_cast<unsigned long long>(per_word / ticks_per_instruction + 0.5),
      static_cast<unsigned long long>(max_ticks / ticks_per_instruction + 0.5),
      ticks_per_instruction);
  platform_log("stack: peak %u bytes in Init, %u bytes in Translate (of %u reserved)",
               static_cast<unsigned>(init_stack), static_cast<unsigned>(translate_stack),
               static_cast<unsigned>(platform_stack_size()));
  return failed > 0 ? kExitSource : kExitOk;
}

}  // namespace

int main() { return Run(); }
