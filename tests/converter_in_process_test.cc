// edgenmt-convert's library, in process: every architecture the contract allows converts and
// loads with the tensors ExpectedTensors lists, and every golden checkpoint of tests/data/golden
// round-trips bit for bit (converter_test.cc runs the command line).
#include <string.h>

#include <filesystem>
#include <string>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/model.h"
#include "edgenmt/internal/tensor_layout.h"
#include "gtest/gtest.h"
#include "tiny_checkpoint.h"

namespace edgenmt {
namespace {

using testing::TempDir;

// In-process conversions of every architecture the contract allows.
ModelConfig Variant(int index) {
  ModelConfig c = testing::TinyConfig();
  switch (index) {
    case 0: break;
    case 1:
      c.rnn.cell = CellType::kGru;
      c.rnn.bridge = true;
      break;
    case 2:
      c.rnn.attention = AttentionType::kNone;
      c.rnn.input_feeding = false;
      break;
    case 3:
      c.rnn.attention = AttentionType::kBahdanau;
      c.rnn.score = ScoreType::kConcat;
      break;
    case 4:
      c.rnn.attention = AttentionType::kLocalP;
      c.rnn.score = ScoreType::kLocation;
      break;
    case 5:
      c.rnn.attention = AttentionType::kLocalM;
      c.rnn.score = ScoreType::kConcat;
      c.rnn.input_feeding = false;
      break;
    case 6:
      c.rnn.bidirectional = false;
      c.rnn.enc_hidden = 8;
      c.rnn.score = ScoreType::kDot;
      c.enc_layers = 3;
      break;
    case 7:
      c.rnn.bridge = false;
      c.rnn.reverse_source = true;
      c.dec_layers = 1;
      c.tokenizer = TokenizerType::kWord;
      break;
    case 8:
      c.rnn.cell = CellType::kGru;
      c.rnn.attention = AttentionType::kLocalP;
      c.rnn.score = ScoreType::kDot;
      c.rnn.bidirectional = false;
      c.rnn.enc_hidden = 8;
      break;
  }
  return c;
}

class ConverterVariants : public ::testing::TestWithParam<int> {};

TEST_P(ConverterVariants, ConvertsAndLoads) {
  TempDir dir;
  const ModelConfig config = Variant(GetParam());
  testing::WriteTinyCheckpoint(dir / "ckpt", config);
  converter::ConvertOptions options;
  options.checkpoint_dir = dir / "ckpt";
  options.out_path = dir / "model.enmt";
  const converter::ConvertSummary summary = converter::Convert(options);
  testing::LoadedModelFile loaded(options.out_path);
  ASSERT_EQ(loaded.status, Status::kOk) << loaded.model.error_detail();
  EXPECT_EQ(loaded.model.num_tensors(),
            ForEachExpectedTensor(config, [](const ExpectedTensor&) { return true; }));
  EXPECT_EQ(summary.tensors, loaded.model.num_tensors());
  EXPECT_EQ(summary.file_bytes, loaded.buffer.size());
  EXPECT_EQ(loaded.model.config().rnn.attention, config.rnn.attention);
  EXPECT_EQ(loaded.model.config().rnn.cell, config.rnn.cell);
}

INSTANTIATE_TEST_SUITE_P(AllArchitectures, ConverterVariants, ::testing::Range(0, 9));

// The reference engineer's golden checkpoints (tests/data/golden/<name>/) convert and keep
// every value bit for bit.
TEST(ConverterGolden, EveryGoldenCheckpointRoundTrips) {
  const std::filesystem::path golden = std::filesystem::path(EDGENMT_TEST_DATA_DIR) / "golden";
  int converted = 0;
  if (std::filesystem::exists(golden)) {
    for (const auto& entry : std::filesystem::directory_iterator(golden)) {
      if (!std::filesystem::exists(entry.path() / "config.json")) continue;
      SCOPED_TRACE(entry.path().string());
      TempDir dir;
      converter::ConvertOptions options;
      options.checkpoint_dir = entry.path().string();
      options.out_path = dir / "model.enmt";
      ASSERT_NO_THROW(converter::Convert(options));
      testing::LoadedModelFile loaded(options.out_path);
      ASSERT_EQ(loaded.status, Status::kOk) << loaded.model.error_detail();
      const converter::Checkpoint ckpt = converter::LoadCheckpoint(options.checkpoint_dir);
      for (const auto& [name, tensor] : ckpt.tensors) {
        TensorView view{};
        ASSERT_EQ(loaded.model.FindTensor(name.c_str(), &view), Status::kOk) << name;
        ASSERT_EQ(view.bytes, tensor.data.size() * sizeof(float)) << name;
        EXPECT_EQ(memcmp(view.data, tensor.data.data(), view.bytes), 0) << name;
      }
      for (int32_t id = 0; id < loaded.model.tgt_vocab().size; ++id) {
        const TokenView token = loaded.model.tgt_vocab().Token(id);
        EXPECT_EQ(std::string(token.data, token.size), ckpt.tgt_tokens[static_cast<size_t>(id)]);
      }
      ++converted;
    }
  }
  if (converted == 0) GTEST_SKIP() << "no golden checkpoints in " << golden;
}

}  // namespace
}  // namespace edgenmt
