// Test helpers for the float runtime: models built in memory (from a checkpoint directory or
// from a config with random weights) and 16-byte aligned arenas.
#ifndef EDGENMT_TESTS_RUNTIME_TEST_UTIL_H_
#define EDGENMT_TESTS_RUNTIME_TEST_UTIL_H_

#include <stdint.h>

#include <memory>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/model.h"
#include "tiny_checkpoint.h"

namespace edgenmt::testing {

// A loaded Model together with the file bytes it views and the float tensors it came from.
struct LoadedModel {
  std::unique_ptr<AlignedBuffer> buffer;
  Model model;
  converter::Checkpoint checkpoint;  // config, vocabularies, float tensors
  const converter::FloatTensor& Tensor(const std::string& name) const;
};

// Converts a checkpoint directory in memory (the converter library, as edgenmt-convert does)
// and loads it. Fails the current test (returns null) on any error.
std::unique_ptr<LoadedModel> LoadCheckpointDir(const std::string& dir,
                                               const converter::ConvertOptions& options = {});

// A model from `config` with TinyTokens vocabularies and TinyTensors(config, seed) weights.
std::unique_ptr<LoadedModel> MakeRandomModel(const ModelConfig& config, uint32_t seed = 1,
                                             const converter::ConvertOptions& options = {});

// Converter options for `scheme` with a fixed creation date, the given default max_len and, for
// int8-full, calibration on the first `calibration_lines` lines of data/g2p/dev.tsv (required:
// a missing file fails the conversion instead of falling back to Q4.11).
converter::ConvertOptions CalibratedOptions(QuantScheme scheme, int32_t max_len,
                                            int64_t calibration_lines);

// Zeroed memory whose data() is 64-byte aligned (arena for Translator / layers).
class AlignedArena {
 public:
  explicit AlignedArena(size_t bytes);
  uint8_t* data() { return data_; }
  size_t size() const { return size_; }

 private:
  std::vector<uint8_t> storage_;
  uint8_t* data_;
  size_t size_;
};

}  // namespace edgenmt::testing

#endif  // EDGENMT_TESTS_RUNTIME_TEST_UTIL_H_
