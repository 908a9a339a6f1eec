// Size arithmetic where size_t has 32 bits (armv7, Cortex-M): every product of sizes before an
// arena allocation is overflow-checked, so limits whose arena would exceed the address space
// are refused with kLimitExceeded and never wrap to a smaller, under-allocated plan. On a 64-bit
// host the same limits plan at least the true size. Needs only the runtime and the committed
// fuzz models, so it is one of the portable tests the armv7 build runs under qemu-arm.
#include <gtest/gtest.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <memory>
#include <string>
#include <vector>

#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "edgenmt/translator.h"

namespace edgenmt {
namespace {

constexpr size_t kBits = sizeof(size_t) * 8;
// 2^16 on 32-bit targets, 2^32 on 64-bit ones: half^2 overflows size_t, half * (half - 1) not.
constexpr size_t kHalf = size_t{1} << (kBits / 2);

struct FreeDeleter {
  void operator()(void* p) const { free(p); }
};

struct ModelFile {
  std::unique_ptr<uint8_t, FreeDeleter> bytes;
  size_t size = 0;
};

ModelFile ReadModel(const std::string& path) {
  ModelFile file;
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return file;  // bytes stays null
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  file.bytes.reset(
      static_cast<uint8_t*>(aligned_alloc(64, (static_cast<size_t>(n) + 63) / 64 * 64)));
  file.size = fread(file.bytes.get(), 1, static_cast<size_t>(n), f);
  fclose(f);
  return file;
}

const char* const kModels[] = {"lstm-global-general", "gru-global-concat",   "lstm-none",
                               "lstm-bahdanau",       "gru-localp-location", "lstm-localm-dot",
                               "lstm-word-nobridge"};

TEST(CheckedSizeProduct, ExactOrSaturatedToSizeMax) {
  EXPECT_EQ(Arena::CheckedSizeProduct(3, 5, 7), 105u);
  EXPECT_EQ(Arena::CheckedSizeProduct(kHalf, kHalf - 1), kHalf * (kHalf - 1));
  EXPECT_EQ(Arena::CheckedSizeProduct(kHalf, kHalf), SIZE_MAX);
  EXPECT_EQ(Arena::CheckedSizeProduct(2, kHalf, kHalf / 2), SIZE_MAX);
  EXPECT_EQ(Arena::CheckedSizeProduct(SIZE_MAX, 1), SIZE_MAX);
  EXPECT_EQ(Arena::CheckedSizeProduct(0, SIZE_MAX, SIZE_MAX), 0u);
}

TEST(ArenaAllocateArray, AnOverflowingDimensionProductFailsAndPoisonsTheSize) {
  Arena measuring;
  EXPECT_EQ(measuring.AllocateArray<float>(kHalf, kHalf), nullptr);
  EXPECT_TRUE(measuring.overflowed());
  EXPECT_EQ(measuring.used(), SIZE_MAX);

  alignas(16) uint8_t memory[256];
  Arena real(memory, sizeof memory);
  EXPECT_NE(real.AllocateArray<int32_t>(4, 4), nullptr);
  EXPECT_EQ(real.used(), 64u);
  // 2^(bits/2) x 2^(bits/2 - 2) int32s = exactly 2^bits bytes: the element count fits, the
  // byte count does not.
  EXPECT_EQ(real.AllocateArray<int32_t>(kHalf, kHalf / 4), nullptr);
  EXPECT_FALSE(real.writable());
  EXPECT_EQ(real.used(), SIZE_MAX);
}

// Limits at the file format's caps (beam 1024, 2^20 target tokens, attention history) need more
// than 2^33 bytes: two int32 back-pointer tables of 2^20 x 1024 entries alone.
TEST(PlanSize, LimitsBeyondTheAddressSpaceAreRefusedNeverWrapped) {
  for (const char* family : kModels) {
    for (const char* scheme : {"", ".int8", ".int8-full"}) {
      const std::string name = std::string(family) + scheme + ".enmt";
      SCOPED_TRACE(name);
      const ModelFile file =
          ReadModel(std::string(EDGENMT_SOURCE_DIR) + "/tests/fuzz/models/" + name);
      if (file.bytes == nullptr && scheme[0] != '\0') continue;  // no int8-full file: no path
      ASSERT_NE(file.bytes, nullptr);
      Model model;
      ASSERT_EQ(model.Load(file.bytes.get(), file.size), Status::kOk) << model.error_detail();
      SessionLimits limits;
      limits.max_beam = kMaxDecodingBeam;
      limits.max_nbest = kMaxDecodingBeam;
      limits.max_tgt_len = kMaxModelDim;
      limits.attention = model.config().rnn.attention != AttentionType::kNone;
      const uint64_t history_bytes = uint64_t{2} * 4 * kMaxModelDim * kMaxDecodingBeam;
      const uint64_t attention_bytes =
          limits.attention
              ? uint64_t{4} * kMaxModelDim * kMaxDecodingBeam * model.config().max_src_len
              : 0;

      size_t bytes = 0;
      char detail[160] = "unset";
      const Status planned = RequiredArenaBytes(model, limits, &bytes, detail, sizeof detail);
      if (kBits == 32) {
        EXPECT_EQ(planned, Status::kLimitExceeded);
        EXPECT_NE(strstr(detail, "address space"), nullptr) << detail;
        EXPECT_EQ(bytes, 0u);
      } else {
        ASSERT_EQ(planned, Status::kOk) << detail;
        EXPECT_STREQ(detail, "");
        EXPECT_GE(static_cast<uint64_t>(bytes), history_bytes + attention_bytes);
      }

      // Init over a small arena fails and writes nothing past it.
      constexpr size_t kArena = 64 * 1024, kGuard = 256;
      std::unique_ptr<uint8_t, FreeDeleter> memory(
          static_cast<uint8_t*>(aligned_alloc(64, kArena + kGuard)));
      memset(memory.get() + kArena, 0xA5, kGuard);
      Translator translator;
      const Status init = translator.Init(&model, memory.get(), kArena, limits);
      EXPECT_EQ(init, kBits == 32 ? Status::kLimitExceeded : Status::kArenaTooSmall)
          << translator.error_detail();
      EXPECT_FALSE(translator.initialized());
      for (size_t i = 0; i < kGuard; ++i) ASSERT_EQ(memory.get()[kArena + i], 0xA5) << i;
    }
  }
}

}  // namespace
}  // namespace edgenmt
