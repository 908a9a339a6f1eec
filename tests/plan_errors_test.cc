// Converter and runtime agree: a file the converter writes is a file the runtime runs, and a
// session that cannot be planned says which layer or limit failed, in RequiredArenaBytes as in
// Init (not only the status name).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "checkpoint.h"
#include "convert.h"
#include "convert_error.h"
#include "edgenmt/translator.h"
#include "model_writer.h"
#include "runtime_test_util.h"
#include "tiny_checkpoint.h"

namespace edgenmt {
namespace {

std::string Golden(const char* name) {
  return std::string(EDGENMT_TEST_DATA_DIR) + "/golden/" + name;
}

// A checkpoint with more encoder layers than this runtime build holds (kMaxRuntimeLayers, 8;
// the file format allows 32): valid, but no session can be planned.
converter::Checkpoint NineLayerCheckpoint() {
  converter::Checkpoint ckpt;
  ckpt.dir = "nine-layers";
  ckpt.config = testing::TinyConfig();
  ckpt.config.enc_layers = 9;
  ckpt.src_tokens = testing::TinyTokens(ckpt.config.src_vocab_size);
  ckpt.tgt_tokens = testing::TinyTokens(ckpt.config.tgt_vocab_size);
  ckpt.tensors = testing::TinyTensors(ckpt.config);
  return ckpt;
}

// A file the converter writes is a file the runtime runs: in every scheme the converter refuses
// a model this runtime cannot plan a session for, with the runtime's reason (it used to write
// some and record "arena not planned", leaving users a bare "Unsupported" at session time).
TEST(PlanErrors, TheConverterRefusesModelsTheRuntimeCannotRun) {
  const converter::Checkpoint ckpt = NineLayerCheckpoint();
  for (QuantScheme scheme :
       {QuantScheme::kFloat32, QuantScheme::kInt8Hybrid, QuantScheme::kInt8Full}) {
    SCOPED_TRACE(static_cast<int>(scheme));
    const converter::ConvertOptions options = testing::CalibratedOptions(scheme, 0, 4);
    std::vector<uint8_t> file;
    try {
      converter::ConvertCheckpoint(ckpt, options, &file);
      ADD_FAILURE() << "converted";
    } catch (const converter::ConvertError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("cannot run this model"), std::string::npos) << message;
      EXPECT_NE(message.find("enc_layers 9"), std::string::npos) << message;
    }
  }
}

// The same file written without the converter's check: planning fails with the reason in both
// entry points; a limit beyond the model names the limit.
TEST(PlanErrors, RequiredArenaBytesAndInitSayWhyPlanningFailed) {
  converter::ConvertOptions options;
  testing::AlignedBuffer buffer(
      converter::BuildModelFile(converter::MakeModelFileContents(NineLayerCheckpoint(), options)));
  Model model;
  ASSERT_EQ(model.Load(buffer.data(), buffer.size()), Status::kOk) << model.error_detail();

  SessionLimits limits;
  size_t bytes = 0;
  char detail[160];
  EXPECT_EQ(RequiredArenaBytes(model, limits, &bytes, detail, sizeof detail), Status::kUnsupported);
  EXPECT_NE(std::string(detail).find("enc_layers 9 out of range"), std::string::npos) << detail;
  testing::AlignedArena arena(1 << 20);
  Translator translator;
  EXPECT_EQ(translator.Init(&model, arena.data(), arena.size(), limits), Status::kUnsupported);
  EXPECT_STREQ(translator.error_detail(), detail);

  auto good = testing::LoadCheckpointDir(Golden("global_general"));
  ASSERT_NE(good, nullptr);
  limits.max_src_len = good->model.config().max_src_len + 1;
  EXPECT_EQ(RequiredArenaBytes(good->model, limits, &bytes, detail, sizeof detail),
            Status::kLimitExceeded);
  EXPECT_NE(std::string(detail).find("exceeds the model's max_src_len"), std::string::npos)
      << detail;
  char short_detail[8];
  EXPECT_EQ(RequiredArenaBytes(good->model, limits, &bytes, short_detail, sizeof short_detail),
            Status::kLimitExceeded);
  EXPECT_EQ(std::string(short_detail), std::string(detail).substr(0, 7));
}

TEST(PlanErrors, ASuccessfulPlanClearsTheDetail) {
  auto loaded = testing::LoadCheckpointDir(Golden("global_general"));
  ASSERT_NE(loaded, nullptr);
  size_t bytes = 0;
  char detail[160] = "stale";
  EXPECT_EQ(RequiredArenaBytes(loaded->model, SessionLimits(), &bytes, detail, sizeof detail),
            Status::kOk);
  EXPECT_STREQ(detail, "");
  EXPECT_GT(bytes, 0u);
}

}  // namespace
}  // namespace edgenmt
