#include "safetensors.h"

#include <string.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "convert_error.h"

namespace edgenmt::converter {
namespace {

constexpr uint64_t kMaxHeaderBytes = 100u << 20;  // as the safetensors reference implementation

ConvertError Bad(const std::string& where, const std::string& reason) {
  return ConvertError(kExitBadInput, where, reason);
}

}  // namespace

TensorMap ParseSafetensors(const std::vector<uint8_t>& file, const std::string& path) {
  if (file.size() < 8)
    throw Bad(path,
              "too short for a safetensors header (" + std::to_string(file.size()) + " bytes)");
  uint64_t header_size = 0;
  for (int i = 7; i >= 0; --i) header_size = (header_size << 8) | file[static_cast<size_t>(i)];
  if (header_size > kMaxHeaderBytes || header_size > file.size() - 8)
    throw Bad(path, "header length " + std::to_string(header_size) + " exceeds the file (" +
                        std::to_string(file.size()) + " bytes)");
  const char* header_begin = reinterpret_cast<const char*>(file.data() + 8);
  nlohmann::json header = nlohmann::json::parse(header_begin, header_begin + header_size, nullptr,
                                                /*allow_exceptions=*/false);
  if (header.is_discarded() || !header.is_object()) throw Bad(path, "header is not a JSON object");

  const uint8_t* data = file.data() + 8 + header_size;
  const uint64_t data_size = file.size() - 8 - header_size;
  struct Range {
    uint64_t begin, end;
    std::string name;
  };
  std::vector<Range> ranges;
  TensorMap tensors;
  for (auto it = header.begin(); it != header.end(); ++it) {
    const std::string& name = it.key();
    if (name == "__metadata__") continue;
    const std::string where = path + ": tensor " + name;
    const nlohmann::json& entry = it.value();
    if (!entry.is_object()) throw Bad(where, "entry is not an object");
    if (!entry.contains("dtype") || !entry["dtype"].is_string()) throw Bad(where, "missing dtype");
    const std::string dtype = entry["dtype"].get<std::string>();
    if (dtype != "F32") throw Bad(where, "dtype " + dtype + ", only F32 checkpoints are supported");
    if (!entry.contains("shape") || !entry["shape"].is_array()) throw Bad(where, "missing shape");
    FloatTensor tensor;
    uint64_t count = 1;
    for (const nlohmann::json& d : entry["shape"]) {
      if (!d.is_number_unsigned()) throw Bad(where, "shape has a non-integer or negative dim");
      const uint64_t dim = d.get<uint64_t>();
      if (dim > (uint64_t{1} << 40) || (dim != 0 && count > (uint64_t{1} << 40) / dim))
        throw Bad(where, "shape is absurdly large");
      count *= dim;
      tensor.shape.push_back(static_cast<int64_t>(dim));
    }
    const nlohmann::json offsets = entry.value("data_offsets", nlohmann::json());
    if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
        !offsets[1].is_number_unsigned())
      throw Bad(where, "data_offsets must be [begin, end]");
    const uint64_t begin = offsets[0].get<uint64_t>(), end = offsets[1].get<uint64_t>();
    if (begin > end || end > data_size)
      throw Bad(where, "data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) +
                           "] outside the " + std::to_string(data_size) + "-byte data section");
    if (end - begin != count * sizeof(float))
      throw Bad(where, "data_offsets span " + std::to_string(end - begin) + " bytes, shape needs " +
                           std::to_string(count * sizeof(float)));
    tensor.data.resize(count);
    if (count > 0) memcpy(tensor.data.data(), data + begin, count * sizeof(float));
    ranges.push_back({begin, end, name});
    tensors.emplace(name, std::move(tensor));
  }
  std::sort(ranges.begin(), ranges.end(),
            [](const Range& a, const Range& b) { return a.begin < b.begin; });
  for (size_t i = 1; i < ranges.size(); ++i) {
    if (ranges[i].begin < ranges[i - 1].end && ranges[i].begin != ranges[i].end)
      throw Bad(path + ": tensor " + ranges[i].name, "data overlaps tensor " + ranges[i - 1].name);
  }
  return tensors;
}

std::vector<uint8_t> SerializeSafetensors(const TensorMap& tensors) {
  nlohmann::json header = nlohmann::json::object();
  uint64_t offset = 0;
  for (const auto& [name, tensor] : tensors) {
    const uint64_t bytes = tensor.data.size() * sizeof(float);
    header[name] = {
        {"dtype", "F32"}, {"shape", tensor.shape}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  header["__metadata__"] = {{"format", "pt"}};
  std::string text = header.dump();
  while ((8 + text.size()) % 8 != 0) text.push_back(' ');  // data 8-byte aligned, as torch does
  std::vector<uint8_t> file(8 + text.size() + offset);
  const uint64_t n = text.size();
  for (int i = 0; i < 8; ++i) file[static_cast<size_t>(i)] = static_cast<uint8_t>(n >> (8 * i));
  memcpy(file.data() + 8, text.data(), text.size());
  uint8_t* out = file.data() + 8 + text.size();
  for (const auto& [name, tensor] : tensors) {
    const size_t bytes = tensor.data.size() * sizeof(float);
    if (bytes > 0) memcpy(out, tensor.data.data(), bytes);
    out += bytes;
  }
  return file;
}

}  // namespace edgenmt::converter
