// A training checkpoint directory (docs/MODEL.md "Checkpoint directory"), read and checked
// against the model contract: config.json, model.safetensors, src.vocab, tgt.vocab.
#ifndef EDGENMT_CONVERTER_CHECKPOINT_H_
#define EDGENMT_CONVERTER_CHECKPOINT_H_

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "edgenmt/model.h"
#include "safetensors.h"

namespace edgenmt::converter {

struct Checkpoint {
  std::string dir;
  ModelConfig config{};  // scheme is kFloat32 (checkpoints are float)
  std::vector<std::string> src_tokens;
  std::vector<std::string> tgt_tokens;
  TensorMap tensors;
  std::string safetensors_sha256;  // hex digest of model.safetensors as read
};

// Reads and fully checks a checkpoint directory: config valid (ValidateModelConfig), vocab
// line counts equal the config sizes with <pad> <unk> <s> </s> as ids 0..3 and no empty or
// duplicate token, and exactly the tensors ExpectedTensors() lists, with their exact shapes
// and finite values. Throws ConvertError(kExitBadInput) naming the file or the tensor.
Checkpoint LoadCheckpoint(const std::string& dir);

// config.json's object -> ModelConfig (keys exactly as docs/MODEL.md). `path` is used in errors.
ModelConfig ParseConfigJson(const nlohmann::json& json, const std::string& path);
// The inverse, for tests and tools.
nlohmann::json ConfigToJson(const ModelConfig& config);

// One token per line, line i is id i; "\n" or "\r\n" line ends; a final newline is optional.
std::vector<std::string> ReadVocabFile(const std::string& path);

// Reads a whole file; throws ConvertError(kExitBadInput, path) if it cannot.
std::vector<uint8_t> ReadFileBytes(const std::string& path);

}  // namespace edgenmt::converter

#endif  // EDGENMT_CONVERTER_CHECKPOINT_H_
