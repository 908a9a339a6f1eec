// Test helper: tiny but complete checkpoint directories (docs/MODEL.md) with random weights,
// and 64-byte aligned copies of model files for Model::Load.
#ifndef EDGENMT_TESTS_TINY_CHECKPOINT_H_
#define EDGENMT_TESTS_TINY_CHECKPOINT_H_

#include <stdint.h>
#include <stdlib.h>

#include <memory>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "edgenmt/model.h"
#include "safetensors.h"

namespace edgenmt::testing {

// LSTM, 1 bidirectional encoder layer, 2 decoder layers, bridge, input feeding, global/general,
// char tokenizer; every size small and distinct so transposed shapes are caught.
ModelConfig TinyConfig();

// "<pad>", "<unk>", "<s>", "</s>", then n - 4 distinct printable tokens.
std::vector<std::string> TinyTokens(int32_t n);

// Every tensor ExpectedTensors(config) lists, uniform random in [-0.5, 0.5) from `seed`.
converter::TensorMap TinyTensors(const ModelConfig& config, uint32_t seed = 1);

// Writes config.json, model.safetensors, src.vocab and tgt.vocab into `dir` (created if needed).
void WriteCheckpoint(const std::string& dir, const ModelConfig& config,
                     const converter::TensorMap& tensors,
                     const std::vector<std::string>& src_tokens,
                     const std::vector<std::string>& tgt_tokens);
// TinyTokens for both vocabularies and TinyTensors(config).
void WriteTinyCheckpoint(const std::string& dir, const ModelConfig& config = TinyConfig());
// The same checkpoint in memory (dir "tiny"), for converting without files.
converter::Checkpoint TinyCheckpoint();

// A fresh empty directory under $TMPDIR (or /tmp), removed with its contents on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  // Names of the entries in the directory (no "." / "..").
  std::vector<std::string> List() const;

 private:
  std::string path_;
};

// A copy of `bytes` at a 64-byte aligned address (plus `offset` bytes, to test misalignment).
class AlignedBuffer {
 public:
  explicit AlignedBuffer(const std::vector<uint8_t>& bytes, size_t offset = 0);
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  std::unique_ptr<uint8_t, decltype(&free)> storage_;
  uint8_t* data_;
  size_t size_;
};

std::vector<uint8_t> ReadFile(const std::string& path);
std::string ReadText(const std::string& path);

// A model file read from `path` into an AlignedBuffer and loaded; status is Model::Load's.
struct LoadedModelFile {
  explicit LoadedModelFile(const std::string& path) : buffer(ReadFile(path)) {
    status = model.Load(buffer.data(), buffer.size());
  }
  AlignedBuffer buffer;
  Model model;
  Status status;
};

}  // namespace edgenmt::testing

#endif  // EDGENMT_TESTS_TINY_CHECKPOINT_H_
