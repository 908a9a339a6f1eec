#include "encode_tensor.h"

#include <string.h>

#include "convert_error.h"

namespace edgenmt::converter {

TensorRecord EncodeTensor(const std::string& name, const FloatTensor& tensor, TensorRole role,
                          QuantScheme scheme) {
  (void)role;  // float32 stores every role the same way; quantizers choose per role
  TensorRecord record;
  record.name = name;
  for (int64_t d : tensor.shape) record.shape.push_back(static_cast<int32_t>(d));
  switch (scheme) {
    case QuantScheme::kFloat32:
      record.dtype = DType::kF32;
      record.data.resize(tensor.data.size() * sizeof(float));
      if (!tensor.data.empty()) memcpy(record.data.data(), tensor.data.data(), record.data.size());
      return record;
    case QuantScheme::kInt8Hybrid:
    case QuantScheme::kInt8Full:
      break;
  }
  throw ConvertError(kExitUsage, "--dtype", "int8 quantization is not yet supported by this converter");
}

}  // namespace edgenmt::converter
