// Proves that Translate / TranslateIds never allocate after Init: global operator new/delete
// and the C allocator (malloc, calloc, realloc, aligned_alloc, posix_memalign, memalign) are
// replaced by counting versions that forward to glibc's internal allocator.
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <new>
#include <string>

#include <gtest/gtest.h>

#include "edgenmt/translator.h"
#include "runtime_test_util.h"

extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* p, size_t size);
void* __libc_memalign(size_t alignment, size_t size);
void __libc_free(void* p);
}

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};

void Count() {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
}
}  // namespace

extern "C" {
void* malloc(size_t size) {
  Count();
  return __libc_malloc(size);
}
void* calloc(size_t count, size_t size) {
  Count();
  return __libc_calloc(count, size);
}
void* realloc(void* p, size_t size) {
  Count();
  return __libc_realloc(p, size);
}
void* aligned_alloc(size_t alignment, size_t size) {
  Count();
  return __libc_memalign(alignment, size);
}
void* memalign(size_t alignment, size_t size) {
  Count();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, size_t alignment, size_t size) {
  Count();
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return 12;  // ENOMEM
  *out = p;
  return 0;
}
void free(void* p) { __libc_free(p); }
}

void* operator new(size_t size) {
  Count();
  void* p = __libc_malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](size_t size) { return operator new(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  Count();
  return __libc_malloc(size == 0 ? 1 : size);
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  Count();
  return __libc_malloc(size == 0 ? 1 : size);
}
void* operator new(size_t size, std::align_val_t alignment) {
  Count();
  void* p = __libc_memalign(static_cast<size_t>(alignment), size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](size_t size, std::align_val_t alignment) {
  return operator new(size, alignment);
}
void operator delete(void* p) noexcept { __libc_free(p); }
void operator delete[](void* p) noexcept { __libc_free(p); }
void operator delete(void* p, size_t) noexcept { __libc_free(p); }
void operator delete[](void* p, size_t) noexcept { __libc_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { __libc_free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { __libc_free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { __libc_free(p); }

namespace edgenmt {
namespace {

TEST(NoAllocationTest, CounterSeesAllocations) {
  g_allocations = 0;
  g_counting = true;
  void* volatile p = malloc(16);
  free(p);
  int* volatile q = new int(3);
  delete q;
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 2);
}

// Translate never allocates: every scheme, greedy and beam with attention history, n-best,
// penalties, and the error paths.
void CheckNoAllocation(const char* name, QuantScheme scheme,
                       KernelBackend backend = KernelBackend::kReference) {
  const std::string model_name = std::string(name) + " (scheme " +
                                 std::to_string(static_cast<int>(scheme)) + ", backend " +
                                 KernelBackendName(backend) + ")";
  converter::ConvertOptions options;
  options.scheme = scheme;
  auto loaded =
      testing::LoadCheckpointDir(std::string(EDGENMT_TEST_DATA_DIR) + "/golden/" + name, options);
  ASSERT_NE(loaded, nullptr);
  const Model& model = loaded->model;
  SessionLimits limits;
  limits.max_src_len = 32;
  limits.max_beam = 5;
  limits.max_nbest = 5;
  limits.max_tgt_len = 16;
  limits.attention = model.config().rnn.attention != AttentionType::kNone;
  limits.backend = backend;
  size_t bytes = 0;
  ASSERT_EQ(RequiredArenaBytes(model, limits, &bytes), Status::kOk) << model_name;
  testing::AlignedArena memory(bytes);
  Translator translator;
  ASSERT_EQ(translator.Init(&model, memory.data(), bytes, limits), Status::kOk) << model_name;
  // Everything a backend keeps (XNNPACK's operators and packed weights too) is in the arena,
  // exactly as planned.
  EXPECT_EQ(translator.arena_bytes_used(), bytes) << model_name;

  TranslateOptions beam;
  beam.beam = 5;
  beam.nbest = 5;
  beam.alpha = 0.6f;
  beam.beta = 0.2f;
  beam.max_len = 16;
  beam.return_attention = limits.attention;
  TranslateOptions greedy;
  greedy.max_len = 16;
  TranslateOptions too_big = beam;
  too_big.beam = 6;
  const int32_t ids[5] = {4, 5, 6, 7, 8};
  const std::string long_line(40, 'x');

  Status statuses[8];
  TranslationResult result;
  g_allocations = 0;
  g_counting = true;
  statuses[0] = translator.Translate("pronunciation", 13, beam, &result);
  statuses[1] = translator.Translate("word", 4, greedy, &result);
  statuses[2] = translator.TranslateIds(ids, 5, beam, &result);
  statuses[3] = translator.Translate("a\xff", 2, beam, &result);
  statuses[4] = translator.Translate(long_line.data(), long_line.size(), beam, &result);
  statuses[5] = translator.Translate("word", 4, too_big, &result);
  statuses[6] = translator.Translate("", 0, beam, &result);
  statuses[7] = translator.Translate("Zebra", 5, beam, &result);
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 0) << model_name;
  EXPECT_EQ(statuses[0], Status::kOk);
  EXPECT_EQ(statuses[1], Status::kOk);
  EXPECT_EQ(statuses[2], Status::kOk);
  EXPECT_EQ(statuses[3], Status::kSourceInvalidUtf8);
  EXPECT_EQ(statuses[4], Status::kSourceTooLong);
  EXPECT_EQ(statuses[5], Status::kLimitExceeded);
  EXPECT_EQ(statuses[6], Status::kSourceEmpty);
  EXPECT_EQ(statuses[7], Status::kOk);
  EXPECT_GE(result.num_hypotheses, 1);
}

TEST(NoAllocationTest, TranslateNeverAllocatesAfterInit) {
  for (const QuantScheme scheme :
       {QuantScheme::kFloat32, QuantScheme::kInt8Hybrid, QuantScheme::kInt8Full}) {
    for (const char* name : {"global_general", "local_p_general", "local_p_concat", "bahdanau",
                             "none", "transformer_pre", "transformer_post"}) {
      CheckNoAllocation(name, scheme);
    }
  }
}

// The optimized backends too: XNNPACK's operators are created at Init in the arena (through
// the allocator given to xnn_initialize) and its products never allocate.
TEST(NoAllocationTest, OptimizedBackendsNeverAllocateAfterInit) {
  for (KernelBackend backend :
       {KernelBackend::kXnnpack, KernelBackend::kSimd, KernelBackend::kAuto}) {
    if (!KernelBackendAvailable(backend)) continue;
    for (const QuantScheme scheme :
         {QuantScheme::kFloat32, QuantScheme::kInt8Hybrid, QuantScheme::kInt8Full}) {
      // xnnpack computes float32 models only: int8 ones are refused when planned, by name.
      if (backend == KernelBackend::kXnnpack && scheme != QuantScheme::kFloat32) {
        converter::ConvertOptions options;
        options.scheme = scheme;
        auto loaded = testing::LoadCheckpointDir(
            std::string(EDGENMT_TEST_DATA_DIR) + "/golden/local_p_general", options);
        ASSERT_NE(loaded, nullptr);
        SessionLimits limits;
        limits.backend = backend;
        size_t bytes = 0;
        EXPECT_EQ(RequiredArenaBytes(loaded->model, limits, &bytes), Status::kUnsupported);
        testing::AlignedArena memory(1 << 20);
        Translator translator;
        EXPECT_EQ(translator.Init(&loaded->model, memory.data(), memory.size(), limits),
                  Status::kUnsupported);
        EXPECT_NE(std::string(translator.error_detail()).find("int8"), std::string::npos)
            << translator.error_detail();
        continue;
      }
      for (const char* name : {"local_p_general", "bahdanau", "transformer_post"}) {
        CheckNoAllocation(name, scheme, backend);
      }
    }
  }
}

}  // namespace
}  // namespace edgenmt
