// Reading (and, for tests and tools, writing) safetensors files holding F32 tensors.
// Format: 8-byte little-endian header length N, N bytes of JSON
// {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}, then data.
#ifndef EDGENMT_CONVERTER_SAFETENSORS_H_
#define EDGENMT_CONVERTER_SAFETENSORS_H_

#include <stdint.h>

#include <map>
#include <string>
#include <vector>

namespace edgenmt::converter {

struct FloatTensor {
  std::vector<int64_t> shape;
  std::vector<float> data;  // row-major, element_count(shape) values
};

using TensorMap = std::map<std::string, FloatTensor>;

// Parses a whole safetensors file. Every entry must be dtype F32 with a shape whose byte size
// matches its data_offsets, inside the data section, not overlapping another tensor.
// Throws ConvertError(kExitBadInput) naming `path` or the tensor.
TensorMap ParseSafetensors(const std::vector<uint8_t>& file, const std::string& path);

// Serializes tensors as F32 safetensors (sorted by name, packed in that order).
std::vector<uint8_t> SerializeSafetensors(const TensorMap& tensors);

}  // namespace edgenmt::converter

#endif  // EDGENMT_CONVERTER_SAFETENSORS_H_
