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

// The case: local_m with the concat score used to convert to int8-full and then fail
// session planning with a bare "Unsupported". Every additive score is refused, with the reason,
// and no file is written.
TEST(PlanErrors, TheConverterRefusesModelsTheRuntimeCannotRunAndWritesNothing) {
  for (const char* name : {"local_m_concat", "global_concat", "local_p_concat", "bahdanau"}) {
    SCOPED_TRACE(name);
    testing::TempDir dir;
    converter::ConvertOptions options;
    options.checkpoint_dir = Golden(name);
    options.out_path = dir / "model.enmt";
    options.scheme = QuantScheme::kInt8Full;
    options.calibration_path = std::string(EDGENMT_SOURCE_DIR) + "/data/g2p/dev.tsv";
    options.calibration_max_lines = 4;
    try {
      converter::Convert(options);
      ADD_FAILURE() << "converted";
    } catch (const converter::ConvertError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("cannot run this model"), std::string::npos) << message;
      EXPECT_NE(message.find("not concat/bahdanau"), std::string::npos) << message;
    }
    EXPECT_TRUE(dir.List().empty());
  }
}

// A file written without the converter's check (the model writer directly): planning fails
// with the reason in both entry points.
TEST(PlanErrors, RequiredArenaBytesAndInitSayWhyPlanningFailed) {
  const converter::Checkpoint ckpt = converter::LoadCheckpoint(Golden("local_m_concat"));
  converter::ConvertOptions options;
  options.scheme = QuantScheme::kInt8Full;
  testing::AlignedBuffer buffer(
      converter::BuildModelFile(converter::MakeModelFileContents(ckpt, options)));
  Model model;
  ASSERT_EQ(model.Load(buffer.data(), buffer.size()), Status::kOk) << model.error_detail();

  SessionLimits limits;
  size_t bytes = 0;
  char detail[160];
  EXPECT_EQ(RequiredArenaBytes(model, limits, &bytes, detail, sizeof detail), Status::kUnsupported);
  EXPECT_NE(std::string(detail).find("not concat/bahdanau"), std::string::npos) << detail;
  testing::AlignedArena arena(1 << 20);
  Translator translator;
  EXPECT_EQ(translator.Init(&model, arena.data(), arena.size(), limits), Status::kUnsupported);
  EXPECT_STREQ(translator.error_detail(), detail);

  // A limit beyond the model names the limit; a short detail buffer is truncated, terminated.
  limits.max_src_len = model.config().max_src_len + 1;
  EXPECT_EQ(RequiredArenaBytes(model, limits, &bytes, detail, sizeof detail),
            Status::kLimitExceeded);
  EXPECT_NE(std::string(detail).find("exceeds the model's max_src_len"), std::string::npos)
      << detail;
  char short_detail[8];
  EXPECT_EQ(RequiredArenaBytes(model, limits, &bytes, short_detail, sizeof short_detail),
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
