// Translator::TranslateBatch against Translate, one source at a time, on the golden models
// (each attention type and score) and the shipped g2p-en in every scheme, greedy and beam 5 (n-best
// 2, length and coverage penalties), at batch sizes 1, 2, 7 and 32: the words of data/g2p/test.tsv
// in mixed lengths with bad sources in the middle (empty, invalid UTF-8, too long), which must fail
// alone with Translate's status while the others are translated. int8 and int8-full: byte
// for byte (ids, text, the bits of every score). float32: identical outputs and scores within
// 1e-4 (a backend may sum a many-row product in another order).
#include <gtest/gtest.h>
#include <math.h>
#include <string.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/translator.h"
#include "runtime_test_util.h"

namespace edgenmt {
namespace {

constexpr int32_t kMaxSrc = 24;
// Under QEMU (the ARM presets) the golden models only, on fewer words: the shipped model's
// batched decoding is compared with the host's by target_matches_host.sh and the CLI tests.
#if defined(EDGENMT_EMULATED)
constexpr size_t kWords = 20;
constexpr bool kShippedModel = false;
#else
constexpr size_t kWords = 40;
constexpr bool kShippedModel = true;
#endif
constexpr int32_t kMaxLen = 30;

struct Output {
  Status status = Status::kInternal;
  int32_t calls = 0;
  std::vector<std::vector<int32_t>> ids;
  std::vector<std::string> text;
  std::vector<float> score, log_prob;
  std::vector<bool> eos;
  std::vector<std::vector<float>> attention;
  int32_t src_len = 0, src_unknown = 0, steps = 0;
};

Output Capture(Status status, const TranslationResult* r) {
  Output out;
  out.status = status;
  out.calls = 1;
  if (status != Status::kOk || r == nullptr) return out;
  out.src_len = r->src_len;
  out.src_unknown = r->src_unknown;
  out.steps = r->steps;
  for (int32_t n = 0; n < r->num_hypotheses; ++n) {
    const Hypothesis& h = r->hypotheses[n];
    out.ids.emplace_back(h.ids, h.ids + h.length);
    out.text.emplace_back(h.text, h.text_length);
    out.score.push_back(h.score);
    out.log_prob.push_back(h.log_prob);
    out.eos.push_back(h.ended_with_eos);
    out.attention.emplace_back();
    if (h.attention != nullptr) {
      out.attention.back().assign(h.attention, h.attention + h.attention_steps * r->src_len);
    }
  }
  return out;
}

void OnResult(void* user, int32_t index, Status status, const TranslationResult* result,
              const char* detail) {
  auto* outputs = static_cast<std::vector<Output>*>(user);
  ASSERT_GE(index, 0);
  ASSERT_LT(index, static_cast<int32_t>(outputs->size()));
  ASSERT_NE(detail, nullptr);
  const int32_t calls = (*outputs)[index].calls;
  (*outputs)[index] = Capture(status, result);
  (*outputs)[index].calls += calls;
  if (status != Status::kOk) {
    EXPECT_NE(detail[0], '\0') << "a failure says why";
  }
}

struct Session {
  std::unique_ptr<testing::AlignedBuffer> file;
  Model model;
};

std::vector<std::string> Sources() {
  std::ifstream in(std::string(EDGENMT_SOURCE_DIR) + "/data/g2p/test.tsv");
  std::vector<std::string> words;
  std::string line;
  while (words.size() < kWords && std::getline(in, line))
    words.push_back(line.substr(0, line.find('\t')));
  // Bad sources among the good ones, and lengths from 1 character to the limit.
  words.insert(words.begin() + 3, "");
  words.insert(words.begin() + 10, std::string("ab\xff\xfe", 4));
  words.insert(words.begin() + 17, std::string(kMaxSrc + 5, 'a'));
  words.insert(words.begin() + 20, "x");
  words.insert(words.begin() + 19, std::string(kMaxSrc, 'e'));
  return words;
}

class TranslateBatchTest : public ::testing::TestWithParam<std::tuple<std::string, QuantScheme>> {
 protected:
  void SetUp() override {
    const std::string& name = std::get<0>(GetParam());
    if (name == "g2p-en" && !kShippedModel) GTEST_SKIP() << "host only (see kShippedModel)";
    const converter::Checkpoint ckpt = converter::LoadCheckpoint(
        name == "g2p-en" ? std::string(EDGENMT_SOURCE_DIR) + "/models/g2p-en"  // the shipped one
                         : std::string(EDGENMT_TEST_DATA_DIR) + "/golden/" + name);
    const converter::ConvertOptions options =
        testing::CalibratedOptions(std::get<1>(GetParam()), kMaxLen, 50);
    std::vector<uint8_t> bytes;
    converter::ConvertCheckpoint(ckpt, options, &bytes);
    session_.file = std::make_unique<testing::AlignedBuffer>(bytes);
    ASSERT_EQ(session_.model.Load(session_.file->data(), session_.file->size()), Status::kOk);
  }

  // Every source through a translator of max_batch `batch`.
  std::vector<Output> Run(int32_t batch, const TranslateOptions& options, bool one_by_one) {
    SessionLimits limits;
    limits.max_src_len = kMaxSrc;
    limits.max_tgt_len = kMaxLen;
    limits.max_beam = 5;
    limits.max_nbest = 2;
    limits.max_batch = batch;
    limits.attention = session_.model.config().has_attention();
    size_t bytes = 0;
    EXPECT_EQ(RequiredArenaBytes(session_.model, limits, &bytes), Status::kOk);
    testing::AlignedArena arena(bytes);
    Translator translator;
    EXPECT_EQ(translator.Init(&session_.model, arena.data(), bytes, limits), Status::kOk)
        << translator.error_detail();
    EXPECT_EQ(translator.arena_bytes_used(), bytes);
    const std::vector<std::string> words = Sources();
    std::vector<Output> outputs(words.size());
    if (one_by_one) {
      for (size_t i = 0; i < words.size(); ++i) {
        TranslationResult result;
        const Status status =
            translator.Translate(words[i].data(), words[i].size(), options, &result);
        outputs[i] = Capture(status, &result);
      }
      return outputs;
    }
    std::vector<const char*> sources;
    std::vector<size_t> lengths;
    for (const std::string& w : words) {
      sources.push_back(w.data());
      lengths.push_back(w.size());
    }
    EXPECT_EQ(
        translator.TranslateBatch(sources.data(), lengths.data(),
                                  static_cast<int32_t>(words.size()), options, OnResult, &outputs),
        Status::kOk)
        << translator.error_detail();
    return outputs;
  }

  void Compare(const TranslateOptions& options) {
    const bool exact = std::get<1>(GetParam()) != QuantScheme::kFloat32;
    const std::vector<Output> single = Run(1, options, true);
    for (int32_t batch : {1, 2, 7, 32}) {
      SCOPED_TRACE("batch " + std::to_string(batch));
      const std::vector<Output> batched = Run(batch, options, false);
      ASSERT_EQ(batched.size(), single.size());
      int32_t failed = 0;
      for (size_t i = 0; i < single.size(); ++i) {
        SCOPED_TRACE("source " + std::to_string(i));
        const Output& a = single[i];
        const Output& b = batched[i];
        ASSERT_EQ(b.calls, 1) << "one report per source";
        ASSERT_EQ(b.status, a.status);
        failed += a.status != Status::kOk;
        EXPECT_EQ(b.src_len, a.src_len);
        EXPECT_EQ(b.src_unknown, a.src_unknown);
        EXPECT_EQ(b.steps, a.steps);
        ASSERT_EQ(b.ids, a.ids);
        EXPECT_EQ(b.text, a.text);
        EXPECT_EQ(b.eos, a.eos);
        for (size_t n = 0; n < a.score.size(); ++n) {
          if (exact) {
            EXPECT_EQ(memcmp(&a.score[n], &b.score[n], sizeof(float)), 0)
                << a.score[n] << " " << b.score[n];
            EXPECT_EQ(memcmp(&a.log_prob[n], &b.log_prob[n], sizeof(float)), 0);
            EXPECT_EQ(a.attention[n], b.attention[n]);
          } else {
            EXPECT_NEAR(a.score[n], b.score[n], 1e-4f);
            EXPECT_NEAR(a.log_prob[n], b.log_prob[n], 1e-4f);
            ASSERT_EQ(a.attention[n].size(), b.attention[n].size());
            for (size_t k = 0; k < a.attention[n].size(); ++k) {
              EXPECT_NEAR(a.attention[n][k], b.attention[n][k], 1e-4f);
            }
          }
        }
      }
      EXPECT_EQ(failed, 3) << "the three bad sources fail, and only they";
    }
  }

  Session session_;
};

TEST_P(TranslateBatchTest, GreedyEqualsOneAtATime) {
  TranslateOptions options;
  options.max_len = kMaxLen;
  options.return_attention = session_.model.config().has_attention();
  Compare(options);
}

TEST_P(TranslateBatchTest, BeamEqualsOneAtATime) {
  TranslateOptions options;
  options.beam = 5;
  options.nbest = 2;
  options.max_len = kMaxLen;
  options.min_len = 2;
  options.alpha = 0.6f;
  options.beta = session_.model.config().has_attention() ? 0.2f : 0.0f;
  options.return_attention = session_.model.config().has_attention();
  Compare(options);
}

std::string TestName(const ::testing::TestParamInfo<std::tuple<std::string, QuantScheme>>& info) {
  const QuantScheme scheme = std::get<1>(info.param);
  std::string name = std::get<0>(info.param);
  if (name == "g2p-en") name = "g2p_en";
  return name + (scheme == QuantScheme::kFloat32      ? "_f32"
                 : scheme == QuantScheme::kInt8Hybrid ? "_int8"
                                                      : "_int8_full");
}

INSTANTIATE_TEST_SUITE_P(
    Golden, TranslateBatchTest,
    ::testing::Combine(
        ::testing::Values("none", "global_dot", "global_general", "global_concat",
                          "global_location", "local_m_dot", "local_m_general", "local_p_dot",
                          "local_p_concat", "local_p_location", "bahdanau", "g2p-en"),
        ::testing::Values(QuantScheme::kFloat32, QuantScheme::kInt8Hybrid, QuantScheme::kInt8Full)),
    TestName);

// The Transformer's caches per slot and beam index, in every scheme.
INSTANTIATE_TEST_SUITE_P(
    Transformer, TranslateBatchTest,
    ::testing::Combine(::testing::Values("transformer_pre", "transformer_post"),
                       ::testing::Values(QuantScheme::kFloat32, QuantScheme::kInt8Hybrid,
                                         QuantScheme::kInt8Full)),
    TestName);

TEST(TranslateBatchErrors, BadArgumentsAndLimits) {
  auto loaded =
      testing::LoadCheckpointDir(std::string(EDGENMT_TEST_DATA_DIR) + "/golden/global_dot");
  ASSERT_NE(loaded, nullptr);
  SessionLimits limits;
  limits.max_batch = 0;
  size_t bytes = 0;
  EXPECT_EQ(RequiredArenaBytes(loaded->model, limits, &bytes), Status::kInvalidArgument);
  limits.max_batch = kMaxBatch + 1;
  EXPECT_EQ(RequiredArenaBytes(loaded->model, limits, &bytes), Status::kLimitExceeded);
  limits.max_batch = 4;
  ASSERT_EQ(RequiredArenaBytes(loaded->model, limits, &bytes), Status::kOk);
  size_t one = 0;
  limits.max_batch = 1;
  ASSERT_EQ(RequiredArenaBytes(loaded->model, limits, &one), Status::kOk);
  EXPECT_GT(bytes, one);
  limits.max_batch = 4;
  testing::AlignedArena arena(bytes);
  Translator translator;
  ASSERT_EQ(translator.Init(&loaded->model, arena.data(), bytes - 16, limits),
            Status::kArenaTooSmall);
  ASSERT_EQ(translator.Init(&loaded->model, arena.data(), bytes, limits), Status::kOk);
  TranslateOptions options;
  options.max_len = 10;
  const char* sources[] = {"abc"};
  const size_t lengths[] = {3};
  std::vector<Output> outputs(1);
  EXPECT_EQ(translator.TranslateBatch(sources, lengths, -1, options, OnResult, &outputs),
            Status::kInvalidArgument);
  EXPECT_EQ(translator.TranslateBatch(nullptr, lengths, 1, options, OnResult, &outputs),
            Status::kInvalidArgument);
  EXPECT_EQ(translator.TranslateBatch(sources, lengths, 1, options, nullptr, nullptr),
            Status::kInvalidArgument);
  options.beam = 2;  // beyond max_beam 1: nothing runs
  EXPECT_EQ(translator.TranslateBatch(sources, lengths, 1, options, OnResult, &outputs),
            Status::kLimitExceeded);
  EXPECT_EQ(outputs[0].calls, 0);
  options.beam = 1;
  EXPECT_EQ(translator.TranslateBatch(sources, lengths, 0, options, OnResult, &outputs),
            Status::kOk);
  EXPECT_EQ(translator.TranslateBatch(sources, lengths, 1, options, OnResult, &outputs),
            Status::kOk);
  EXPECT_EQ(outputs[0].calls, 1);
  EXPECT_EQ(outputs[0].status, Status::kOk);
}

}  // namespace
}  // namespace edgenmt
