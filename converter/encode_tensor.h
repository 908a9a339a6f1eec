// The one place a checkpoint tensor becomes a stored tensor. Quantization (int8 schemes) plugs
// in here: converter/quantize*.cc add the integer encodings, everything else stays the same.
#ifndef EDGENMT_CONVERTER_ENCODE_TENSOR_H_
#define EDGENMT_CONVERTER_ENCODE_TENSOR_H_

#include <stdint.h>

#include <string>
#include <vector>

#include "edgenmt/model.h"
#include "edgenmt/internal/tensor_layout.h"
#include "quantize.h"
#include "safetensors.h"

namespace edgenmt::converter {

// int8-full requantization constants of one int8 tensor for one input scale (schema
// Requantization, docs/INT8.md "Requantization constants").
struct RequantizationRecord {
  float input_scale = 1.0f;
  bool rescale_rows = false;  // an embedding's rows to its shared scale (input_scale)
  std::vector<int32_t> multiplier;
  std::vector<int32_t> shift;
};

// A tensor ready to be written: raw little-endian bytes plus quantization parameters.
struct TensorRecord {
  std::string name;
  DType dtype = DType::kF32;
  std::vector<int32_t> shape;
  std::vector<uint8_t> data;                         // element_count * DTypeSize(dtype) bytes
  std::vector<float> scales;                         // empty for kF32
  std::vector<int32_t> zero_points;                  // empty = symmetric
  int32_t axis = -1;                                 // quantization axis, -1 = per tensor
  std::vector<RequantizationRecord> requantization;  // int8-full int8 tensors
};

// Encodes `tensor` (whose shape already matches the config) for `scheme` given its `role`
// (docs/INT8.md "Storage"): kFloat32 stores the values as they are; both int8 schemes store
// weights and embeddings as int8 with one scale per row; biases stay float32 (hybrid) or become
// int32 Q11.20 (int8-full).
TensorRecord EncodeTensor(const std::string& name, const FloatTensor& tensor, TensorRole role,
                          QuantScheme scheme);

// Storage, sizes and SQNR of `record` against the checkpoint tensor it was encoded from.
TensorQuantizationReport ReportTensor(const std::string& name, const FloatTensor& tensor,
                                      const TensorRecord& record);

}  // namespace edgenmt::converter

#endif  // EDGENMT_CONVERTER_ENCODE_TENSOR_H_
