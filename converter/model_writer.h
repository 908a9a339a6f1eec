// Builds the bytes of an .enmt file (schema/edgenmt.fbs) with the FlatBuffers builder.
#ifndef EDGENMT_CONVERTER_MODEL_WRITER_H_
#define EDGENMT_CONVERTER_MODEL_WRITER_H_

#include <stdint.h>

#include <string>
#include <vector>

#include "edgenmt/model.h"
#include "encode_tensor.h"

namespace edgenmt::converter {

struct VocabularyRecord {
  std::vector<std::string> tokens;  // id i = tokens[i]
  int32_t pad_id = 0, unk_id = 1, bos_id = 2, eos_id = 3;
};

// Fixed-point format of an int16 activation (int8-full LSTM cells, docs/INT8.md).
struct ActivationFormatRecord {
  std::string name;  // as ExpectedActivations() names it
  int32_t int_bits;  // Q(int_bits).(15 - int_bits), 1..6
};

struct ModelFileContents {
  uint32_t format_version = kFormatVersion;
  ModelConfig config{};
  VocabularyRecord src_vocab, tgt_vocab;
  std::vector<TensorRecord> tensors;  // one buffer per tensor, in this order
  DecodingOptions decoding{};
  ArenaPlan arena_plan{};
  std::string checkpoint_sha256, converter_version, created, source;
  // Required for int8-full LSTM models (one per ExpectedActivations() name), empty otherwise.
  std::vector<ActivationFormatRecord> activations;
  // Alignment of tensor data relative to the file start. Always kModelBufferAlignment in real
  // files; tests lower it to produce misaligned files.
  size_t data_alignment = kModelBufferAlignment;
};

// Serializes `contents`. The result is a complete file (identifier "ENMT"); its size is a
// multiple of data_alignment so data offsets are aligned relative to the file start.
std::vector<uint8_t> BuildModelFile(const ModelFileContents& contents);

}  // namespace edgenmt::converter

#endif  // EDGENMT_CONVERTER_MODEL_WRITER_H_
