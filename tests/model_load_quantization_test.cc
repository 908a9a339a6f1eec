// Model::Load, continued (model_load_test.cc has the files, shapes and configs): an int8 file's
// quantization parameters, an int8-full file's activation formats, and the checked-in file of
// format version 1 that every runtime must still load.
#include <math.h>
#include <string.h>

#include <functional>
#include <string>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/model.h"
#include "edgenmt/schema/edgenmt_generated.h"
#include "edgenmt/internal/tensor_layout.h"
#include "gtest/gtest.h"
#include "model_writer.h"
#include "tiny_checkpoint.h"
#include "model_load_support.h"

namespace edgenmt {
namespace {

using namespace ::edgenmt::model_load_testing;  // NOLINT(build/namespaces): the shared test helpers

// Quantization parameters are checked on an int8-scheme model with one I8 tensor.
ModelFileContents WithInt8Generator() {
  ModelFileContents c = GoodContents();
  c.config.scheme = QuantScheme::kInt8Hybrid;
  TensorRecord& t = Tensor(c, "generator.weight");  // [9, 8]
  t.dtype = DType::kI8;
  t.data.assign(9 * 8, 1);
  t.scales.assign(9, 0.01f);
  t.axis = 0;
  return c;
}

TEST(ModelLoad, ChecksQuantizationParameters) {
  {
    const std::vector<uint8_t> bytes = converter::BuildModelFile(WithInt8Generator());
    AlignedBuffer buffer(bytes);
    Model model;
    ASSERT_EQ(model.Load(buffer.data(), buffer.size()), Status::kOk) << model.error_detail();
    TensorView view{};
    ASSERT_EQ(model.FindTensor("generator.weight", &view), Status::kOk);
    EXPECT_EQ(view.dtype, DType::kI8);
    EXPECT_EQ(view.num_scales, 9);
    EXPECT_EQ(view.quant_axis, 0);
    EXPECT_FLOAT_EQ(view.scales[8], 0.01f);
    EXPECT_EQ(view.zero_points, nullptr);
  }
  auto load = [](const std::function<void(TensorRecord&)>& mutate) {
    ModelFileContents c = WithInt8Generator();
    mutate(Tensor(c, "generator.weight"));
    return LoadBytes(converter::BuildModelFile(c));
  };
  EXPECT_LOAD_FAILS(load([](TensorRecord& t) { t.scales.clear(); }), Status::kModelTensorInvalid,
                    "no scales");
  EXPECT_LOAD_FAILS(load([](TensorRecord& t) { t.scales.resize(8); }), Status::kModelTensorInvalid,
                    "8 scales");
  EXPECT_LOAD_FAILS(load([](TensorRecord& t) { t.scales[2] = 0; }), Status::kModelTensorInvalid,
                    "scale[2]");
  EXPECT_LOAD_FAILS(load([](TensorRecord& t) { t.scales[2] = NAN; }), Status::kModelTensorInvalid,
                    "scale[2]");
  EXPECT_LOAD_FAILS(load([](TensorRecord& t) { t.axis = 2; }), Status::kModelTensorInvalid, "axis");
  EXPECT_LOAD_FAILS(load([](TensorRecord& t) { t.axis = -1; }), Status::kModelTensorInvalid,
                    "per-tensor");
  EXPECT_LOAD_FAILS(load([](TensorRecord& t) { t.zero_points.assign(9, 300); }),
                    Status::kModelTensorInvalid, "zero_point");
  EXPECT_LOAD_FAILS(load([](TensorRecord& t) { t.zero_points.assign(3, 0); }),
                    Status::kModelTensorInvalid, "zero points");
  EXPECT_LOAD_FAILS(load([](TensorRecord& t) { t.dtype = static_cast<DType>(9); }),
                    Status::kModelTensorInvalid, "dtype");
  // Float32 models: no integer tensors, no quantization on F32 tensors.
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) {
                      c = WithInt8Generator();
                      c.config.scheme = QuantScheme::kFloat32;
                    }),
                    Status::kModelTensorInvalid, "float32 model");
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { Tensor(c, "generator.bias").scales = {1.0f}; }),
      Status::kModelTensorInvalid, "F32 tensor has quantization");
}

// int8-full LSTM models carry one fixed-point format per cell (docs/INT8.md "Calibration").
ModelFileContents Int8FullWithFormats() {
  ModelFileContents c = GoodContents();
  c.config.scheme = QuantScheme::kInt8Full;
  c.activations = {{"encoder.rnn.l0.cell", 4},
                   {"encoder.rnn.l0_reverse.cell", 3},
                   {"decoder.layers.0.cell", 5},
                   {"decoder.layers.1.cell", 6}};
  return c;
}

TEST(ModelLoad, ChecksActivationFormats) {
  {
    AlignedBuffer buffer(converter::BuildModelFile(Int8FullWithFormats()));
    Model model;
    ASSERT_EQ(model.Load(buffer.data(), buffer.size()), Status::kOk) << model.error_detail();
    int32_t bits = 0;
    ASSERT_EQ(model.FindActivationFormat("encoder.rnn.l0_reverse.cell", &bits), Status::kOk);
    EXPECT_EQ(bits, 3);
    ASSERT_EQ(model.FindActivationFormat("decoder.layers.1.cell", &bits), Status::kOk);
    EXPECT_EQ(bits, 6);
    EXPECT_EQ(model.FindActivationFormat("decoder.layers.2.cell", &bits),
              Status::kModelTensorMissing);
  }
  {  // Float models have none.
    AlignedBuffer buffer(converter::BuildModelFile(GoodContents()));
    Model model;
    ASSERT_EQ(model.Load(buffer.data(), buffer.size()), Status::kOk);
    int32_t bits = 0;
    EXPECT_EQ(model.FindActivationFormat("decoder.layers.0.cell", &bits),
              Status::kModelTensorMissing);
  }
  auto load = [](const std::function<void(ModelFileContents&)>& mutate) {
    ModelFileContents c = Int8FullWithFormats();
    mutate(c);
    return LoadBytes(converter::BuildModelFile(c));
  };
  EXPECT_LOAD_FAILS(load([](ModelFileContents& c) { c.activations.pop_back(); }),
                    Status::kModelTensorMissing, "decoder.layers.1.cell");
  EXPECT_LOAD_FAILS(load([](ModelFileContents& c) { c.activations[1].int_bits = 7; }),
                    Status::kModelTensorInvalid, "int_bits");
  EXPECT_LOAD_FAILS(load([](ModelFileContents& c) { c.activations[1].int_bits = 0; }),
                    Status::kModelTensorInvalid, "int_bits");
  EXPECT_LOAD_FAILS(load([](ModelFileContents& c) { c.activations.push_back(c.activations[0]); }),
                    Status::kModelTensorInvalid, "twice");
  EXPECT_LOAD_FAILS(load([](ModelFileContents& c) {
                      c.activations.push_back({"decoder.layers.7.cell", 4});
                    }),
                    Status::kModelTensorInvalid, "decoder.layers.7.cell");
  EXPECT_LOAD_FAILS(load([](ModelFileContents& c) { c.config.scheme = QuantScheme::kInt8Hybrid; }),
                    Status::kModelTensorInvalid, "not used by this config");
}

// A model file of format version 1, converted once and checked in: every future runtime must
// still load it (tests/data/models/README.md says how it was made).
TEST(ModelLoad, LoadsTheCheckedInVersion1Model) {
  const std::string path = std::string(EDGENMT_TEST_DATA_DIR) + "/models/tiny-v1.f32.enmt";
  AlignedBuffer buffer(testing::ReadFile(path));
  Model model;
  ASSERT_EQ(model.Load(buffer.data(), buffer.size()), Status::kOk) << model.error_detail();
  EXPECT_EQ(model.format_version(), 1u);
  const ModelConfig want = testing::TinyConfig();
  EXPECT_EQ(model.config().rnn.cell, want.rnn.cell);
  EXPECT_EQ(model.config().rnn.attention, want.rnn.attention);
  EXPECT_EQ(model.config().rnn.score, want.rnn.score);
  EXPECT_EQ(model.config().src_vocab_size, want.src_vocab_size);
  EXPECT_EQ(model.config().rnn.dec_hidden, want.rnn.dec_hidden);
  EXPECT_STREQ(model.provenance().created, "2024-01-01");
  EXPECT_EQ(model.decoding_defaults().beam, 5);
  EXPECT_EQ(model.decoding_defaults().nbest, 1);
  EXPECT_FLOAT_EQ(model.decoding_defaults().alpha, 0.6f);
  EXPECT_EQ(model.decoding_defaults().max_len, 26);
  // The weights are TinyTensors(TinyConfig(), seed 1), bit for bit.
  const converter::TensorMap tensors = testing::TinyTensors(want);
  for (const auto& [name, tensor] : tensors) {
    TensorView view{};
    ASSERT_EQ(model.FindTensor(name.c_str(), &view), Status::kOk) << name;
    ASSERT_EQ(view.bytes, tensor.data.size() * sizeof(float));
    EXPECT_EQ(memcmp(view.data, tensor.data.data(), view.bytes), 0) << name;
  }
}

}  // namespace
}  // namespace edgenmt
