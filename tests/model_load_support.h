// Shared by the Model::Load tests (model_load_test.cc: files, shapes, configs, vocabularies;
// model_load_quantization_test.cc: quantization parameters, activation formats, the format-1
// file): a good tiny model's contents, loading bytes or a mutated copy, and the refusal check.
#ifndef EDGENMT_TESTS_MODEL_LOAD_SUPPORT_H_
#define EDGENMT_TESTS_MODEL_LOAD_SUPPORT_H_

#include <functional>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/model.h"
#include "gtest/gtest.h"
#include "model_writer.h"
#include "tiny_checkpoint.h"

namespace edgenmt {
namespace model_load_testing {

using converter::ModelFileContents;
using converter::TensorRecord;
using testing::AlignedBuffer;

// The contents of a good tiny model, built once.
inline const ModelFileContents& GoodContents() {
  static const ModelFileContents contents = [] {
    testing::TempDir dir;
    testing::WriteTinyCheckpoint(dir / "ckpt");
    converter::ConvertOptions options;
    options.created = "2024-01-01";
    return converter::MakeModelFileContents(converter::LoadCheckpoint(dir / "ckpt"), options);
  }();
  return contents;
}

struct LoadResult {
  Status status;
  std::string detail;
};

inline LoadResult LoadBytes(const std::vector<uint8_t>& bytes) {
  AlignedBuffer buffer(bytes);
  Model model;
  const Status status = model.Load(buffer.data(), buffer.size());
  EXPECT_EQ(model.loaded(), status == Status::kOk);
  return {status, model.error_detail()};
}

// Builds GoodContents() after `mutate` and loads it.
inline LoadResult LoadMutated(const std::function<void(ModelFileContents&)>& mutate) {
  ModelFileContents contents = GoodContents();
  mutate(contents);
  return LoadBytes(converter::BuildModelFile(contents));
}

inline TensorRecord& Tensor(ModelFileContents& c, const std::string& name) {
  for (TensorRecord& t : c.tensors) {
    if (t.name == name) return t;
  }
  ADD_FAILURE() << "no tensor " << name;
  return c.tensors.front();
}

#define EXPECT_LOAD_FAILS(result, want_status, want_text)                               \
  do {                                                                                  \
    const ::edgenmt::model_load_testing::LoadResult r_ = (result);                      \
    EXPECT_EQ(r_.status, want_status) << StatusName(r_.status) << ": " << r_.detail;    \
    EXPECT_NE(r_.detail.find(want_text), std::string::npos) << "detail: " << r_.detail; \
  } while (0)

}  // namespace model_load_testing
}  // namespace edgenmt

#endif  // EDGENMT_TESTS_MODEL_LOAD_SUPPORT_H_
