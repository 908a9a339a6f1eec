// Model::Load refuses what the kernels cannot compute exactly (docs/INT8.md "Bounds"), tested
// at the edge: the largest accepted value loads (and translates), the smallest refused one is
// refused with the tensor or field named. Also: float tensors holding NaN or infinity.
#include <gtest/gtest.h>
#include <math.h>
#include <string.h>

#include <string>
#include <vector>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/internal/fixed_point.h"
#include "edgenmt/translator.h"
#include "model_writer.h"
#include "runtime_test_util.h"
#include "tiny_checkpoint.h"

namespace edgenmt {
namespace {

using converter::ModelFileContents;

// Small everywhere except the dimension under test.
ModelConfig Narrow() {
  ModelConfig c = testing::TinyConfig();
  c.src_vocab_size = 6;
  c.tgt_vocab_size = 6;
  c.rnn.enc_hidden = 2;
  c.rnn.bidirectional = false;
  c.dec_layers = 1;
  c.rnn.dec_hidden = 2;
  c.max_src_len = 8;
  return c;
}

ModelFileContents Contents(const ModelConfig& config, QuantScheme scheme) {
  converter::Checkpoint ckpt;
  ckpt.dir = "(in memory)";
  ckpt.config = config;
  ckpt.src_tokens = testing::TinyTokens(config.src_vocab_size);
  ckpt.tgt_tokens = testing::TinyTokens(config.tgt_vocab_size);
  ckpt.tensors = testing::TinyTensors(config);
  converter::ConvertOptions options;
  options.scheme = scheme;
  options.decoding.max_len = 4;
  options.created = "2024-01-01";
  return converter::MakeModelFileContents(ckpt, options);
}

struct Loaded {
  std::unique_ptr<testing::AlignedBuffer> buffer;
  Model model;
  Status status = Status::kOk;
};

void LoadInto(const ModelFileContents& contents, Loaded* out) {
  out->buffer = std::make_unique<testing::AlignedBuffer>(converter::BuildModelFile(contents));
  out->status = out->model.Load(out->buffer->data(), out->buffer->size());
}

void ExpectTranslates(const Model& model) {
  SessionLimits limits;
  limits.max_tgt_len = 4;
  size_t bytes = 0;
  ASSERT_EQ(RequiredArenaBytes(model, limits, &bytes), Status::kOk);
  testing::AlignedArena arena(bytes);
  Translator translator;
  ASSERT_EQ(translator.Init(&model, arena.data(), bytes, limits), Status::kOk)
      << translator.error_detail();
  TranslateOptions options;
  options.max_len = 4;
  TranslationResult result;
  EXPECT_EQ(translator.Translate("ab", 2, options, &result), Status::kOk)
      << translator.error_detail();
}

// Encoder layer 0's W_ih has src_embed columns: one int8 dot product per gate row.
TEST(ModelBounds, Int8MatricesUpToTheAccumulationBoundLoadOneMoreColumnIsRefused) {
  for (QuantScheme scheme : {QuantScheme::kInt8Hybrid, QuantScheme::kInt8Full}) {
    SCOPED_TRACE(static_cast<int>(scheme));
    ModelConfig config = Narrow();
    config.rnn.src_embed = fxp::kMaxS8DotLength;
    Loaded largest;
    LoadInto(Contents(config, scheme), &largest);
    ASSERT_EQ(largest.status, Status::kOk) << largest.model.error_detail();
    ExpectTranslates(largest.model);

    config.rnn.src_embed = fxp::kMaxS8DotLength + 1;
    Loaded refused;
    LoadInto(Contents(config, scheme), &refused);
    EXPECT_EQ(refused.status, Status::kModelTensorInvalid);
    const std::string detail = refused.model.error_detail();
    EXPECT_NE(detail.find("131072 columns"), std::string::npos) << detail;
    EXPECT_NE(detail.find("src_embed.weight"), std::string::npos) << detail;
  }
}

// The case: a target embedding 140,000 wide (decoder layer 0's W_ih is wider still).
TEST(ModelBounds, A140000WideEmbeddingIsRefusedInInt8ButLoadsInFloat32) {
  ModelConfig config = Narrow();
  config.rnn.tgt_embed = 140000;
  Loaded full;
  LoadInto(Contents(config, QuantScheme::kInt8Full), &full);
  EXPECT_EQ(full.status, Status::kModelTensorInvalid);
  EXPECT_NE(std::string(full.model.error_detail()).find("tgt_embed.weight: 140000 columns"),
            std::string::npos)
      << full.model.error_detail();
  Loaded f32;
  LoadInto(Contents(config, QuantScheme::kFloat32), &f32);
  EXPECT_EQ(f32.status, Status::kOk) << f32.model.error_detail();
}

// int8-full local-p: p_t = S * sigmoid(.) in Q15.16.
TEST(ModelBounds, Int8FullLocalPSourcesUpTo32767LoadLongerAreRefused) {
  ModelConfig config = Narrow();
  config.rnn.attention = AttentionType::kLocalP;
  config.rnn.score = ScoreType::kGeneral;
  config.max_src_len = fxp::kMaxQ16PositionLength;
  ModelFileContents contents = Contents(config, QuantScheme::kInt8Full);
  contents.arena_plan.max_src_len = 8;
  Loaded largest;
  LoadInto(contents, &largest);
  ASSERT_EQ(largest.status, Status::kOk) << largest.model.error_detail();

  contents.config.max_src_len = fxp::kMaxQ16PositionLength + 1;
  Loaded refused;
  LoadInto(contents, &refused);
  EXPECT_EQ(refused.status, Status::kModelConfigInvalid);
  EXPECT_NE(std::string(refused.model.error_detail()).find("config.max_src_len: 32768"),
            std::string::npos)
      << refused.model.error_detail();
  // Float32 computes p_t in float: no such bound.
  contents = Contents(config, QuantScheme::kFloat32);
  contents.config.max_src_len = fxp::kMaxQ16PositionLength + 1;
  contents.arena_plan.max_src_len = 8;
  Loaded f32;
  LoadInto(contents, &f32);
  EXPECT_EQ(f32.status, Status::kOk) << f32.model.error_detail();
}

TEST(ModelBounds, FloatTensorsWithNanOrInfinityAreRefusedByName) {
  for (QuantScheme scheme : {QuantScheme::kFloat32, QuantScheme::kInt8Hybrid}) {
    const struct {
      float value;
      const char* word;
    } cases[] = {{NAN, "NaN"}, {INFINITY, "infinite"}, {-INFINITY, "infinite"}};
    for (const auto& c : cases) {
      ModelFileContents contents = Contents(Narrow(), scheme);
      // generator.bias stays float32 in both schemes.
      for (auto& t : contents.tensors) {
        if (t.name == "generator.bias") memcpy(t.data.data() + 4 * 3, &c.value, sizeof(float));
      }
      Loaded loaded;
      LoadInto(contents, &loaded);
      EXPECT_EQ(loaded.status, Status::kModelTensorInvalid);
      EXPECT_NE(std::string(loaded.model.error_detail())
                    .find(std::string("generator.bias: element 3 is ") + c.word),
                std::string::npos)
          << loaded.model.error_detail();
    }
  }
}

}  // namespace
}  // namespace edgenmt
