// The C API (edgenmt/edgenmt.h) against the C++ API on a golden model: same outputs, exact
// arena accounting, clean errors for bad arguments, too-small arenas and bad input.
#include "edgenmt/edgenmt.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "edgenmt/translator.h"
#include "runtime_test_util.h"

extern "C" int edgenmt_c_api_header_check(const void* data, size_t size);

namespace edgenmt {
namespace {

class CApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    loaded_ =
        testing::LoadCheckpointDir(std::string(EDGENMT_TEST_DATA_DIR) + "/golden/local_p_general");
    ASSERT_NE(loaded_, nullptr);
    ASSERT_EQ(enmt_model_load(storage_, sizeof storage_, loaded_->model.buffer(),
                              loaded_->model.buffer_size(), &model_),
              ENMT_OK);
  }
  std::unique_ptr<testing::LoadedModel> loaded_;
  alignas(16) unsigned char storage_[ENMT_MODEL_STORAGE_BYTES_MAX];
  enmt_model* model_ = nullptr;
};

TEST_F(CApiTest, HeaderCompilesAsC) {
  EXPECT_EQ(edgenmt_c_api_header_check(loaded_->model.buffer(), loaded_->model.buffer_size()), 0);
}

TEST_F(CApiTest, TranslatesLikeTheCppApi) {
  enmt_limits limits;
  enmt_limits_default(model_, &limits);
  limits.max_beam = 5;
  limits.max_nbest = 3;
  limits.attention = 1;
  size_t bytes = 0;
  ASSERT_EQ(enmt_required_arena_bytes(model_, &limits, &bytes), ENMT_OK);
  testing::AlignedArena arena(bytes);
  enmt_translator* tr = nullptr;
  ASSERT_EQ(enmt_translator_init(model_, arena.data(), bytes, &limits, &tr), ENMT_OK);
  EXPECT_EQ(enmt_translator_arena_bytes_used(tr), bytes);

  enmt_options opt;
  enmt_options_default(model_, &opt);
  opt.beam = 5;
  opt.nbest = 3;
  opt.return_attention = 1;
  int32_t n = 0;
  ASSERT_EQ(enmt_translate(tr, "phoneme", 7, &opt, &n), ENMT_OK) << enmt_translator_error(tr);
  ASSERT_GE(n, 1);

  // The same request through the C++ API.
  SessionLimits cpp_limits;
  cpp_limits.max_beam = 5;
  cpp_limits.max_nbest = 3;
  cpp_limits.attention = true;
  size_t cpp_bytes = 0;
  ASSERT_EQ(RequiredArenaBytes(loaded_->model, cpp_limits, &cpp_bytes), Status::kOk);
  testing::AlignedArena cpp_arena(cpp_bytes);
  Translator translator;
  ASSERT_EQ(translator.Init(&loaded_->model, cpp_arena.data(), cpp_bytes, cpp_limits), Status::kOk);
  TranslateOptions cpp_opt = TranslateOptions::FromModel(loaded_->model);
  cpp_opt.beam = 5;
  cpp_opt.nbest = 3;
  cpp_opt.return_attention = true;
  TranslationResult result;
  ASSERT_EQ(translator.Translate("phoneme", 7, cpp_opt, &result), Status::kOk);
  ASSERT_EQ(result.num_hypotheses, n);
  for (int32_t i = 0; i < n; ++i) {
    enmt_hypothesis h;
    ASSERT_EQ(enmt_get_hypothesis(tr, i, &h), ENMT_OK);
    EXPECT_EQ(std::string(h.text, h.text_length),
              std::string(result.hypotheses[i].text, result.hypotheses[i].text_length));
    EXPECT_EQ(h.score, result.hypotheses[i].score);
    EXPECT_EQ(h.attention_steps, result.hypotheses[i].attention_steps);
    EXPECT_NE(h.attention, nullptr);
  }
  enmt_hypothesis h;
  EXPECT_EQ(enmt_get_hypothesis(tr, n, &h), ENMT_INVALID_ARGUMENT);
}

TEST_F(CApiTest, PlanningFailuresSayWhy) {
  enmt_limits limits;
  enmt_limits_default(model_, &limits);
  size_t bytes = 0;
  char detail[160] = "stale";
  ASSERT_EQ(enmt_required_arena_bytes_detail(model_, &limits, &bytes, detail, sizeof detail),
            ENMT_OK);
  EXPECT_STREQ(detail, "");
  limits.max_src_len += 1000;
  EXPECT_EQ(enmt_required_arena_bytes_detail(model_, &limits, &bytes, detail, sizeof detail),
            ENMT_LIMIT_EXCEEDED);
  EXPECT_NE(std::string(detail).find("exceeds the model's max_src_len"), std::string::npos)
      << detail;
}

TEST_F(CApiTest, ErrorsAreStatusesNotCrashes) {
  enmt_limits limits;
  enmt_limits_default(model_, &limits);
  size_t bytes = 0;
  ASSERT_EQ(enmt_required_arena_bytes(model_, &limits, &bytes), ENMT_OK);
  testing::AlignedArena arena(bytes);
  enmt_translator* tr = nullptr;
  EXPECT_EQ(enmt_translator_init(model_, arena.data(), bytes - 16, &limits, &tr),
            ENMT_ARENA_TOO_SMALL);
  EXPECT_EQ(tr, nullptr);
  EXPECT_EQ(enmt_translator_init(model_, arena.data() + 1, bytes, &limits, &tr),
            ENMT_INVALID_ARGUMENT);
  limits.backend = 77;
  EXPECT_EQ(enmt_translator_init(model_, arena.data(), bytes, &limits, &tr), ENMT_INVALID_ARGUMENT);
  enmt_limits_default(model_, &limits);
  ASSERT_EQ(enmt_translator_init(model_, arena.data(), bytes, &limits, &tr), ENMT_OK);

  enmt_options opt;
  enmt_options_default(model_, &opt);
  opt.beam = 1;
  opt.nbest = 1;
  int32_t n = -1;
  EXPECT_EQ(enmt_translate(tr, "   ", 3, &opt, &n), ENMT_SOURCE_EMPTY);
  EXPECT_EQ(n, 0);
  EXPECT_EQ(enmt_translate(tr, "\xff\xfe", 2, &opt, &n), ENMT_SOURCE_INVALID_UTF8);
  const std::string long_word(200, 'a');
  EXPECT_EQ(enmt_translate(tr, long_word.data(), long_word.size(), &opt, &n), ENMT_SOURCE_TOO_LONG);
  enmt_hypothesis h;
  EXPECT_EQ(enmt_get_hypothesis(tr, 0, &h), ENMT_NOT_INITIALIZED);
  opt.beam = 64;
  EXPECT_EQ(enmt_translate(tr, "abc", 3, &opt, &n), ENMT_LIMIT_EXCEEDED);
  EXPECT_STRNE(enmt_translator_error(tr), "");
  EXPECT_STREQ(enmt_status_name(ENMT_ARENA_TOO_SMALL), "ArenaTooSmall");

  // A corrupt model is refused with a status and a detail.
  std::vector<unsigned char> bad(loaded_->model.buffer_size() + 64);
  unsigned char* aligned = bad.data() + (64 - reinterpret_cast<uintptr_t>(bad.data()) % 64) % 64;
  alignas(16) unsigned char storage[ENMT_MODEL_STORAGE_BYTES_MAX];
  enmt_model* broken = nullptr;
  EXPECT_EQ(enmt_model_load(storage, sizeof storage, aligned, 128, &broken), ENMT_MODEL_MALFORMED);
  EXPECT_STRNE(enmt_model_error(broken), "");
}

// enmt_translate_batch's callback: copies what it is given (valid only during the call).
struct BatchOutcome {
  int calls = 0;
  enmt_status status = -1;
  std::string detail;
  std::vector<std::string> texts;
  std::vector<float> scores;
  int32_t src_len = 0;
};

void CollectBatchResult(void* user, int32_t index, enmt_status status,
                        const enmt_batch_result* result, const char* detail) {
  BatchOutcome& out = (*static_cast<std::vector<BatchOutcome>*>(user))[static_cast<size_t>(index)];
  ++out.calls;
  out.status = status;
  out.detail = detail == nullptr ? "(null)" : detail;
  if (status != ENMT_OK) {
    EXPECT_EQ(result, nullptr);
    return;
  }
  out.src_len = result->src_len;
  for (int32_t i = 0; i < result->num_hypotheses; ++i) {
    enmt_hypothesis h;
    EXPECT_EQ(enmt_batch_get_hypothesis(result, i, &h), ENMT_OK);
    out.texts.emplace_back(h.text, h.text_length);
    out.scores.push_back(h.score);
  }
  enmt_hypothesis h;
  EXPECT_EQ(enmt_batch_get_hypothesis(result, result->num_hypotheses, &h), ENMT_INVALID_ARGUMENT);
}

TEST_F(CApiTest, TranslateBatchGivesEachSourceItsOwnResult) {
  enmt_limits limits;
  enmt_limits_default(model_, &limits);
  EXPECT_EQ(limits.max_batch, 1);
  size_t one = 0, zero = 0;
  ASSERT_EQ(enmt_required_arena_bytes(model_, &limits, &one), ENMT_OK);
  limits.max_batch = 0;  // a struct zeroed by hand: taken as 1
  ASSERT_EQ(enmt_required_arena_bytes(model_, &limits, &zero), ENMT_OK);
  EXPECT_EQ(zero, one);
  limits.max_beam = 5;
  limits.max_nbest = 3;
  limits.max_batch = 3;
  size_t bytes = 0;
  ASSERT_EQ(enmt_required_arena_bytes(model_, &limits, &bytes), ENMT_OK);
  testing::AlignedArena arena(bytes);
  enmt_translator* tr = nullptr;
  ASSERT_EQ(enmt_translator_init(model_, arena.data(), bytes, &limits, &tr), ENMT_OK);
  enmt_options opt;
  enmt_options_default(model_, &opt);
  opt.beam = 5;
  opt.nbest = 3;

  const std::string long_word(200, 'a');
  const std::vector<std::string> words = {
      "phoneme", "edge", "", "hello", long_word, "\xff\xfe", "a", "translation", "cat"};
  std::vector<const char*> sources;
  std::vector<size_t> lengths;
  for (const std::string& w : words) {
    sources.push_back(w.data());
    lengths.push_back(w.size());
  }
  std::vector<BatchOutcome> got(words.size());
  ASSERT_EQ(
      enmt_translate_batch(tr, sources.data(), lengths.data(), static_cast<int32_t>(words.size()),
                           &opt, &CollectBatchResult, &got),
      ENMT_OK)
      << enmt_translator_error(tr);
  enmt_hypothesis h;
  EXPECT_EQ(enmt_get_hypothesis(tr, 0, &h), ENMT_NOT_INITIALIZED);  // batches keep no result

  // Each source as enmt_translate gives it, one at a time, on the same translator.
  for (size_t i = 0; i < words.size(); ++i) {
    SCOPED_TRACE(words[i]);
    EXPECT_EQ(got[i].calls, 1);
    int32_t n = 0;
    const enmt_status status = enmt_translate(tr, words[i].data(), words[i].size(), &opt, &n);
    ASSERT_EQ(got[i].status, status);
    if (status != ENMT_OK) {
      EXPECT_EQ(got[i].detail, enmt_translator_error(tr));
      continue;
    }
    ASSERT_EQ(static_cast<int32_t>(got[i].texts.size()), n);
    for (int32_t k = 0; k < n; ++k) {
      ASSERT_EQ(enmt_get_hypothesis(tr, k, &h), ENMT_OK);
      EXPECT_EQ(got[i].texts[static_cast<size_t>(k)], std::string(h.text, h.text_length));
      EXPECT_NEAR(got[i].scores[static_cast<size_t>(k)], h.score, 1e-4);
      EXPECT_EQ(got[i].src_len, h.src_len);
    }
  }
  EXPECT_EQ(got[2].status, ENMT_SOURCE_EMPTY);
  EXPECT_EQ(got[4].status, ENMT_SOURCE_TOO_LONG);
  EXPECT_EQ(got[5].status, ENMT_SOURCE_INVALID_UTF8);

  // Call errors: no callback at all.
  std::vector<BatchOutcome> none(words.size());
  EXPECT_EQ(enmt_translate_batch(tr, sources.data(), lengths.data(), -1, &opt, &CollectBatchResult,
                                 &none),
            ENMT_INVALID_ARGUMENT);
  EXPECT_EQ(enmt_translate_batch(tr, nullptr, lengths.data(), 2, &opt, &CollectBatchResult, &none),
            ENMT_INVALID_ARGUMENT);
  EXPECT_EQ(enmt_translate_batch(tr, sources.data(), lengths.data(), 2, &opt, nullptr, &none),
            ENMT_INVALID_ARGUMENT);
  const char* with_null[] = {"abc", nullptr};
  EXPECT_EQ(
      enmt_translate_batch(tr, with_null, lengths.data(), 2, &opt, &CollectBatchResult, &none),
      ENMT_INVALID_ARGUMENT);
  opt.beam = 64;
  EXPECT_EQ(
      enmt_translate_batch(tr, sources.data(), lengths.data(), 2, &opt, &CollectBatchResult, &none),
      ENMT_LIMIT_EXCEEDED);
  for (const BatchOutcome& o : none) EXPECT_EQ(o.calls, 0);
  EXPECT_EQ(enmt_batch_get_hypothesis(nullptr, 0, &h), ENMT_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace edgenmt
