// Translator: arena planning (used == required, one byte less fails with the number), limits
// and option errors, source errors, Translate vs TranslateIds, attention history.
#include <math.h>
#include <string.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "decoder/step_decoder.h"
#include "edgenmt/internal/arena.h"
#include "edgenmt/tokenizer.h"
#include "edgenmt/translator.h"
#include "kernels/kernel_table.h"
#include "runtime_test_util.h"
#include "session/translator_state.h"

namespace edgenmt {
namespace {

std::string GoldenDir(const std::string& name) {
  return std::string(EDGENMT_TEST_DATA_DIR) + "/golden/" + name;
}

const char* kAllGolden[] = {"bahdanau",         "global_concat",
                            "global_dot",       "global_general",
                            "global_location",  "local_m_concat",
                            "local_m_dot",      "local_m_general",
                            "local_m_location", "local_p_concat",
                            "local_p_dot",      "local_p_general",
                            "local_p_location", "none"};

SessionLimits Limits(int32_t src, int32_t beam, int32_t nbest, int32_t tgt, bool attention) {
  SessionLimits limits;
  limits.max_src_len = src;
  limits.max_beam = beam;
  limits.max_nbest = nbest;
  limits.max_tgt_len = tgt;
  limits.attention = attention;
  return limits;
}

TEST(ArenaTest, BumpAllocationAlignmentAndMeasuring) {
  Arena measuring;
  EXPECT_TRUE(measuring.measuring());
  EXPECT_EQ(measuring.Allocate(3), nullptr);
  EXPECT_EQ(measuring.used(), 16u);
  EXPECT_EQ(measuring.AllocateArray<float>(5), nullptr);
  EXPECT_EQ(measuring.used(), 48u);
  EXPECT_FALSE(measuring.overflowed());

  testing::AlignedArena memory(64);
  Arena arena(memory.data(), 64);
  uint8_t* a = static_cast<uint8_t*>(arena.Allocate(1));
  uint8_t* b = static_cast<uint8_t*>(arena.Allocate(17));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b - a, 16);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % kArenaAlignment, 0u);
  EXPECT_EQ(arena.used(), 48u);
  EXPECT_EQ(arena.Allocate(32), nullptr);  // 80 > 64: overflow, keeps counting
  EXPECT_TRUE(arena.overflowed());
  EXPECT_EQ(arena.used(), 80u);
  EXPECT_EQ(arena.Allocate(0), nullptr);  // nothing handed out after an overflow

  Arena huge;
  EXPECT_EQ(huge.AllocateArray<double>(SIZE_MAX / 4), nullptr);
  EXPECT_TRUE(huge.overflowed());
  EXPECT_EQ(huge.used(), SIZE_MAX);

  Arena misaligned(memory.data() + 4, 32);
  EXPECT_TRUE(misaligned.overflowed());
  EXPECT_EQ(misaligned.Allocate(4), nullptr);
}

// The arena plan is exact: Init uses exactly RequiredArenaBytes, for every golden model and
// several limit combinations, and one byte less is refused with the requirement reported.
TEST(TranslatorArenaTest, UsedEqualsRequiredAndOneByteLessFails) {
  for (const char* name : kAllGolden) {
    auto loaded = testing::LoadCheckpointDir(GoldenDir(name));
    ASSERT_NE(loaded, nullptr);
    const Model& model = loaded->model;
    const bool has_attention = model.config().rnn.attention != AttentionType::kNone;
    for (const SessionLimits& limits :
         {Limits(1, 1, 1, 1, false), Limits(32, 5, 5, 12, has_attention),
          Limits(7, 3, 2, 20, false), Limits(0, 4, 1, 0, has_attention)}) {
      size_t required = 0;
      ASSERT_EQ(RequiredArenaBytes(model, limits, &required), Status::kOk) << name;
      ASSERT_GT(required, 0u);
      EXPECT_EQ(required % kArenaAlignment, 0u);
      testing::AlignedArena memory(required);
      Translator translator;
      ASSERT_EQ(translator.Init(&model, memory.data(), required, limits), Status::kOk)
          << name << ": " << translator.error_detail();
      EXPECT_EQ(translator.arena_bytes_used(), required) << name;

      Translator short_translator;
      EXPECT_EQ(short_translator.Init(&model, memory.data(), required - 1, limits),
                Status::kArenaTooSmall);
      EXPECT_EQ(short_translator.required_arena_bytes(), required);
      EXPECT_NE(std::string(short_translator.error_detail()).find(std::to_string(required)),
                std::string::npos)
          << short_translator.error_detail();
      EXPECT_FALSE(short_translator.initialized());
      // Also with almost nothing: the plan still reports the full requirement.
      EXPECT_EQ(short_translator.Init(&model, memory.data(), 16, limits), Status::kArenaTooSmall);
      EXPECT_EQ(short_translator.required_arena_bytes(), required);
    }
  }
}

#if UINTPTR_MAX == UINT64_MAX
// Memory is a tested number (tflite-micro's memory_arena_threshold_test): a change to the
// buffer plan must update this on purpose. Pinned: the buffers only, i.e. the requirement minus
// the Translator::State object (whose size follows every member added to a layer). 64-bit
// hosts; global_dot, limits src 32, beam 5, n-best 5, 12 output tokens, attention history on.
TEST(TranslatorArenaTest, PinnedArenaSize) {
  auto loaded = testing::LoadCheckpointDir(GoldenDir("global_dot"));
  ASSERT_NE(loaded, nullptr);
  size_t required = 0;
  ASSERT_EQ(RequiredArenaBytes(loaded->model, Limits(32, 5, 5, 12, true), &required), Status::kOk);
  const size_t state_bytes =
      (sizeof(Translator::State) + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
  // 43840 before the two-region arena (scratch shared by the encoder and the decoder steps).
  constexpr size_t kPinnedBufferBytes = 30096;  // beam bookkeeping in float, not double
  EXPECT_EQ(required - state_bytes, kPinnedBufferBytes)
      << "required " << required << ", State " << state_bytes;
}
#endif

class TranslatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    loaded_ = testing::LoadCheckpointDir(GoldenDir("global_general"));
    ASSERT_NE(loaded_, nullptr);
    limits_ = Limits(16, 5, 3, 12, true);
    ASSERT_EQ(RequiredArenaBytes(model(), limits_, &bytes_), Status::kOk);
    memory_ = std::make_unique<testing::AlignedArena>(bytes_);
    ASSERT_EQ(translator_.Init(&model(), memory_->data(), bytes_, limits_), Status::kOk)
        << translator_.error_detail();
    options_.beam = 5;
    options_.nbest = 3;
    options_.max_len = 12;
    options_.alpha = 0.6f;
    options_.beta = 0.2f;
  }
  const Model& model() const { return loaded_->model; }

  std::unique_ptr<testing::LoadedModel> loaded_;
  SessionLimits limits_;
  size_t bytes_ = 0;
  std::unique_ptr<testing::AlignedArena> memory_;
  Translator translator_;
  TranslateOptions options_;
};

TEST_F(TranslatorTest, InitErrors) {
  Translator t;
  EXPECT_EQ(t.Init(nullptr, memory_->data(), bytes_, limits_), Status::kInvalidArgument);
  EXPECT_EQ(t.Init(&model(), nullptr, bytes_, limits_), Status::kInvalidArgument);
  EXPECT_EQ(t.Init(&model(), memory_->data() + 4, bytes_ - 16, limits_), Status::kInvalidArgument);
  Model unloaded;
  EXPECT_EQ(t.Init(&unloaded, memory_->data(), bytes_, limits_), Status::kNotInitialized);
  SessionLimits bad = limits_;
  bad.max_nbest = 6;
  EXPECT_EQ(t.Init(&model(), memory_->data(), bytes_, bad), Status::kInvalidArgument);
  bad = limits_;
  bad.max_src_len = model().config().max_src_len + 1;
  EXPECT_EQ(t.Init(&model(), memory_->data(), bytes_, bad), Status::kLimitExceeded);
  size_t ignored = 0;
  EXPECT_EQ(RequiredArenaBytes(model(), bad, &ignored), Status::kLimitExceeded);
  for (KernelBackend b : kKernelBackends) {
    if (KernelBackendAvailable(b)) continue;
    bad = limits_;
    bad.backend = b;
    EXPECT_EQ(t.Init(&model(), memory_->data(), bytes_, bad), Status::kUnsupported);
    EXPECT_NE(std::string(t.error_detail()).find(KernelBackendName(b)), std::string::npos);
  }
  TranslationResult result;
  EXPECT_EQ(t.Translate("abc", 3, options_, &result), Status::kNotInitialized);
}

TEST_F(TranslatorTest, OptionErrors) {
  TranslationResult result;
  const int32_t src[3] = {4, 5, 6};
  TranslateOptions o = options_;
  o.beam = 6;
  EXPECT_EQ(translator_.TranslateIds(src, 3, o, &result), Status::kLimitExceeded);
  o = options_;
  o.nbest = 4;
  o.beam = 5;
  EXPECT_EQ(translator_.TranslateIds(src, 3, o, &result), Status::kLimitExceeded);
  o = options_;
  o.max_len = 13;
  EXPECT_EQ(translator_.TranslateIds(src, 3, o, &result), Status::kLimitExceeded);
  o = options_;
  o.nbest = 0;
  EXPECT_EQ(translator_.TranslateIds(src, 3, o, &result), Status::kInvalidArgument);
  o = options_;
  o.alpha = -1.0f;
  EXPECT_EQ(translator_.TranslateIds(src, 3, o, &result), Status::kInvalidArgument);
  o = options_;
  o.max_len = 0;
  EXPECT_EQ(translator_.TranslateIds(src, 3, o, &result), Status::kInvalidArgument);
  // The same range check as the model file's defaults (ValidateDecodingOptions).
  o = options_;
  o.min_len = o.max_len + 1;
  EXPECT_EQ(translator_.TranslateIds(src, 3, o, &result), Status::kInvalidArgument);
  EXPECT_NE(std::string(translator_.error_detail()).find("options.min_len: "), std::string::npos)
      << translator_.error_detail();
  EXPECT_EQ(translator_.TranslateIds(src, 3, options_, nullptr), Status::kInvalidArgument);
}

TEST(DecodingOptions, OneRangeCheckNamesTheFirstBadField) {
  DecodingOptions o;
  char detail[160];
  const char* field = "unset";
  EXPECT_EQ(ValidateDecodingOptions(o, "x.", detail, sizeof(detail), &field), Status::kOk);
  EXPECT_STREQ(detail, "");
  EXPECT_EQ(field, nullptr);
  o.beam = kMaxDecodingBeam + 1;
  o.alpha = -1.0f;  // later in field order: beam is reported
  EXPECT_EQ(ValidateDecodingOptions(o, "x.", detail, sizeof(detail), &field),
            Status::kInvalidArgument);
  EXPECT_STREQ(detail, "x.beam: 1025 not in [1, 1024]");
  EXPECT_STREQ(field, "beam");
  o.beam = 2;
  EXPECT_EQ(ValidateDecodingOptions(o, "", detail, sizeof(detail), &field),
            Status::kInvalidArgument);
  EXPECT_STREQ(detail, "alpha: must be finite and >= 0");
  o.alpha = 0.0f;
  o.max_len_ratio = INFINITY;
  EXPECT_EQ(ValidateDecodingOptions(o, "", nullptr, 0, &field), Status::kInvalidArgument);
  EXPECT_STREQ(field, "max_len_ratio");
  o.max_len_ratio = 0.0f;
  o.max_len = kMaxModelDim + 1;
  EXPECT_EQ(ValidateDecodingOptions(o, "", nullptr, 0, &field), Status::kInvalidArgument);
  EXPECT_STREQ(field, "max_len");
  o.max_len = 3;
  o.min_len = 3;  // min_len == max_len is allowed
  EXPECT_EQ(ValidateDecodingOptions(o, "", nullptr, 0), Status::kOk);
}

TEST_F(TranslatorTest, SourceErrors) {
  TranslationResult result;
  std::vector<int32_t> ids(17, 5);
  EXPECT_EQ(translator_.TranslateIds(ids.data(), 17, options_, &result), Status::kSourceTooLong);
  EXPECT_EQ(translator_.TranslateIds(ids.data(), 16, options_, &result), Status::kOk);
  EXPECT_EQ(translator_.TranslateIds(ids.data(), 0, options_, &result), Status::kSourceEmpty);
  ids[2] = model().config().src_vocab_size;
  EXPECT_EQ(translator_.TranslateIds(ids.data(), 3, options_, &result),
            Status::kSourceTokenOutOfRange);
  ids[2] = -1;
  EXPECT_EQ(translator_.TranslateIds(ids.data(), 3, options_, &result),
            Status::kSourceTokenOutOfRange);
  const std::string long_word(17, 'a');
  EXPECT_EQ(translator_.Translate(long_word.data(), long_word.size(), options_, &result),
            Status::kSourceTooLong);
  EXPECT_NE(std::string(translator_.error_detail()).find("17"), std::string::npos);
  EXPECT_EQ(translator_.Translate("", 0, options_, &result), Status::kSourceEmpty);
  EXPECT_EQ(translator_.Translate(" \t\r\n", 4, options_, &result), Status::kSourceEmpty);
  EXPECT_EQ(translator_.Translate("ab\xff", 3, options_, &result), Status::kSourceInvalidUtf8);
  // A failed call leaves the translator usable.
  EXPECT_EQ(translator_.Translate("word", 4, options_, &result), Status::kOk);
}

TEST_F(TranslatorTest, TranslateMatchesTranslateIdsAndDetokenizes) {
  TranslationResult by_text;
  ASSERT_EQ(translator_.Translate(" Hello\n", 7, options_, &by_text), Status::kOk)
      << translator_.error_detail();
  ASSERT_EQ(by_text.src_len, 5);
  EXPECT_EQ(by_text.src_unknown, 0);
  const std::vector<int32_t> src(by_text.src_ids, by_text.src_ids + by_text.src_len);
  std::vector<std::vector<int32_t>> ids;
  std::vector<float> scores;
  std::vector<std::string> texts;
  for (int32_t n = 0; n < by_text.num_hypotheses; ++n) {
    const Hypothesis& h = by_text.hypotheses[n];
    ids.emplace_back(h.ids, h.ids + h.length);
    scores.push_back(h.score);
    texts.emplace_back(h.text, h.text_length);
    // Text = the target tokens joined by single spaces.
    std::string expected;
    for (int32_t i = 0; i < h.length; ++i) {
      const TokenView token = model().tgt_vocab().Token(h.ids[i]);
      if (i > 0) expected += ' ';
      expected.append(token.data, token.size);
    }
    EXPECT_EQ(texts.back(), expected);
    EXPECT_EQ(strlen(h.text), h.text_length);
    if (n > 0) {
      EXPECT_LE(h.score, by_text.hypotheses[n - 1].score);
    }
  }
  EXPECT_EQ(by_text.num_hypotheses, 3);
  TranslationResult by_ids;
  ASSERT_EQ(
      translator_.TranslateIds(src.data(), static_cast<int32_t>(src.size()), options_, &by_ids),
      Status::kOk);
  ASSERT_EQ(by_ids.num_hypotheses, static_cast<int32_t>(ids.size()));
  for (int32_t n = 0; n < by_ids.num_hypotheses; ++n) {
    EXPECT_EQ(std::vector<int32_t>(by_ids.hypotheses[n].ids,
                                   by_ids.hypotheses[n].ids + by_ids.hypotheses[n].length),
              ids[n]);
    EXPECT_EQ(by_ids.hypotheses[n].score, scores[n]);  // deterministic, bit-identical
    EXPECT_EQ(std::string(by_ids.hypotheses[n].text), texts[n]);
  }
  // Unknown characters map to <unk> and are counted.
  TranslationResult unknown;
  ASSERT_EQ(translator_.Translate("h\xc3\xa9llo", 6, options_, &unknown), Status::kOk);
  EXPECT_EQ(unknown.src_len, 5);
  EXPECT_EQ(unknown.src_unknown, 1);
  EXPECT_EQ(unknown.src_ids[1], model().src_vocab().unk_id);
}

// The per-step attention returned with each hypothesis equals what the decoder computes when
// teacher-forced with that hypothesis (checks the back-pointer reconstruction).
TEST_F(TranslatorTest, ReturnedAttentionMatchesTeacherForcing) {
  TranslateOptions o = options_;
  o.return_attention = true;
  TranslationResult result;
  const int32_t src[6] = {7, 4, 12, 9, 5, 20};
  ASSERT_EQ(translator_.TranslateIds(src, 6, o, &result), Status::kOk);

  const KernelTable* k = nullptr;
  ASSERT_EQ(GetKernelTable(KernelBackend::kReference, &k), Status::kOk);
  Arena measuring;
  OwnedErrorDetail detail;
  StepDecoder probe;
  ASSERT_EQ(probe.Prepare(model(), k, 6, 1, &measuring, &detail), Status::kOk);
  testing::AlignedArena memory(measuring.used());
  Arena arena(memory.data(), memory.size());
  StepDecoder decoder;
  ASSERT_EQ(decoder.Prepare(model(), k, 6, 1, &arena, &detail), Status::kOk);
  for (int32_t n = 0; n < result.num_hypotheses; ++n) {
    const Hypothesis& h = result.hypotheses[n];
    ASSERT_NE(h.attention, nullptr);
    ASSERT_EQ(h.attention_steps, h.length + (h.ended_with_eos ? 1 : 0));
    decoder.Encode(src, 6);
    double log_prob = 0.0;
    for (int32_t t = 0; t < h.attention_steps; ++t) {
      const int32_t prev = t == 0 ? model().tgt_vocab().bos_id : h.ids[t - 1];
      decoder.Step(&prev, 1);
      const int32_t next = t < h.length ? h.ids[t] : model().tgt_vocab().eos_id;
      log_prob += decoder.log_probs()[next];
      for (int32_t s = 0; s < 6; ++s) {
        ASSERT_NEAR(h.attention[t * 6 + s], decoder.attention()[s], 1e-5)
            << "hypothesis " << n << " step " << t;
      }
    }
    EXPECT_NEAR(h.log_prob, log_prob, 1e-4);
  }
  // Without return_attention no attention is returned.
  ASSERT_EQ(translator_.TranslateIds(src, 6, options_, &result), Status::kOk);
  EXPECT_EQ(result.hypotheses[0].attention, nullptr);
  // A session sized without attention refuses it.
  Translator plain;
  SessionLimits limits = limits_;
  limits.attention = false;
  size_t bytes = 0;
  ASSERT_EQ(RequiredArenaBytes(model(), limits, &bytes), Status::kOk);
  EXPECT_LT(bytes, bytes_);
  testing::AlignedArena plain_memory(bytes);
  ASSERT_EQ(plain.Init(&model(), plain_memory.data(), bytes, limits), Status::kOk);
  EXPECT_EQ(plain.TranslateIds(src, 6, o, &result), Status::kLimitExceeded);
}

TEST_F(TranslatorTest, MaxLengthEndsHypotheses) {
  TranslateOptions o = options_;
  o.max_len = 1;
  o.min_len = 1;  // </s> impossible at step 0, so every hypothesis is cut at one token
  TranslationResult result;
  const int32_t src[3] = {4, 5, 6};
  ASSERT_EQ(translator_.TranslateIds(src, 3, o, &result), Status::kOk);
  ASSERT_EQ(result.num_hypotheses, 3);
  for (int32_t n = 0; n < 3; ++n) {
    EXPECT_EQ(result.hypotheses[n].length, 1);
    EXPECT_FALSE(result.hypotheses[n].ended_with_eos);
  }
  EXPECT_EQ(result.steps, 1);
  // Ratio: max_steps = min(max_len, max(1, ceil(0.5 * 3))) = 2.
  o.max_len = 12;
  o.min_len = 12;
  o.max_len_ratio = 0.5f;
  ASSERT_EQ(translator_.TranslateIds(src, 3, o, &result), Status::kOk);
  EXPECT_EQ(result.hypotheses[0].length, 2);
  EXPECT_EQ(result.steps, 2);
}

}  // namespace
}  // namespace edgenmt
