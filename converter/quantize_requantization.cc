// int8-full requantization constants stored beside the int8 tensors (docs/INT8.md
// "Requantization constants"), computed with the same functions Model::Load checks them with.
#include <string.h>

#include <string>
#include <vector>

#include "edgenmt/internal/int8_requantization.h"
#include "edgenmt/internal/tensor_layout.h"
#include "encode_tensor.h"
#include "quantize.h"

namespace edgenmt::converter {
namespace {

using fxp::BitsToFloat;
using fxp::FloatToBits;

const int8_t* Values(const TensorRecord& t) {
  return reinterpret_cast<const int8_t*>(t.data.data());
}

uint32_t SharedScaleBits(const TensorRecord& t) {
  return fxp::SharedEmbeddingScaleBits(t.scales.data(), Values(t), t.shape[0], t.shape[1]);
}

RequantizationRecord Entry(const TensorRecord& t, uint32_t input_bits, bool rescale_rows) {
  RequantizationRecord r;
  r.input_scale = BitsToFloat(input_bits);
  r.rescale_rows = rescale_rows;
  const size_t rows = t.scales.size();
  r.multiplier.resize(rows);
  r.shift.resize(rows);
  for (size_t i = 0; i < rows; ++i) {
    if (rescale_rows) {
      fxp::EmbeddingRowRescale(FloatToBits(t.scales[i]), input_bits, &r.multiplier[i], &r.shift[i]);
    } else {
      fxp::MatrixRowRequantization(input_bits, FloatToBits(t.scales[i]), &r.multiplier[i],
                                   &r.shift[i]);
    }
  }
  return r;
}

}  // namespace

void AddRequantization(const ModelConfig& config, std::vector<TensorRecord>* tensors) {
  if (config.scheme != QuantScheme::kInt8Full) return;
  uint32_t src_shared = fxp::kOneFloatBits, tgt_shared = fxp::kOneFloatBits;
  for (const TensorRecord& t : *tensors) {
    if (t.name == "src_embed.weight") src_shared = SharedScaleBits(t);
    if (t.name == "tgt_embed.weight") tgt_shared = SharedScaleBits(t);
  }
  const bool rnn = config.model_type == ModelType::kRnn;
  for (TensorRecord& t : *tensors) {
    if (t.dtype != DType::kI8 || t.shape.size() != 2) continue;
    const std::string& n = t.name;
    if (!rnn) {
      // Transformer: every int8 input has a power-of-two scale (the shift offset), embeddings
      // are read into Q11.20 row by row (docs/INT8.md "int8-full Transformer").
      t.requantization.push_back(Entry(t, fxp::kOneFloatBits, false));
    } else if (n == "src_embed.weight") {
      t.requantization.push_back(Entry(t, src_shared, true));
    } else if (n == "tgt_embed.weight") {
      t.requantization.push_back(Entry(t, tgt_shared, true));
    } else if (n == "encoder.rnn.weight_ih_l0" || n == "encoder.rnn.weight_ih_l0_reverse") {
      t.requantization.push_back(Entry(t, src_shared, false));
    } else if (n == "decoder.layers.0.weight_ih") {
      t.requantization.push_back(Entry(t, tgt_shared, false));
      if (DecoderInputSize(config) > config.rnn.tgt_embed) {
        t.requantization.push_back(Entry(t, fxp::kOneFloatBits, false));
      }
    } else {
      t.requantization.push_back(Entry(t, fxp::kOneFloatBits, false));
    }
  }
}

}  // namespace edgenmt::converter
