// The profiling hook (edgenmt/profiler.h): balanced, correctly nested stage events whose counts
// follow the decoding (one encoder and one search per translation, one decoder step per step
// with its cell, attention and projection inside), no effect on results, silence when unset;
// and the kernel operation listing `edgenmt translate --profile` prints.
#include <string>
#include <utility>
#include <vector>

#include "edgenmt/kernel_backend.h"
#include "edgenmt/profiler.h"
#include "edgenmt/translator.h"
#include "gtest/gtest.h"
#include "runtime_test_util.h"

namespace edgenmt {
namespace {

struct Recorder {
  std::vector<std::pair<bool, ProfileStage>> events;  // (begin?, stage)
  static void Begin(void* self, ProfileStage s) {
    static_cast<Recorder*>(self)->events.push_back({true, s});
  }
  static void End(void* self, ProfileStage s) {
    static_cast<Recorder*>(self)->events.push_back({false, s});
  }
  int Count(ProfileStage stage) const {
    int n = 0;
    for (const auto& e : events) n += e.first && e.second == stage;
    return n;
  }
};

std::string Golden(const char* name) {
  return std::string(EDGENMT_TEST_DATA_DIR) + "/golden/" + name;
}

// Translates `word` with beam `beam`; returns the best text and the decoder step count.
std::pair<std::string, int32_t> Translate(const Model& model, const char* word, int32_t beam) {
  SessionLimits limits;
  limits.max_beam = beam;
  limits.max_nbest = 1;
  limits.max_tgt_len = 12;
  size_t bytes = 0;
  EXPECT_EQ(RequiredArenaBytes(model, limits, &bytes), Status::kOk);
  testing::AlignedArena arena(bytes);
  Translator translator;
  EXPECT_EQ(translator.Init(&model, arena.data(), bytes, limits), Status::kOk);
  TranslateOptions options;
  options.beam = beam;
  options.max_len = 12;
  TranslationResult result;
  EXPECT_EQ(translator.Translate(word, std::string(word).size(), options, &result), Status::kOk);
  return {result.hypotheses[0].text, result.steps};
}

TEST(ProfilerTest, StagesAreNestedCountedAndChangeNothing) {
  for (const char* name : {"local_p_general", "bahdanau", "none"}) {
    auto loaded = testing::LoadCheckpointDir(Golden(name));
    ASSERT_NE(loaded, nullptr);
    const bool attention = loaded->model.config().rnn.attention != AttentionType::kNone;
    for (int32_t beam : {1, 3}) {
      const auto unprofiled = Translate(loaded->model, "abcde", beam);
      Recorder recorder;
      const Profiler profiler{&Recorder::Begin, &Recorder::End, &recorder};
      SetProfiler(&profiler);
      const auto profiled = Translate(loaded->model, "abcde", beam);
      SetProfiler(nullptr);
      EXPECT_EQ(profiled, unprofiled) << name;

      // Balanced and nested: inner stages only inside a decoder step, steps only in the search.
      std::vector<ProfileStage> stack;
      for (const auto& [begin, stage] : recorder.events) {
        if (!begin) {
          ASSERT_FALSE(stack.empty()) << name;
          ASSERT_EQ(stack.back(), stage) << name;
          stack.pop_back();
          continue;
        }
        const ProfileStage parent = stack.empty() ? ProfileStage::kEncoder : stack.back();
        switch (stage) {
          case ProfileStage::kEncoder:
          case ProfileStage::kSearch: EXPECT_TRUE(stack.empty()) << name; break;
          case ProfileStage::kDecoderStep: EXPECT_EQ(parent, ProfileStage::kSearch) << name; break;
          default: EXPECT_EQ(parent, ProfileStage::kDecoderStep) << name; break;
        }
        stack.push_back(stage);
      }
      EXPECT_TRUE(stack.empty()) << name;
      const int32_t steps = profiled.second;
      EXPECT_GT(steps, 0);
      EXPECT_EQ(recorder.Count(ProfileStage::kEncoder), 1) << name;
      EXPECT_EQ(recorder.Count(ProfileStage::kSearch), 1) << name;
      EXPECT_EQ(recorder.Count(ProfileStage::kDecoderStep), steps) << name;
      EXPECT_EQ(recorder.Count(ProfileStage::kRecurrentCell),
                steps * loaded->model.config().dec_layers)
          << name;  // one call per layer
      EXPECT_EQ(recorder.Count(ProfileStage::kOutputProjection), steps) << name;
      // attend + the attentional layer per step; without attention only the latter.
      EXPECT_EQ(recorder.Count(ProfileStage::kAttention), (attention ? 2 : 1) * steps) << name;

      recorder.events.clear();
      Translate(loaded->model, "abcde", beam);  // unset again: nothing reported
      EXPECT_TRUE(recorder.events.empty());
    }
  }
}

TEST(ProfilerTest, StageNames) {
  EXPECT_STREQ(ProfileStageName(ProfileStage::kEncoder), "encoder");
  EXPECT_STREQ(ProfileStageName(ProfileStage::kOutputProjection), "output projection");
  EXPECT_STREQ(ProfileStageName(ProfileStage::kFeedForward), "feed-forward");
  EXPECT_STREQ(ProfileStageName(static_cast<ProfileStage>(kProfileStageCount)), "unknown");
}

TEST(ProfilerTest, KernelOperationListing) {
  // 11 float/hybrid (3 of them the Transformer's) + 14 int8-full + 7 int8-full Transformer +
  // 2 optional (weights packed at Init: xnnpack, and auto where XNNPACK is built).
  ASSERT_EQ(KernelOperationCount(), 34);
  const bool xnnpack = KernelBackendAvailable(KernelBackend::kXnnpack);
  for (int32_t i = 0; i < KernelOperationCount(); ++i) {
    ASSERT_NE(KernelOperationName(i), nullptr);
    const std::string name = KernelOperationName(i);
    const bool packed = name.find("pack") != std::string::npos;
    // xnnpack computes float32 models only: the float operations and its packed product.
    const bool float_op =
        name.find("_f32") != std::string::npos && name.find("s8") == std::string::npos;
    EXPECT_EQ(KernelOperationImplemented(KernelBackend::kReference, i), !packed) << name;
    for (KernelBackend b : kKernelBackends) {
      bool expected = KernelBackendAvailable(b);
      if (packed)
        expected =
            expected && xnnpack && b != KernelBackend::kReference && b != KernelBackend::kSimd;
      if (b == KernelBackend::kXnnpack) expected = expected && float_op;
      EXPECT_EQ(KernelOperationImplemented(b, i), expected) << KernelBackendName(b) << " " << name;
      const std::string provider = KernelOperationProvider(b, i);
      EXPECT_EQ(provider.empty(), !expected) << KernelBackendName(b) << " " << name;
      if (b == KernelBackend::kReference && expected) {
        EXPECT_EQ(provider, "reference");
      }
      if (packed && expected) {
        EXPECT_EQ(provider, "xnnpack") << KernelBackendName(b);
      }
    }
    if (KernelBackendAvailable(KernelBackend::kSimd)) {  // the products are never the reference
      if (name == "fully_connected_f32" || name == "fully_connected_s8_hybrid" ||
          name == "fully_connected_s8_s32") {
        EXPECT_EQ(std::string(KernelOperationProvider(KernelBackend::kSimd, i)),
                  KernelBackendVariant(KernelBackend::kSimd));
      }
    }
  }
  EXPECT_STREQ(KernelOperationName(0), "fully_connected_f32");
  EXPECT_EQ(KernelOperationName(KernelOperationCount()), nullptr);
  EXPECT_EQ(KernelOperationName(-1), nullptr);
  EXPECT_FALSE(KernelOperationImplemented(KernelBackend::kReference, KernelOperationCount()));
}

}  // namespace
}  // namespace edgenmt
