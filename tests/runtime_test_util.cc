#include "runtime_test_util.h"

#include <gtest/gtest.h>

#include "convert_error.h"
#include "model_writer.h"

namespace edgenmt::testing {
namespace {

std::unique_ptr<LoadedModel> Finish(converter::Checkpoint checkpoint,
                                    const converter::ConvertOptions& options) {
  auto loaded = std::make_unique<LoadedModel>();
  loaded->checkpoint = std::move(checkpoint);
  const std::vector<uint8_t> file =
      converter::BuildModelFile(converter::MakeModelFileContents(loaded->checkpoint, options));
  loaded->buffer = std::make_unique<AlignedBuffer>(file);
  const Status status = loaded->model.Load(loaded->buffer->data(), loaded->buffer->size());
  EXPECT_EQ(status, Status::kOk) << loaded->model.error_detail();
  if (status != Status::kOk) return nullptr;
  return loaded;
}

}  // namespace

const converter::FloatTensor& LoadedModel::Tensor(const std::string& name) const {
  const auto it = checkpoint.tensors.find(name);
  if (it == checkpoint.tensors.end()) {
    ADD_FAILURE() << "no tensor " << name;
    static const converter::FloatTensor empty;
    return empty;
  }
  return it->second;
}

std::unique_ptr<LoadedModel> LoadCheckpointDir(const std::string& dir,
                                               const converter::ConvertOptions& options) {
  try {
    return Finish(converter::LoadCheckpoint(dir), options);
  } catch (const converter::ConvertError& e) {
    ADD_FAILURE() << "checkpoint " << dir << ": " << e.what();
    return nullptr;
  }
}

std::unique_ptr<LoadedModel> MakeRandomModel(const ModelConfig& config, uint32_t seed,
                                             const converter::ConvertOptions& options) {
  converter::Checkpoint checkpoint;
  checkpoint.dir = "(in memory)";
  checkpoint.config = config;
  checkpoint.src_tokens = TinyTokens(config.src_vocab_size);
  checkpoint.tgt_tokens = TinyTokens(config.tgt_vocab_size);
  checkpoint.tensors = TinyTensors(config, seed);
  try {
    return Finish(std::move(checkpoint), options);
  } catch (const converter::ConvertError& e) {
    ADD_FAILURE() << "random model: " << e.what();
    return nullptr;
  }
}

converter::ConvertOptions CalibratedOptions(QuantScheme scheme, int32_t max_len,
                                            int64_t calibration_lines) {
  converter::ConvertOptions options;
  options.scheme = scheme;
  options.decoding.max_len = max_len;
  options.created = "2024-01-01";
  options.calibration_path = std::string(EDGENMT_SOURCE_DIR) + "/data/g2p/dev.tsv";
  options.calibration_required = true;
  options.calibration_max_lines = calibration_lines;
  return options;
}

AlignedArena::AlignedArena(size_t bytes) : storage_(bytes + 64, 0), size_(bytes) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(storage_.data());
  data_ = storage_.data() + ((64 - address % 64) % 64);
}

}  // namespace edgenmt::testing
