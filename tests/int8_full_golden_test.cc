// int8-full against float32 on every small golden model (each attention type and score,
// concat and bahdanau included, and both Transformers): both converted by the converter (int8-full
// calibrated on the dev split), the float32 model's greedy outputs for the first test words are
// scored teacher-forced by both, and the per-step log-prob error stays within the bounds below (the
// measured errors are a mean of 0.004-0.012 and a max below 0.15 per model on 300 words); where
// both give the same output, their attention weights agree too (these random-weight models'
// log-probs depend little on where they attend, so the weights check the scores themselves).
// Short inputs keep it fast enough for the ASan + UBSan run, which so exercises every int8-full
// path.
#include <gtest/gtest.h>
#include <math.h>
#include <stdio.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/translator.h"
#include "runtime_test_util.h"

namespace edgenmt {
namespace {

constexpr int kWords = 100;
constexpr double kMaxMeanError = 0.02;
constexpr double kMaxStepError = 0.25;
constexpr double kMaxAttentionError =
    0.0015;  // measured <= 0.0008; flat additive scores give >= 0.002

struct Session {
  std::unique_ptr<testing::AlignedBuffer> file;
  Model model;
  std::unique_ptr<testing::AlignedArena> arena;
  Translator translator;
};

// Output tokens: 40, or fewer than a Transformer's positions (scoring also reads </s>'s step).
int32_t MaxLen(const converter::Checkpoint& ckpt) {
  const bool transformer = ckpt.config.model_type == ModelType::kTransformer;
  const int32_t positions = ckpt.config.transformer.max_tgt_len;
  return transformer && positions <= 40 ? positions - 1 : 40;
}

void Open(const converter::Checkpoint& ckpt, QuantScheme scheme, Session* s) {
  const converter::ConvertOptions options = testing::CalibratedOptions(scheme, MaxLen(ckpt), 200);
  std::vector<uint8_t> bytes;
  converter::ConvertCheckpoint(ckpt, options, &bytes);
  s->file = std::make_unique<testing::AlignedBuffer>(bytes);
  ASSERT_EQ(s->model.Load(s->file->data(), s->file->size()), Status::kOk)
      << s->model.error_detail();
  SessionLimits limits;
  limits.max_tgt_len = MaxLen(ckpt) + 1;
  limits.attention = s->model.config().rnn.attention != AttentionType::kNone;
  size_t need = 0;
  ASSERT_EQ(RequiredArenaBytes(s->model, limits, &need), Status::kOk);
  s->arena = std::make_unique<testing::AlignedArena>(need);
  ASSERT_EQ(s->translator.Init(&s->model, s->arena->data(), need, limits), Status::kOk)
      << s->translator.error_detail();
}

std::vector<std::string> TestWords() {
  std::ifstream in(std::string(EDGENMT_SOURCE_DIR) + "/data/g2p/test.tsv");
  std::vector<std::string> words;
  std::string line;
  while (static_cast<int>(words.size()) < kWords && std::getline(in, line)) {
    words.push_back(line.substr(0, line.find('\t')));
  }
  return words;
}

class Int8FullGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(Int8FullGoldenTest, TeacherForcedLogProbsStayCloseToFloat32) {
  const converter::Checkpoint ckpt =
      converter::LoadCheckpoint(std::string(EDGENMT_TEST_DATA_DIR) + "/golden/" + GetParam());
  Session f32, full;
  ASSERT_NO_FATAL_FAILURE(Open(ckpt, QuantScheme::kFloat32, &f32));
  ASSERT_NO_FATAL_FAILURE(Open(ckpt, QuantScheme::kInt8Full, &full));
  TranslateOptions greedy;
  greedy.max_len = MaxLen(ckpt);
  const bool attention = f32.model.config().rnn.attention != AttentionType::kNone;
  TranslateOptions with_attention = greedy;
  with_attention.return_attention = attention;
  double sum = 0, worst = 0, attention_sum = 0;
  int64_t steps = 0, attention_values = 0;
  std::vector<float> reference(42), quantized(42);
  for (const std::string& word : TestWords()) {
    TranslationResult result;
    ASSERT_EQ(f32.translator.Translate(word.data(), word.size(), greedy, &result), Status::kOk);
    const Hypothesis& best = result.hypotheses[0];
    const std::vector<int32_t> src(result.src_ids, result.src_ids + result.src_len);
    const std::vector<int32_t> tgt(best.ids, best.ids + best.length);
    ASSERT_EQ(f32.translator.ScoreIds(src.data(), static_cast<int32_t>(src.size()), tgt.data(),
                                      best.length, reference.data()),
              Status::kOk);
    ASSERT_EQ(full.translator.ScoreIds(src.data(), static_cast<int32_t>(src.size()), tgt.data(),
                                       best.length, quantized.data()),
              Status::kOk)
        << full.translator.error_detail();
    for (int32_t t = 0; t <= best.length; ++t) {
      const double error = fabs(static_cast<double>(reference[t]) - quantized[t]);
      sum += error;
      worst = error > worst ? error : worst;
      ++steps;
    }
    if (!attention) continue;
    // The attention weights where both produce the same output: the scores' own check (the
    // log-probs of these random-weight models depend little on where they attend).
    TranslationResult a, b;
    ASSERT_EQ(f32.translator.Translate(word.data(), word.size(), with_attention, &a), Status::kOk);
    ASSERT_EQ(full.translator.Translate(word.data(), word.size(), with_attention, &b), Status::kOk);
    const Hypothesis& ha = a.hypotheses[0];
    const Hypothesis& hb = b.hypotheses[0];
    if (ha.length != hb.length || !std::equal(ha.ids, ha.ids + ha.length, hb.ids)) continue;
    ASSERT_EQ(ha.attention_steps, hb.attention_steps);
    for (int32_t k = 0; k < ha.attention_steps * a.src_len; ++k) {
      attention_sum += fabs(static_cast<double>(ha.attention[k]) - hb.attention[k]);
      ++attention_values;
    }
  }
  ASSERT_GT(steps, 0);
  EXPECT_LE(sum / static_cast<double>(steps), kMaxMeanError) << steps << " steps";
  EXPECT_LE(worst, kMaxStepError);
  if (attention) {
    ASSERT_GT(attention_values, 0);
    const double mean = attention_sum / static_cast<double>(attention_values);
    printf("%s: log-prob error mean %.5f max %.5f, attention weight error mean %.5f\n",
           GetParam().c_str(), sum / static_cast<double>(steps), worst, mean);
    EXPECT_LE(mean, kMaxAttentionError);
  }
}

std::vector<std::string> GoldenModels() {
  std::vector<std::string> names;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(EDGENMT_TEST_DATA_DIR) + "/golden")) {
    if (std::filesystem::exists(entry.path() / "model.safetensors")) {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllModels, Int8FullGoldenTest, ::testing::ValuesIn(GoldenModels()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Int8FullGoldenTest);

}  // namespace
}  // namespace edgenmt
