#include "encode_tensor.h"

#include <string.h>

#include "convert_error.h"
#include "quantize.h"

namespace edgenmt::converter {
namespace {

// int8-full biases live in the Q11.20 accumulation format (docs/INT8.md).
constexpr int kInt8FullBiasFracBits = 20;

void StoreFloat32(const FloatTensor& tensor, TensorRecord* record) {
  record->dtype = DType::kF32;
  record->data.resize(tensor.data.size() * sizeof(float));
  if (!tensor.data.empty()) memcpy(record->data.data(), tensor.data.data(), record->data.size());
}

// Symmetric int8, one scale per row (axis 0): weights [out, in] and embeddings [V, dim].
void StoreInt8PerRow(const std::string& name, const FloatTensor& tensor, TensorRecord* record) {
  if (tensor.shape.size() != 2)
    throw ConvertError(kExitBadInput, name, "int8 per-row quantization needs a rank-2 tensor");
  const int64_t rows = tensor.shape[0], cols = tensor.shape[1];
  QuantizedRows q = QuantizeRowsSymmetric(tensor.data.data(), rows, cols);
  record->dtype = DType::kI8;
  record->data.resize(q.values.size());
  if (!q.values.empty()) memcpy(record->data.data(), q.values.data(), q.values.size());
  record->scales = std::move(q.scales);
  record->axis = 0;
}

void StoreInt32FixedPoint(const std::string& name, const FloatTensor& tensor, int frac_bits,
                          TensorRecord* record) {
  (void)name;
  const std::vector<int32_t> q = QuantizeBiasFixedPoint(
      tensor.data.data(), static_cast<int64_t>(tensor.data.size()), frac_bits);
  record->dtype = DType::kI32;
  record->data.resize(q.size() * sizeof(int32_t));
  if (!q.empty()) memcpy(record->data.data(), q.data(), record->data.size());
  record->scales = {1.0f / static_cast<float>(int64_t{1} << frac_bits)};
  record->axis = -1;
}

}  // namespace

TensorRecord EncodeTensor(const std::string& name, const FloatTensor& tensor, TensorRole role,
                          QuantScheme scheme) {
  TensorRecord record;
  record.name = name;
  for (int64_t d : tensor.shape) record.shape.push_back(static_cast<int32_t>(d));
  if (scheme == QuantScheme::kFloat32) {
    StoreFloat32(tensor, &record);
    return record;
  }
  if (scheme != QuantScheme::kInt8Hybrid && scheme != QuantScheme::kInt8Full)
    throw ConvertError(kExitUsage, "--dtype", "unknown quantization scheme");
  switch (role) {
    case TensorRole::kNorm:
    case TensorRole::kPosition:
      // Layer norms and position tables act elementwise: float in the hybrid scheme, Q11.20
      // integers in int8-full (docs/INT8.md "int8-full Transformer").
      if (scheme == QuantScheme::kInt8Full) {
        StoreInt32FixedPoint(name, tensor, kInt8FullBiasFracBits, &record);
      } else {
        StoreFloat32(tensor, &record);
      }
      return record;
    case TensorRole::kEmbedding:
    case TensorRole::kWeight: StoreInt8PerRow(name, tensor, &record); return record;
    case TensorRole::kBias:
      // Hybrid: elementwise work is float, biases stay float. Full: Q11.20 integers.
      if (scheme == QuantScheme::kInt8Hybrid) {
        StoreFloat32(tensor, &record);
      } else {
        StoreInt32FixedPoint(name, tensor, kInt8FullBiasFracBits, &record);
      }
      return record;
  }
  throw ConvertError(kExitBadInput, name, "unknown tensor role");
}

TensorQuantizationReport ReportTensor(const std::string& name, const FloatTensor& tensor,
                                      const TensorRecord& record) {
  TensorQuantizationReport r;
  r.name = name;
  r.elements = static_cast<int64_t>(tensor.data.size());
  r.float_bytes = r.elements * 4;
  r.stored_bytes = static_cast<int64_t>(record.data.size() + record.scales.size() * sizeof(float) +
                                        record.zero_points.size() * sizeof(int32_t));
  std::vector<float> approx(tensor.data.size());
  switch (record.dtype) {
    case DType::kF32:
      r.storage = "f32";
      memcpy(approx.data(), record.data.data(), record.data.size());
      break;
    case DType::kI8: {
      r.storage = record.axis == 0 ? "int8/row" : "int8";
      const int64_t rows = record.shape.empty() ? 1 : record.shape[0];
      const int64_t cols = rows > 0 ? r.elements / rows : 0;
      for (int64_t i = 0; i < r.elements; ++i) {
        const float scale =
            record.axis == 0 ? record.scales[static_cast<size_t>(i / cols)] : record.scales[0];
        approx[static_cast<size_t>(i)] =
            scale * static_cast<float>(static_cast<int8_t>(record.data[static_cast<size_t>(i)]));
      }
      break;
    }
    case DType::kI32: {
      r.storage = "int32";
      const int32_t* q = reinterpret_cast<const int32_t*>(record.data.data());
      for (int64_t i = 0; i < r.elements; ++i)
        approx[static_cast<size_t>(i)] =
            static_cast<float>(static_cast<double>(q[i]) * record.scales[0]);
      break;
    }
    case DType::kI16: r.storage = "int16"; break;
  }
  r.sqnr_db = SqnrDb(tensor.data.data(), approx.data(), r.elements);
  return r;
}

}  // namespace edgenmt::converter
