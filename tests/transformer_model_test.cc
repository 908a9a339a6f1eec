// The Transformer model type end to end, beyond the golden comparisons (golden_f32_test,
// translate_batch_test): the loader's checks on a Transformer file (config, decoding limit,
// tensors), the session's limits (target positions), the exact arena, int8-full (conversion,
// decoding, the loader's format checks), and the has_attention() / alignments path.
#include <math.h>
#include <string.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "checkpoint.h"
#include "convert.h"
#include "convert_error.h"
#include "edgenmt/internal/tensor_layout.h"
#include "edgenmt/translator.h"
#include "model_writer.h"
#include "quantize.h"
#include "runtime_test_util.h"

namespace edgenmt {
namespace {

using converter::ModelFileContents;

const converter::Checkpoint& TransformerCheckpoint() {
  static const converter::Checkpoint checkpoint =
      converter::LoadCheckpoint(std::string(EDGENMT_TEST_DATA_DIR) + "/golden/transformer_pre");
  return checkpoint;
}

struct Loaded {
  std::unique_ptr<testing::AlignedBuffer> buffer;
  Model model;
  Status status;
};

std::unique_ptr<Loaded> Build(const std::function<void(ModelFileContents&)>& mutate,
                              QuantScheme scheme = QuantScheme::kFloat32) {
  converter::ConvertOptions options;
  options.scheme = scheme;
  options.created = "2026-01-01";
  ModelFileContents contents = converter::MakeModelFileContents(TransformerCheckpoint(), options);
  mutate(contents);
  auto loaded = std::make_unique<Loaded>();
  loaded->buffer = std::make_unique<testing::AlignedBuffer>(converter::BuildModelFile(contents));
  loaded->status = loaded->model.Load(loaded->buffer->data(), loaded->buffer->size());
  return loaded;
}

TEST(TransformerModel, LoadsWithItsConfig) {
  auto loaded = Build([](ModelFileContents&) {});
  ASSERT_EQ(loaded->status, Status::kOk) << loaded->model.error_detail();
  const ModelConfig& c = loaded->model.config();
  EXPECT_EQ(c.model_type, ModelType::kTransformer);
  EXPECT_EQ(c.transformer.d_model, 16);
  EXPECT_EQ(c.transformer.heads, 2);
  EXPECT_EQ(c.transformer.ffn, 24);
  EXPECT_EQ(c.transformer.max_tgt_len, 32);
  EXPECT_EQ(c.transformer.norm, NormPlacement::kPre);
  EXPECT_EQ(c.transformer.positions, PositionEncoding::kSinusoidal);
  EXPECT_TRUE(c.transformer.tie_output);
  EXPECT_TRUE(c.has_attention());
  EXPECT_LE(loaded->model.decoding_defaults().max_len, 32);
}

TEST(TransformerModel, RejectsBadConfigsAndMissingTensors) {
  struct Case {
    const char* what;
    std::function<void(ModelFileContents&)> mutate;
    Status status;
    const char* detail;
  };
  const Case cases[] = {
      {"heads not dividing d_model", [](ModelFileContents& c) { c.config.transformer.heads = 3; },
       Status::kModelConfigInvalid, "multiple of heads"},
      {"no target positions", [](ModelFileContents& c) { c.config.transformer.max_tgt_len = 0; },
       Status::kModelConfigInvalid, "max_tgt_len"},
      {"unknown activation",
       [](ModelFileContents& c) {
         c.config.transformer.activation = static_cast<FeedForwardActivation>(7);
       },
       Status::kModelConfigInvalid, "activation"},
      {"decoding longer than the positions", [](ModelFileContents& c) { c.decoding.max_len = 33; },
       Status::kModelConfigInvalid, "decoding.max_len"},
      {"a missing layer norm",
       [](ModelFileContents& c) {
         for (size_t i = 0; i < c.tensors.size(); ++i) {
           if (c.tensors[i].name == "decoder.1.norm3.weight")
             c.tensors.erase(c.tensors.begin() + i);
         }
       },
       Status::kModelTensorMissing, "decoder.1.norm3.weight"},
  };
  for (const Case& test : cases) {
    auto loaded = Build(test.mutate);
    EXPECT_EQ(loaded->status, test.status) << test.what << ": " << loaded->model.error_detail();
    EXPECT_NE(std::string(loaded->model.error_detail()).find(test.detail), std::string::npos)
        << test.what << ": " << loaded->model.error_detail();
  }
}

TEST(TransformerModel, SessionLimitsAndExactArena) {
  auto loaded = Build([](ModelFileContents&) {});
  ASSERT_EQ(loaded->status, Status::kOk);
  SessionLimits limits;
  limits.max_beam = 4;
  limits.max_nbest = 2;
  limits.max_tgt_len = 33;  // one past the model's target positions
  size_t bytes = 0;
  EXPECT_EQ(RequiredArenaBytes(loaded->model, limits, &bytes), Status::kLimitExceeded);
  limits.max_tgt_len = 20;
  limits.attention = true;
  ASSERT_EQ(RequiredArenaBytes(loaded->model, limits, &bytes), Status::kOk);
  testing::AlignedArena arena(bytes);
  Translator translator;
  EXPECT_EQ(translator.Init(&loaded->model, arena.data(), bytes - 16, limits),
            Status::kArenaTooSmall);
  ASSERT_EQ(translator.Init(&loaded->model, arena.data(), bytes, limits), Status::kOk)
      << translator.error_detail();
  EXPECT_EQ(translator.arena_bytes_used(), bytes);
  TranslateOptions options;
  options.beam = 4;
  options.nbest = 2;
  options.max_len = 20;
  options.return_attention = true;
  TranslationResult result;
  ASSERT_EQ(translator.Translate("hello", 5, options, &result), Status::kOk)
      << translator.error_detail();
  ASSERT_GE(result.num_hypotheses, 1);
  const Hypothesis& best = result.hypotheses[0];
  ASSERT_NE(best.attention, nullptr);
  // Cross-attention rows are softmax averages over heads: each sums to 1 over the source.
  for (int32_t t = 0; t < best.attention_steps; ++t) {
    float sum = 0.0f;
    for (int32_t s = 0; s < 5; ++s) sum += best.attention[t * 5 + s];
    EXPECT_NEAR(sum, 1.0f, 1e-5f) << "step " << t;
  }
  options.max_len = 21;  // beyond the session
  EXPECT_EQ(translator.Translate("hello", 5, options, &result), Status::kLimitExceeded);
  // A source longer than max_src_len is refused, not truncated.
  const std::string long_word(40, 'a');
  options.max_len = 20;
  EXPECT_NE(translator.Translate(long_word.c_str(), long_word.size(), options, &result),
            Status::kOk);
}

TEST(TransformerModel, Int8FullConvertsAndTranslates) {
  const converter::ConvertOptions options =
      testing::CalibratedOptions(QuantScheme::kInt8Full, 20, 50);
  std::vector<uint8_t> bytes;
  converter::ConvertCheckpoint(TransformerCheckpoint(), options, &bytes);
  testing::AlignedBuffer buffer(bytes);
  Model model;
  ASSERT_EQ(model.Load(buffer.data(), buffer.size()), Status::kOk) << model.error_detail();
  int32_t bits = 99;
  EXPECT_EQ(model.FindActivationFormat("decoder.residual", &bits), Status::kOk);
  EXPECT_GE(bits, 0);
  EXPECT_LE(bits, 10);
  EXPECT_EQ(model.FindActivationFormat("encoder.0.self_attn.q", &bits), Status::kOk);
  SessionLimits limits;
  limits.max_tgt_len = 20;
  limits.max_beam = 3;
  limits.max_nbest = 3;
  limits.attention = true;
  size_t need = 0;
  ASSERT_EQ(RequiredArenaBytes(model, limits, &need), Status::kOk);
  testing::AlignedArena arena(need);
  Translator translator;
  ASSERT_EQ(translator.Init(&model, arena.data(), need, limits), Status::kOk)
      << translator.error_detail();
  for (int32_t beam : {1, 3}) {
    TranslateOptions o;
    o.beam = beam;
    o.max_len = 20;
    o.return_attention = true;
    TranslationResult result;
    ASSERT_EQ(translator.Translate("hello", 5, o, &result), Status::kOk)
        << translator.error_detail();
    const Hypothesis& best = result.hypotheses[0];
    EXPECT_TRUE(best.score <= 0.0f) << best.score;
    ASSERT_NE(best.attention, nullptr);
    // Each row: Q0.15 softmax weights averaged over heads, summing to 1 within rounding.
    for (int32_t t = 0; t < best.attention_steps; ++t) {
      float sum = 0.0f;
      for (int32_t s = 0; s < 5; ++s) sum += best.attention[t * 5 + s];
      EXPECT_NEAR(sum, 1.0f, 2e-3f) << "beam " << beam << " step " << t;
    }
  }
}

TEST(TransformerModel, Int8FullFileChecks) {
  // A hybrid file relabelled int8-full (float norms, no requantization constants): it loads
  // (well formed) but no session starts.
  auto hybrid_norms = Build(
      [](ModelFileContents& c) {
        c.config.scheme = QuantScheme::kInt8Full;
        ForEachExpectedActivation(c.config, [&](const ExpectedTensor& a) {
          c.activations.push_back(converter::ActivationFormatRecord{a.name, 3});
          return true;
        });
      },
      QuantScheme::kInt8Hybrid);
  if (hybrid_norms->status == Status::kOk) {
    size_t bytes = 0;
    SessionLimits limits;
    char why[160] = "";
    EXPECT_NE(RequiredArenaBytes(hybrid_norms->model, limits, &bytes, why, sizeof why),
              Status::kOk);
  }
  // A missing format and one out of range are refused at Load.
  auto missing =
      Build([](ModelFileContents& c) { c.activations.pop_back(); }, QuantScheme::kInt8Full);
  EXPECT_EQ(missing->status, Status::kModelTensorMissing) << missing->model.error_detail();
  auto wide =
      Build([](ModelFileContents& c) { c.activations[0].int_bits = 11; }, QuantScheme::kInt8Full);
  EXPECT_EQ(wide->status, Status::kModelTensorInvalid) << wide->model.error_detail();
  auto narrow =
      Build([](ModelFileContents& c) { c.activations[1].int_bits = -9; }, QuantScheme::kInt8Full);
  EXPECT_EQ(narrow->status, Status::kModelTensorInvalid) << narrow->model.error_detail();
}

// max |embedding[t][i] * sqrt(d_model) + position[p][i]| over every token and position.
double EmbeddingBound(const char* embedding, const char* positions) {
  const converter::TensorMap& t = TransformerCheckpoint().tensors;
  const converter::FloatTensor& e = t.at(embedding);
  const converter::FloatTensor& p = t.at(positions);
  const int64_t d = e.shape[1];
  const double scale = sqrt(static_cast<double>(d));  // d_model
  double bound = 0;
  for (int64_t r = 0; r < e.shape[0]; ++r) {
    for (int64_t q = 0; q < p.shape[0]; ++q) {
      for (int64_t i = 0; i < d; ++i) {
        bound = std::max(bound, fabs(e.data[r * d + i] * scale + p.data[q * d + i]));
      }
    }
  }
  return bound;
}

// Calibration observes the residual stream's sums before they saturate: run with a stream
// format two bits narrower than the one calibration picks, it still sees values beyond that
// format's range (observing the saturated stream, it grew one bit per round). The last round's
// int8 choice by error stays among its candidates (3 bits narrower to 1 wider).
TEST(TransformerModel, CalibrationSeesTheStreamBeyondItsFormat) {
  const std::vector<std::string> sources =
      converter::ReadCalibrationSources(std::string(EDGENMT_SOURCE_DIR) + "/data/g2p/dev.tsv", 40);
  auto calibrate = [&](int stream_bits, converter::Int8RangeChoice choice,
                       std::vector<int>* formats_run) {
    auto loaded = Build(
        [&](ModelFileContents& c) {
          for (converter::ActivationFormatRecord& a : c.activations) {
            if (a.name == "encoder.residual" || a.name == "decoder.residual")
              a.int_bits = stream_bits;
            formats_run->push_back(a.int_bits);
          }
        },
        QuantScheme::kInt8Full);
    EXPECT_EQ(loaded->status, Status::kOk) << loaded->model.error_detail();
    int64_t run = 0;
    return converter::CalibrateActivationFormats(loaded->model, sources, 20, &run, nullptr, choice);
  };
  std::vector<int> wide_formats, narrow_formats;
  const auto wide = calibrate(kMaxTransformerIntBits, converter::Int8RangeChoice::kMaxWithHeadroom,
                              &wide_formats);
  ASSERT_FALSE(wide.empty());
  for (size_t i = 0; i < wide.size(); ++i) {
    if (wide[i].int8) continue;
    const int narrow_bits = wide[i].int_bits - 2;
    ASSERT_GE(narrow_bits, 0) << wide[i].name << " max " << wide[i].abs_max;
    narrow_formats.clear();
    const auto narrow =
        calibrate(narrow_bits, converter::Int8RangeChoice::kLeastSquaredError, &narrow_formats);
    // What the embedding alone can reach (observed before it is narrowed, fixed or not):
    // beyond it, the observation comes from a sublayer's sum.
    const bool encoder = wide[i].name == "encoder.residual";
    const double embedded = EmbeddingBound(encoder ? "src_embed.weight" : "tgt_embed.weight",
                                           encoder ? "src_pos" : "tgt_pos");
    EXPECT_GT(narrow[i].abs_max, std::max(embedded, ldexp(1.0, narrow_bits)) + 0.05)
        << narrow[i].name << " run at Q" << narrow_bits << "." << 15 - narrow_bits
        << ", embedding up to " << embedded;
    EXPECT_GT(narrow[i].int_bits, narrow_bits) << narrow[i].name;
    for (size_t j = 0; j < narrow.size(); ++j) {
      if (!narrow[j].int8) continue;
      EXPECT_GE(narrow[j].int_bits, narrow_formats[j] - 3) << narrow[j].name;
      EXPECT_LE(narrow[j].int_bits, narrow_formats[j] + 1) << narrow[j].name;
    }
  }
}

}  // namespace
}  // namespace edgenmt
