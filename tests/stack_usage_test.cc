// Peak stack of the runtime's entry points (a Cortex-M main stack is often 4-8 KB), by stack
// painting: each call runs alone on a thread whose stack is a buffer filled with a pattern; the
// deepest byte overwritten gives the peak, including the libc routines the runtime calls
// (memcpy, memset, expf). An empty call on the same kind of thread is the baseline (thread
// start, TLS). Limits: Model::Load, Translator::Init, Translate and ScoreIds stay within 1 KiB
// on 32-bit targets (run under qemu-arm by make test-arm) and 2 KiB on 64-bit hosts, whose
// frames hold twice as wide pointers and registers (measured 1.0-1.45 KiB on x86-64), on every
// scheme. RequiredArenaBytes plans into a Translator::State on its stack (it has no arena to
// place it in), so it may use that object's size (plus a frame) on top of Init's: firmware sizes
// its arena on the host (edgenmt inspect, or the plan recorded in the model file) and calls only
// Init, which places the State in the arena. Each scheme is measured with the portable reference
// and, where it is another backend, with the default one: the SIMD backend, which only exists for
// application processors (x86-64, aarch64, armv7-A: stacks of megabytes), keeps a block of 4 rows x
// 32 int32 dot products in its product drivers (512 B) and wider vector spills (64-byte AVX-512
// registers), so it is allowed kSimdStackAllowance more. The microcontroller builds run their
// board's backend, and the 1 KiB limit is theirs. Transformer files are held to the same limits:
// Load's and Init's deepest chains (the expected-tensor and activation walks, whose visitors run
// at their bottom) keep one tensor name on the stack at a time.
#include <pthread.h>
#include <string.h>

#include <filesystem>
#include <algorithm>
#include <functional>
#include <memory>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "edgenmt/model.h"
#include "edgenmt/translator.h"
#include "runtime_test_util.h"
#include "session/translator_state.h"

namespace edgenmt {
namespace {

constexpr size_t kReferenceStackLimit = sizeof(void*) <= 4 ? 1024 : 2048;
constexpr size_t kSimdStackAllowance = 512;
constexpr size_t kThreadStack = 256 * 1024;
constexpr uint8_t kPaint = 0xA5;

void* Trampoline(void* fn) {
  (*static_cast<std::function<void()>*>(fn))();
  return nullptr;
}

// Bytes of stack a thread running `fn` touched (stack grows down on every target we build).
size_t TouchedStack(std::function<void()> fn) {
  std::unique_ptr<uint8_t[]> owner(new uint8_t[kThreadStack + 64]);
  uint8_t* stack = owner.get() + (64 - reinterpret_cast<uintptr_t>(owner.get()) % 64) % 64;
  memset(stack, kPaint, kThreadStack);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, stack, kThreadStack);
  pthread_t thread;
  EXPECT_EQ(pthread_create(&thread, &attr, Trampoline, &fn), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  size_t untouched = 0;
  while (untouched < kThreadStack && stack[untouched] == kPaint) ++untouched;
  return kThreadStack - untouched;
}

size_t PeakStack(const std::function<void()>& fn) {
  static const size_t baseline = TouchedStack([] {});
  const size_t touched = TouchedStack(fn);
  return touched > baseline ? touched - baseline : 0;
}

class StackUsageTest
    : public ::testing::TestWithParam<std::tuple<QuantScheme, bool /* default backend */>> {};

TEST_P(StackUsageTest, EntryPointsStayWithinTheLimit) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer enlarges every frame";
#endif
  const QuantScheme scheme = std::get<0>(GetParam());
  const KernelBackend backend =
      std::get<1>(GetParam()) ? DefaultKernelBackend() : KernelBackend::kReference;
  if (std::get<1>(GetParam()) && backend == KernelBackend::kReference) {
    GTEST_SKIP() << "the default backend is the reference here";
  }
  const size_t kBackendStackLimit =
      kReferenceStackLimit + (backend == KernelBackend::kReference ? 0 : kSimdStackAllowance);
  printf("[ stack    ] backend %s (%s)\n", KernelBackendName(backend),
         KernelBackendVariant(backend));
  const std::filesystem::path root = std::filesystem::path(EDGENMT_TEST_DATA_DIR) / "golden";
  for (const char* name : {"local_p_general", "bahdanau", "global_concat", "none",
                           "transformer_pre", "transformer_post"}) {
    SCOPED_TRACE(name);
    const size_t kEntryPointStackLimit = kBackendStackLimit;
    auto loaded = testing::LoadCheckpointDir((root / name).string(),
                                             testing::CalibratedOptions(scheme, 12, 50));
    ASSERT_NE(loaded, nullptr);
    SessionLimits limits;
    limits.backend = backend;
    limits.max_beam = 5;
    limits.max_nbest = 2;
    size_t bytes = 0;
    const size_t plan_stack = PeakStack(
        [&] { EXPECT_EQ(RequiredArenaBytes(loaded->model, limits, &bytes), Status::kOk); });

    Model reloaded;
    const size_t load_stack = PeakStack([&] {
      EXPECT_EQ(reloaded.Load(loaded->model.buffer(), loaded->model.buffer_size()), Status::kOk);
    });
    EXPECT_LE(load_stack, kEntryPointStackLimit) << "Model::Load";

    testing::AlignedArena arena(bytes);
    Translator translator;
    const size_t init_stack = PeakStack(
        [&] { EXPECT_EQ(translator.Init(&reloaded, arena.data(), bytes, limits), Status::kOk); });
    EXPECT_LE(init_stack, kEntryPointStackLimit) << "Translator::Init";
    // Measuring is Init's plan with the State on the stack instead of in the arena.
    EXPECT_LE(plan_stack, sizeof(Translator::State) + init_stack + 256) << "RequiredArenaBytes";
    testing::AlignedArena small(bytes / 2);
    Translator refused;
    const size_t refused_stack = PeakStack([&] {
      EXPECT_EQ(refused.Init(&reloaded, small.data(), bytes / 2, limits), Status::kArenaTooSmall);
    });
    EXPECT_LE(refused_stack, kEntryPointStackLimit) << "Translator::Init, arena too small";

    size_t max_translate_stack = 0;
    for (int32_t beam : {1, 5}) {
      TranslateOptions options = TranslateOptions::FromModel(reloaded);
      options.beam = beam;
      options.nbest = beam == 1 ? 1 : 2;
      options.max_len = 12;
      TranslationResult result;
      const size_t translate_stack = PeakStack(
          [&] { EXPECT_EQ(translator.Translate("abcde", 5, options, &result), Status::kOk); });
      EXPECT_LE(translate_stack, kEntryPointStackLimit) << "Translate, beam " << beam;
      max_translate_stack = std::max(max_translate_stack, translate_stack);
    }
    const int32_t src[3] = {4, 5, 6}, tgt[2] = {4, 5};
    float log_probs[3];
    const size_t score_stack =
        PeakStack([&] { EXPECT_EQ(translator.ScoreIds(src, 3, tgt, 2, log_probs), Status::kOk); });
    EXPECT_LE(score_stack, kEntryPointStackLimit) << "ScoreIds";
    printf(
        "[ stack    ] %s scheme %d: Load %zu, Init %zu (too small %zu), ScoreIds %zu, Translate "
        "%zu, "
        "RequiredArenaBytes %zu (State %zu) bytes, limit %zu\n",
        name, static_cast<int>(scheme), load_stack, init_stack, refused_stack, score_stack,
        max_translate_stack, plan_stack, sizeof(Translator::State), kEntryPointStackLimit);
  }
}

INSTANTIATE_TEST_SUITE_P(AllSchemes, StackUsageTest,
                         ::testing::Combine(::testing::Values(QuantScheme::kFloat32,
                                                              QuantScheme::kInt8Hybrid,
                                                              QuantScheme::kInt8Full),
                                            ::testing::Bool()));

}  // namespace
}  // namespace edgenmt
