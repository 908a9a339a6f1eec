// edgenmt-convert: round trips (checkpoint -> file -> Model::Load -> same numbers) and every
// failure mode (exit code, message naming the culprit, no output file left behind).
#include <math.h>
#include <stdlib.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <fstream>
#include <string>

#include "checkpoint.h"
#include "convert.h"
#include "convert_error.h"
#include "edgenmt/model.h"
#include "edgenmt/internal/tensor_layout.h"
#include "gtest/gtest.h"
#include "sha256.h"
#include "tiny_checkpoint.h"
#include "tool_run_support.h"

namespace edgenmt {
namespace {

using namespace ::edgenmt::tool_testing;  // NOLINT(build/namespaces): the shared test helpers
using converter::ConvertError;
using converter::TensorMap;
using testing::TempDir;

class ConverterCli : public ::testing::Test {
 protected:
  void SetUp() override { testing::WriteTinyCheckpoint(ckpt_dir()); }
  std::string ckpt_dir() const { return work_ / "ckpt"; }
  std::string out_dir() const { return out_.path(); }
  std::string out_file() const { return out_ / "model.enmt"; }
  RunResult Convert(const std::string& extra = "") {
    return RunTool(
        EDGENMT_CONVERT_PATH,
        "--checkpoint " + Quote(ckpt_dir()) + " --out " + Quote(out_file()) + " " + extra, work_);
  }
  void ExpectFailure(const RunResult& r, int exit_code, const std::string& culprit) {
    ExpectConvertFailure(r, exit_code, culprit, out_);
  }
  void RewriteTensors(const TensorMap& tensors) {
    const ModelConfig config = testing::TinyConfig();
    testing::WriteCheckpoint(ckpt_dir(), config, tensors,
                             testing::TinyTokens(config.src_vocab_size),
                             testing::TinyTokens(config.tgt_vocab_size));
  }

  TempDir work_;
  TempDir out_;
};

TEST_F(ConverterCli, RoundTripKeepsEveryNumberTokenAndOption) {
  const RunResult r =
      Convert("--created 2024-05-06 --beam 4 --nbest 2 --alpha 0.5 --max-src-len 10");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("parameters"), std::string::npos);
  EXPECT_NE(r.out.find("file bytes"), std::string::npos);
  EXPECT_NE(r.out.find("arena plan"), std::string::npos);
  EXPECT_EQ(out_.List(), std::vector<std::string>{"model.enmt"});  // no temp file left

  testing::LoadedModelFile loaded(out_file());
  ASSERT_EQ(loaded.status, Status::kOk) << loaded.model.error_detail();
  const Model& m = loaded.model;
  const ModelConfig want = testing::TinyConfig();
  const ModelConfig& got = m.config();
  EXPECT_EQ(got.rnn.cell, want.rnn.cell);
  EXPECT_EQ(got.src_vocab_size, want.src_vocab_size);
  EXPECT_EQ(got.tgt_vocab_size, want.tgt_vocab_size);
  EXPECT_EQ(got.rnn.src_embed, want.rnn.src_embed);
  EXPECT_EQ(got.rnn.tgt_embed, want.rnn.tgt_embed);
  EXPECT_EQ(got.rnn.enc_hidden, want.rnn.enc_hidden);
  EXPECT_EQ(got.enc_layers, want.enc_layers);
  EXPECT_EQ(got.dec_layers, want.dec_layers);
  EXPECT_EQ(got.rnn.bidirectional, want.rnn.bidirectional);
  EXPECT_EQ(got.rnn.reverse_source, want.rnn.reverse_source);
  EXPECT_EQ(got.rnn.dec_hidden, want.rnn.dec_hidden);
  EXPECT_EQ(got.rnn.bridge, want.rnn.bridge);
  EXPECT_EQ(got.rnn.input_feeding, want.rnn.input_feeding);
  EXPECT_EQ(got.rnn.attention, want.rnn.attention);
  EXPECT_EQ(got.rnn.score, want.rnn.score);
  EXPECT_EQ(got.rnn.attn_hidden, want.rnn.attn_hidden);
  EXPECT_EQ(got.rnn.window, want.rnn.window);
  EXPECT_EQ(got.max_src_len, want.max_src_len);
  EXPECT_EQ(got.tokenizer, want.tokenizer);
  EXPECT_EQ(got.scheme, QuantScheme::kFloat32);

  const TensorMap tensors = testing::TinyTensors(want);
  EXPECT_EQ(m.num_tensors(), static_cast<int32_t>(tensors.size()));
  for (const auto& [name, tensor] : tensors) {
    TensorView view{};
    ASSERT_EQ(m.FindTensor(name.c_str(), &view), Status::kOk) << name;
    EXPECT_EQ(view.dtype, DType::kF32);
    ASSERT_EQ(view.rank, static_cast<int32_t>(tensor.shape.size()));
    for (int32_t i = 0; i < view.rank; ++i) EXPECT_EQ(view.shape[i], tensor.shape[i]) << name;
    ASSERT_EQ(view.bytes, tensor.data.size() * sizeof(float));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(view.data) % kModelBufferAlignment, 0u) << name;
    EXPECT_EQ(memcmp(view.data, tensor.data.data(), view.bytes), 0) << name << " data differs";
    EXPECT_EQ(view.scales, nullptr);
  }

  const std::vector<std::string> src = testing::TinyTokens(want.src_vocab_size);
  const VocabularyView vocab = m.src_vocab();
  ASSERT_EQ(vocab.size, want.src_vocab_size);
  EXPECT_EQ(vocab.pad_id, 0);
  EXPECT_EQ(vocab.unk_id, 1);
  EXPECT_EQ(vocab.bos_id, 2);
  EXPECT_EQ(vocab.eos_id, 3);
  for (int32_t id = 0; id < vocab.size; ++id) {
    const TokenView token = vocab.Token(id);
    EXPECT_EQ(std::string(token.data, token.size), src[static_cast<size_t>(id)]);
    EXPECT_EQ(vocab.Find(src[static_cast<size_t>(id)].data(),
                         static_cast<uint32_t>(src[static_cast<size_t>(id)].size())),
              id);
  }
  EXPECT_EQ(vocab.Find("zz", 2), -1);
  EXPECT_EQ(vocab.Find("", 0), -1);
  EXPECT_EQ(m.tgt_vocab().size, want.tgt_vocab_size);

  const std::vector<uint8_t> weights = testing::ReadFile(ckpt_dir() + "/model.safetensors");
  const Provenance p = m.provenance();
  EXPECT_EQ(std::string(p.checkpoint_sha256), converter::Sha256Hex(weights.data(), weights.size()));
  EXPECT_EQ(std::string(p.created), "2024-05-06");
  EXPECT_EQ(std::string(p.source), ckpt_dir());
  EXPECT_EQ(std::string(p.converter_version).rfind("edgenmt-convert ", 0), 0u);

  const DecodingOptions& d = m.decoding_defaults();
  EXPECT_EQ(d.beam, 4);
  EXPECT_EQ(d.nbest, 2);
  EXPECT_FLOAT_EQ(d.alpha, 0.5f);
  EXPECT_FLOAT_EQ(d.beta, 0.0f);
  EXPECT_EQ(d.min_len, 0);
  EXPECT_EQ(d.max_len, 2 * 10 + 2);
  EXPECT_FLOAT_EQ(d.max_len_ratio, 0.0f);
  EXPECT_EQ(m.arena_plan().max_src_len, 10);
  EXPECT_EQ(m.arena_plan().beam, 4);
  // The recorded plan is exactly what the runtime's planner says for these limits.
  size_t planned = 0;
  ASSERT_EQ(RequiredArenaBytes(m, converter::ArenaPlanLimits(m), &planned), Status::kOk);
  EXPECT_GT(planned, 0u);
  EXPECT_EQ(m.arena_plan().bytes, planned);
}

TEST_F(ConverterCli, DefaultsAreDocumentedValues) {
  ASSERT_EQ(Convert().exit_code, 0);
  testing::LoadedModelFile loaded(out_file());
  ASSERT_EQ(loaded.status, Status::kOk) << loaded.model.error_detail();
  const DecodingOptions& d = loaded.model.decoding_defaults();
  EXPECT_EQ(d.beam, converter::kDefaultBeam);
  EXPECT_EQ(d.nbest, converter::kDefaultNbest);
  EXPECT_FLOAT_EQ(d.alpha, converter::kDefaultAlpha);
  EXPECT_EQ(d.min_len, 0);
  EXPECT_EQ(d.max_len, converter::DefaultMaxLen(testing::TinyConfig().max_src_len));
  EXPECT_EQ(loaded.model.arena_plan().max_src_len, testing::TinyConfig().max_src_len);
  EXPECT_EQ(std::string(loaded.model.provenance().created).size(), 10u);  // YYYY-MM-DD
}

TEST_F(ConverterCli, OverwritesAnExistingFileAtomically) {
  std::ofstream(out_file()) << "old";
  ASSERT_EQ(Convert().exit_code, 0);
  testing::LoadedModelFile loaded(out_file());
  EXPECT_EQ(loaded.status, Status::kOk);
  EXPECT_EQ(out_.List().size(), 1u);
}

TEST_F(ConverterCli, FailedConversionLeavesAnExistingFileAlone) {
  std::ofstream(out_file()) << "old";
  TensorMap tensors = testing::TinyTensors(testing::TinyConfig());
  tensors.erase("generator.bias");
  RewriteTensors(tensors);
  const RunResult r = Convert();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::ReadText(out_file()), "old");
  EXPECT_EQ(out_.List().size(), 1u);
}

TEST_F(ConverterCli, MissingTensorIsNamed) {
  TensorMap tensors = testing::TinyTensors(testing::TinyConfig());
  tensors.erase("decoder.layers.1.weight_hh");
  RewriteTensors(tensors);
  ExpectFailure(Convert(), 2, "decoder.layers.1.weight_hh");
}

TEST_F(ConverterCli, MisshapedTensorIsNamedWithBothShapes) {
  TensorMap tensors = testing::TinyTensors(testing::TinyConfig());
  converter::FloatTensor& t = tensors["attn.linear_in.weight"];  // [E=10, H=8]
  std::swap(t.shape[0], t.shape[1]);
  RewriteTensors(tensors);
  const RunResult r = Convert();
  ExpectFailure(r, 2, "attn.linear_in.weight");
  EXPECT_NE(r.err.find("[8, 10]"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[10, 8]"), std::string::npos) << r.err;
}

TEST_F(ConverterCli, NonFiniteValueIsNamed) {
  TensorMap tensors = testing::TinyTensors(testing::TinyConfig());
  tensors["encoder.rnn.bias_hh_l0_reverse"].data[3] = NAN;
  RewriteTensors(tensors);
  ExpectFailure(Convert(), 2, "encoder.rnn.bias_hh_l0_reverse");
  tensors["encoder.rnn.bias_hh_l0_reverse"].data[3] = INFINITY;
  RewriteTensors(tensors);
  ExpectFailure(Convert(), 2, "encoder.rnn.bias_hh_l0_reverse");
}

TEST_F(ConverterCli, ExtraTensorIsNamed) {
  TensorMap tensors = testing::TinyTensors(testing::TinyConfig());
  tensors["decoder.layers.2.weight_ih"] = converter::FloatTensor{{2, 2}, {1, 2, 3, 4}};
  RewriteTensors(tensors);
  ExpectFailure(Convert(), 2, "decoder.layers.2.weight_ih");
}

TEST_F(ConverterCli, MissingCheckpointPathIsNamed) {
  const std::string missing = work_ / "no-such-checkpoint";
  const RunResult r =
      RunTool(EDGENMT_CONVERT_PATH,
              "--checkpoint " + Quote(missing) + " --out " + Quote(out_file()), work_);
  ExpectFailure(r, 2, missing);
}

TEST_F(ConverterCli, MissingVocabularyIsNamed) {
  std::filesystem::remove(ckpt_dir() + "/tgt.vocab");
  ExpectFailure(Convert(), 2, "tgt.vocab");
}

TEST_F(ConverterCli, VocabularyDisagreeingWithConfigIsNamed) {
  std::ofstream(ckpt_dir() + "/src.vocab", std::ios::app) << "extra\n";
  ExpectFailure(Convert(), 2, "src.vocab");
}

TEST_F(ConverterCli, DuplicateTokenIsNamed) {
  std::vector<std::string> tokens = testing::TinyTokens(testing::TinyConfig().tgt_vocab_size);
  tokens.back() = tokens[5];
  const ModelConfig config = testing::TinyConfig();
  testing::WriteCheckpoint(ckpt_dir(), config, testing::TinyTensors(config),
                           testing::TinyTokens(config.src_vocab_size), tokens);
  const RunResult r = Convert();
  ExpectFailure(r, 2, "tgt.vocab");
  EXPECT_NE(r.err.find("duplicate"), std::string::npos) << r.err;
}

TEST_F(ConverterCli, BadConfigIsNamed) {
  std::ofstream(ckpt_dir() + "/config.json") << "{\"cell\": \"lstm\"}";
  ExpectFailure(Convert(), 2, "config.json");

  nlohmann::json config = converter::ConfigToJson(testing::TinyConfig());
  config["score"] = "dot";  // E = 10 != H = 8
  std::ofstream(ckpt_dir() + "/config.json") << config.dump();
  const RunResult r = Convert();
  ExpectFailure(r, 2, "config.json");
  EXPECT_NE(r.err.find("dot"), std::string::npos) << r.err;

  config = converter::ConfigToJson(testing::TinyConfig());
  config["attention"] = "luong";
  std::ofstream(ckpt_dir() + "/config.json") << config.dump();
  ExpectFailure(Convert(), 2, "attention");
}

TEST_F(ConverterCli, CorruptSafetensorsIsNamed) {
  const std::string path = ckpt_dir() + "/model.safetensors";
  std::vector<uint8_t> bytes = testing::ReadFile(path);
  bytes.resize(bytes.size() / 2);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  ExpectFailure(Convert(), 2, "model.safetensors");

  std::ofstream(path, std::ios::binary) << "\xff\xff\xff\xff\xff\xff\xff\x7f{}";
  ExpectFailure(Convert(), 2, "model.safetensors");
}

TEST_F(ConverterCli, UnwritableOutputExitsThree) {
  const std::string out = work_ / "no-such-dir/model.enmt";
  const RunResult r = RunTool(EDGENMT_CONVERT_PATH,
                              "--checkpoint " + Quote(ckpt_dir()) + " --out " + Quote(out), work_);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find(out), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST_F(ConverterCli, OutputThatIsADirectoryExitsThreeAndRemovesTheTemporary) {
  std::filesystem::create_directory(out_file());
  const RunResult r = Convert();
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find(out_file()), std::string::npos) << r.err;
  EXPECT_EQ(out_.List(), std::vector<std::string>{"model.enmt"});  // only the directory
}

TEST_F(ConverterCli, BadUsageExitsOne) {
  EXPECT_EQ(RunTool(EDGENMT_CONVERT_PATH, "", work_).exit_code, 1);
  EXPECT_EQ(RunTool(EDGENMT_CONVERT_PATH, "--checkpoint " + Quote(ckpt_dir()), work_).exit_code, 1);
  EXPECT_EQ(RunTool(EDGENMT_CONVERT_PATH, "--bogus", work_).exit_code, 1);
  ExpectFailure(Convert("--dtype float16"), 1, "--dtype");
  ExpectFailure(Convert("--beam 0"), 1, "--beam");
  ExpectFailure(Convert("--beam 2 --nbest 3"), 1, "--nbest: 3 not in [1, beam=2]");
  // The runtime's ValidateDecodingOptions names the field; the converter names the flag.
  ExpectFailure(Convert("--min-len 9 --max-len 8"), 1, "--min-len: 9 not in [0, max_len=8]");
  ExpectFailure(Convert("--max-len-ratio -1"), 1, "--max-len-ratio: must be finite and >= 0");
  ExpectFailure(Convert("--max-src-len 1000"), 1, "--max-src-len");
  ExpectFailure(Convert("--alpha nan"), 1, "--alpha");
  ExpectFailure(Convert("--beam x"), 1, "--beam");
  EXPECT_EQ(RunTool(EDGENMT_CONVERT_PATH, "--help", work_).exit_code, 0);
}

// docs/INT8.md "Storage": int8 per-row weights and embeddings; float (hybrid) or Q11.20 int32
// (int8-full) biases; the summary reports SQNR per tensor and the size against float32.
TEST_F(ConverterCli, Int8SchemesStorePerRowInt8AndReportSqnr) {
  for (const char* dtype : {"int8", "int8-full"}) {
    const bool full = std::string(dtype) == "int8-full";
    const RunResult r = Convert(std::string("--dtype ") + dtype);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("SQNR"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("% of the float32 file"), std::string::npos) << r.out;
    testing::LoadedModelFile loaded(out_file());
    ASSERT_EQ(loaded.status, Status::kOk) << loaded.model.error_detail();
    EXPECT_EQ(loaded.model.config().scheme,
              full ? QuantScheme::kInt8Full : QuantScheme::kInt8Hybrid);
    for (int32_t i = 0; i < loaded.model.num_tensors(); ++i) {
      TensorView v{};
      ASSERT_EQ(loaded.model.TensorAt(i, &v), Status::kOk);
      if (v.rank == 2) {
        EXPECT_EQ(v.dtype, DType::kI8) << v.name;
        EXPECT_EQ(v.quant_axis, 0) << v.name;
        EXPECT_EQ(v.num_scales, v.shape[0]) << v.name;
      } else {
        EXPECT_EQ(v.dtype, full ? DType::kI32 : DType::kF32) << v.name;
      }
    }
  }
}

}  // namespace
}  // namespace edgenmt
