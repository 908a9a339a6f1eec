// edgenmt-convert against bad input (issue 5; docs/ERRORS.md; cli_robustness_test.cc has the
// runtime's CLI): broken checkpoints and unwritable outputs are refused with
// "edgenmt-convert: error: " and a message naming the tensor or path, and leave no file behind.
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/model.h"
#include "gtest/gtest.h"
#include "model_writer.h"
#include "safetensors.h"
#include "tiny_checkpoint.h"
#include "tool_run_support.h"

namespace edgenmt {
namespace {

using namespace ::edgenmt::tool_testing;  // NOLINT(build/namespaces): the shared test helpers
using testing::TempDir;

// Failure cases converter_test.cc does not already cover: a checkpoint path that is a file,
// damaged safetensors headers, tensors of another dtype, outputs under a file or in /proc.
class ConvertRobustness : public ::testing::Test {
 protected:
  void SetUp() override { testing::WriteTinyCheckpoint(ckpt()); }
  std::string ckpt() const { return work_ / "ckpt"; }
  std::string out_file() const { return out_ / "model.enmt"; }
  RunResult Convert(const std::string& checkpoint, const std::string& out) {
    return RunTool(EDGENMT_CONVERT_PATH,
                   "--checkpoint " + Quote(checkpoint) + " --out " + Quote(out), work_);
  }
  void ExpectFailure(const RunResult& r, int exit_code, const std::string& culprit) {
    ExpectConvertFailure(r, exit_code, culprit, out_);
  }
  // model.safetensors replaced by an 8-byte length, `header` and `data`.
  void WriteSafetensors(const std::string& header, const std::string& data, uint64_t length = 0) {
    std::string bytes(8, '\0');
    const uint64_t n = length != 0 ? length : header.size();
    for (int i = 0; i < 8; ++i)
      bytes[static_cast<size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xFF);
    WriteBytes(ckpt() + "/model.safetensors", bytes + header + data);
  }

  TempDir work_;
  TempDir out_;
};

TEST_F(ConvertRobustness, CheckpointPathThatIsAFileOrEmptyDirectory) {
  const std::string file = work_ / "a-file";
  WriteBytes(file, "x");
  ExpectFailure(Convert(file, out_file()), 2, file);
  const std::string empty = work_ / "empty-dir";
  std::filesystem::create_directory(empty);
  ExpectFailure(Convert(empty, out_file()), 2, empty);
}

TEST_F(ConvertRobustness, DamagedSafetensorsAreNamed) {
  const std::string path = "model.safetensors";
  WriteSafetensors("", "");
  ExpectFailure(Convert(ckpt(), out_file()), 2, path);
  WriteSafetensors("{}", "", uint64_t{1} << 62);  // header length far beyond the file
  ExpectFailure(Convert(ckpt(), out_file()), 2, path);
  WriteSafetensors("{\"generator.bias\": [1, 2]}", "");
  ExpectFailure(Convert(ckpt(), out_file()), 2, path);
  WriteSafetensors("not json at all", "");
  ExpectFailure(Convert(ckpt(), out_file()), 2, path);
  // Data offsets past the end of the data section.
  WriteSafetensors(
      "{\"generator.bias\": {\"dtype\": \"F32\", \"shape\": [9], \"data_offsets\": [0, 4000]}}",
      std::string(36, '\0'));
  ExpectFailure(Convert(ckpt(), out_file()), 2, path);
  // Offsets that disagree with the shape.
  WriteSafetensors(
      "{\"generator.bias\": {\"dtype\": \"F32\", \"shape\": [9], \"data_offsets\": [0, 8]}}",
      std::string(36, '\0'));
  ExpectFailure(Convert(ckpt(), out_file()), 2, path);
  // A shape whose element count overflows.
  WriteSafetensors(
      "{\"generator.bias\": {\"dtype\": \"F32\", \"shape\": [4294967296, 4294967296, 4294967296],"
      " \"data_offsets\": [0, 0]}}",
      "");
  ExpectFailure(Convert(ckpt(), out_file()), 2, path);
}

TEST_F(ConvertRobustness, ATensorOfAnotherDtypeIsNamed) {
  // Every tensor as in the tiny checkpoint, but generator.bias stored as F16.
  converter::TensorMap tensors = testing::TinyTensors(testing::TinyConfig());
  const std::vector<uint8_t> good = converter::SerializeSafetensors(tensors);
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= static_cast<uint64_t>(good[static_cast<size_t>(i)]) << (8 * i);
  nlohmann::json header =
      nlohmann::json::parse(good.begin() + 8, good.begin() + 8 + static_cast<long>(n));
  ASSERT_TRUE(header.contains("generator.bias"));
  header["generator.bias"]["dtype"] = "F16";
  const std::string data(good.begin() + 8 + static_cast<long>(n), good.end());
  WriteSafetensors(header.dump(), data);
  ExpectFailure(Convert(ckpt(), out_file()), 2, "generator.bias");
}

TEST_F(ConvertRobustness, UnwritableOutputsAreNamedAndLeaveNothing) {
  const std::string file = out_ / "plain-file";
  WriteBytes(file, "x");
  const std::string under_file = file + "/model.enmt";  // parent is not a directory
  RunResult r = Convert(ckpt(), under_file);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find(under_file), std::string::npos) << r.err;
  EXPECT_EQ(out_.List(), std::vector<std::string>{"plain-file"});
  // A directory nobody may write to (root ignores permissions, so /proc stands in for it).
  const std::string read_only = geteuid() == 0 ? std::string("/proc/edgenmt-test.enmt") : [&] {
    const std::string dir = out_ / "ro";
    std::filesystem::create_directory(dir);
    chmod(dir.c_str(), 0555);
    return dir + "/model.enmt";
  }();
  r = Convert(ckpt(), read_only);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find(read_only), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(read_only));
  // Empty --out value.
  r = Convert(ckpt(), "");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
}

TEST_F(ConvertRobustness, NonFiniteValuesInEveryTensorKindAreNamed) {
  const ModelConfig config = testing::TinyConfig();
  for (const char* name : {"src_embed.weight", "attn.linear_in.weight", "generator.bias"}) {
    for (float bad : {NAN, INFINITY, -INFINITY}) {
      converter::TensorMap tensors = testing::TinyTensors(config);
      tensors[name].data.back() = bad;
      testing::WriteCheckpoint(ckpt(), config, tensors, testing::TinyTokens(config.src_vocab_size),
                               testing::TinyTokens(config.tgt_vocab_size));
      ExpectFailure(Convert(ckpt(), out_file()), 2, name);
    }
  }
}

}  // namespace
}  // namespace edgenmt
