// Golden tests: the float32 runtime against the PyTorch reference (converter/reference) on every
// model in tests/data/golden/ (format: tests/data/golden/README.md). Each checkpoint is
// converted in memory with the converter library, then
//  - teacher-forced per-step log-probs (every word: the reference token's log-prob and the
//    argmax; "full" words: all V log-probs and the attention rows) within 1e-4,
//  - greedy and beam n-best: identical ids and end kind, log-prob and score within 1e-4.
#include <math.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "decoder/step_decoder.h"
#include "edgenmt/internal/arena.h"
#include "edgenmt/translator.h"
#include "kernels/kernel_table.h"
#include "runtime_test_util.h"

namespace edgenmt {
namespace {

using nlohmann::json;
constexpr double kTolerance = 1e-4;

std::vector<std::string> GoldenModels() {
  std::vector<std::string> names;
  const std::filesystem::path root = std::filesystem::path(EDGENMT_TEST_DATA_DIR) / "golden";
  if (!std::filesystem::exists(root)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    if (entry.is_directory() && std::filesystem::exists(entry.path() / "golden.json")) {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

json ReadJson(const std::filesystem::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

class GoldenTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const std::filesystem::path dir =
        std::filesystem::path(EDGENMT_TEST_DATA_DIR) / "golden" / GetParam();
    golden_ = ReadJson(dir / "golden.json");
    ASSERT_EQ(golden_["format"], "edgenmt-golden-1");
    // The checkpoint is named relative to the repository root (may be models/<name>).
    std::filesystem::path checkpoint = golden_.value("checkpoint", dir.string());
    if (checkpoint.is_relative())
      checkpoint = std::filesystem::path(EDGENMT_SOURCE_DIR) / checkpoint;
    loaded_ = testing::LoadCheckpointDir(checkpoint.string());
    ASSERT_NE(loaded_, nullptr);
  }

  json golden_;
  std::unique_ptr<testing::LoadedModel> loaded_;
};

TEST_P(GoldenTest, TeacherForcedLogProbsAndAttention) {
  const Model& model = loaded_->model;
  const KernelTable* k = nullptr;
  ASSERT_EQ(GetKernelTable(KernelBackend::kReference, &k), Status::kOk);
  const int32_t max_src = model.config().max_src_len;
  Arena measuring;
  OwnedErrorDetail detail;
  {
    StepDecoder probe;
    ASSERT_EQ(probe.Prepare(model, k, max_src, 1, &measuring, &detail), Status::kOk)
        << detail.c_str();
  }
  testing::AlignedArena memory(measuring.used());
  Arena arena(memory.data(), memory.size());
  StepDecoder decoder;
  ASSERT_EQ(decoder.Prepare(model, k, max_src, 1, &arena, &detail), Status::kOk) << detail.c_str();
  ASSERT_FALSE(arena.overflowed());
  ASSERT_EQ(arena.used(), measuring.used());

  const int32_t V = model.config().tgt_vocab_size;
  int32_t checked_words = 0, full_words = 0;
  double worst = 0.0;
  for (const json& word : golden_["words"]) {
    const std::vector<int32_t> src = word["src"];
    const std::vector<int32_t> tgt = word["tgt"];
    const json& tf = word["teacher_forced"];
    const std::vector<double> ref_logprob = tf["ref_logprob"];
    const std::vector<int32_t> argmax = tf["argmax"];
    ASSERT_EQ(ref_logprob.size(), tgt.size() + 1);
    const int32_t S = static_cast<int32_t>(src.size());
    decoder.Encode(src.data(), S);
    const bool full = tf.contains("logprobs");
    for (size_t t = 0; t <= tgt.size(); ++t) {
      const int32_t prev = t == 0 ? model.tgt_vocab().bos_id : tgt[t - 1];
      decoder.Step(&prev, 1);
      const float* lp = decoder.log_probs();
      const int32_t gold = t < tgt.size() ? tgt[t] : model.tgt_vocab().eos_id;
      const double diff = fabs(lp[gold] - ref_logprob[t]);
      worst = diff > worst ? diff : worst;
      ASSERT_LE(diff, kTolerance) << "word " << word["word"] << " step " << t;
      int32_t best = 0;
      for (int32_t v = 1; v < V; ++v) best = lp[v] > lp[best] ? v : best;
      // A near-tie may legitimately flip under float rounding; the margin says when.
      const bool clear_argmax =
          !tf.contains("argmax_margin") || tf["argmax_margin"][t].get<double>() > kTolerance;
      if (clear_argmax) {
        EXPECT_EQ(best, argmax[t]) << "word " << word["word"] << " step " << t;
      }
      if (full) {
        const std::vector<double> row = tf["logprobs"][t];
        ASSERT_EQ(static_cast<int32_t>(row.size()), V);
        for (int32_t v = 0; v < V; ++v) {
          ASSERT_NEAR(lp[v], row[v], kTolerance)
              << "word " << word["word"] << " step " << t << " token " << v;
        }
        if (tf.contains("attention")) {
          const std::vector<double> a_ref = tf["attention"][t];
          ASSERT_EQ(static_cast<int32_t>(a_ref.size()), S);
          const float* a = decoder.attention();
          ASSERT_NE(a, nullptr);
          for (int32_t s = 0; s < S; ++s) {
            ASSERT_NEAR(a[s], a_ref[s], kTolerance)
                << "word " << word["word"] << " step " << t << " position " << s;
          }
        } else {
          EXPECT_EQ(decoder.attention(), nullptr);
        }
      }
    }
    ++checked_words;
    full_words += full ? 1 : 0;
  }
  EXPECT_GT(checked_words, 0);
  RecordProperty("worst_logprob_diff", std::to_string(worst));
}

TEST_P(GoldenTest, GreedyAndBeamSearch) {
  const Model& model = loaded_->model;
  SessionLimits limits;
  limits.max_src_len = model.config().max_src_len;
  limits.max_beam = 1;
  limits.max_nbest = 1;
  limits.max_tgt_len = 1;
  for (const json& search : golden_["searches"]) {
    const json& o = search["options"];
    limits.max_beam = std::max<int32_t>(limits.max_beam, o["beam"]);
    limits.max_nbest = std::max<int32_t>(limits.max_nbest, o["nbest"]);
    limits.max_tgt_len = std::max<int32_t>(limits.max_tgt_len, o["max_len"]);
  }
  limits.attention = model.config().rnn.attention != AttentionType::kNone;
  size_t bytes = 0;
  ASSERT_EQ(RequiredArenaBytes(model, limits, &bytes), Status::kOk);
  testing::AlignedArena memory(bytes);
  Translator translator;
  ASSERT_EQ(translator.Init(&model, memory.data(), memory.size(), limits), Status::kOk)
      << translator.error_detail();
  EXPECT_EQ(translator.arena_bytes_used(), bytes);

  int32_t hypotheses = 0, tolerated_near_ties = 0;
  for (const json& search : golden_["searches"]) {
    const std::string name = search["name"];
    const json& o = search["options"];
    TranslateOptions options;
    options.beam = o["beam"];
    options.nbest = o["nbest"];
    options.alpha = o["alpha"];
    options.beta = o["beta"];
    options.min_len = o["min_len"];
    options.max_len = o["max_len"];
    options.max_len_ratio = o["max_len_ratio"];
    for (const json& word : golden_["words"]) {
      const std::vector<int32_t> src = word["src"];
      const json& record = word["search"][name];
      const json& expected = record.is_object() ? record["hyps"] : record;
      TranslationResult result;
      ASSERT_EQ(
          translator.TranslateIds(src.data(), static_cast<int32_t>(src.size()), options, &result),
          Status::kOk)
          << translator.error_detail();
      // A search decision closer than the tolerance may flip under float rounding: a
      // different result is tolerated only where the reference recorded such a near-tie.
      const bool near_tie = record.is_object() && record.contains("margin") &&
                            !record["margin"].is_null() &&
                            record["margin"].get<double>() <= 2 * kTolerance;
      bool same_ids = result.num_hypotheses == static_cast<int32_t>(expected.size());
      for (int32_t n = 0; same_ids && n < result.num_hypotheses; ++n) {
        const std::vector<int32_t> ids = expected[n]["ids"];
        same_ids =
            std::vector<int32_t>(result.hypotheses[n].ids,
                                 result.hypotheses[n].ids + result.hypotheses[n].length) == ids;
      }
      if (!same_ids && near_tie) {
        ++tolerated_near_ties;
        continue;
      }
      ASSERT_EQ(result.num_hypotheses, static_cast<int32_t>(expected.size()))
          << name << " word " << word["word"];
      for (int32_t n = 0; n < result.num_hypotheses; ++n) {
        const Hypothesis& h = result.hypotheses[n];
        const json& e = expected[n];
        const std::vector<int32_t> ids = e["ids"];
        const std::vector<int32_t> got(h.ids, h.ids + h.length);
        ASSERT_EQ(got, ids) << name << " word " << word["word"] << " hypothesis " << n;
        EXPECT_EQ(h.ended_with_eos, e["ended"].get<bool>()) << name << " word " << word["word"];
        EXPECT_NEAR(h.log_prob, e["logprob"].get<double>(), kTolerance)
            << name << " word " << word["word"] << " hypothesis " << n;
        EXPECT_NEAR(h.score, e["score"].get<double>(), kTolerance)
            << name << " word " << word["word"] << " hypothesis " << n;
        ++hypotheses;
      }
    }
  }
  EXPECT_GT(hypotheses, 0);
  EXPECT_LE(tolerated_near_ties, 2) << "differences at near-ties should be rare";
  RecordProperty("tolerated_near_ties", std::to_string(tolerated_near_ties));
}

INSTANTIATE_TEST_SUITE_P(AllModels, GoldenTest, ::testing::ValuesIn(GoldenModels()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             c = isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GoldenTest);

}  // namespace
}  // namespace edgenmt
