// The weight tensors a config needs: names and exact shapes, derived once from docs/MODEL.md.
//
// One definition shared by the converter (which checks a checkpoint against it), Model::Load
// (which checks a file against it) and the compute layers (which look tensors up by these
// names). No heap: tensors are reported one at a time to a callback.
#ifndef EDGENMT_TENSOR_LAYOUT_H_
#define EDGENMT_TENSOR_LAYOUT_H_

#include <stdint.h>

#include <type_traits>

#include "edgenmt/model.h"

namespace edgenmt {

// Longest name ExpectedTensors() produces, including the NUL ("encoder.rnn.weight_ih_l31_reverse").
constexpr int32_t kMaxTensorNameLength = 64;

// What a tensor is used for, so a quantizer can pick a storage type per role.
enum class TensorRole : uint8_t {
  kEmbedding = 0,  // [V, embed] lookup table: rows are gathered, never multiplied whole
  kWeight = 1,     // [out, in] matrix multiplied with a vector (rank 2)
  kBias = 2,       // [out] added after a matrix product (rank 1)
  kNorm = 3,       // [d] layer-norm gain or shift (Transformer)
  kPosition = 4,   // [max_len, d] position table added to scaled embeddings (Transformer)
};

struct ExpectedTensor {
  char name[kMaxTensorNameLength];  // PyTorch state_dict name, NUL-terminated
  int32_t rank;
  int32_t shape[kMaxTensorRank];
  TensorRole role;
};

// Called once per tensor; return false to stop early. The ExpectedTensor is valid only for the
// duration of the call.
using ExpectedTensorVisitor = bool (*)(const ExpectedTensor& tensor, void* user);

// Reports every tensor docs/MODEL.md requires for `config`, in a fixed order (RNN: source
// embedding, encoder layers forward then reverse, bridge, target embedding, decoder layers,
// attention, attn_out, generator; Transformer: embeddings, position tables, encoder layers,
// decoder layers, final norms, generator). `config` must pass ValidateModelConfig(); otherwise
// nothing is reported and the result is 0. Returns the number of tensors reported (including the
// one that stopped).
int32_t ExpectedTensors(const ModelConfig& config, ExpectedTensorVisitor visitor, void* user);

// Upper bound of ExpectedTensors()'s count for any valid config (fixed-array sizing).
constexpr int32_t kMaxRnnExpectedTensors =
    2 + 8 * kMaxModelLayers + 4 * kMaxModelLayers + 4 * kMaxModelLayers + 8 + 3;
constexpr int32_t kMaxTransformerExpectedTensors =
    4 + 16 * kMaxModelLayers + 26 * kMaxModelLayers + 4 + 2;
constexpr int32_t kMaxExpectedTensors = kMaxRnnExpectedTensors > kMaxTransformerExpectedTensors
                                            ? kMaxRnnExpectedTensors
                                            : kMaxTransformerExpectedTensors;

// Lambda-friendly form: `f` is called as `bool f(const ExpectedTensor&)`.
template <typename F>
int32_t ForEachExpectedTensor(const ModelConfig& config, F&& f) {
  using Fn = typename std::remove_reference<F>::type;
  return ExpectedTensors(
      config,
      [](const ExpectedTensor& tensor, void* user) {
        return static_cast<bool>((*static_cast<Fn*>(user))(tensor));
      },
      const_cast<void*>(static_cast<const void*>(&f)));
}

// Activations whose fixed-point format the int8-full scheme stores in the file (docs/INT8.md
// "Calibration"). RNN: one per LSTM cell instance, named "encoder.rnn.l{l}.cell",
// "encoder.rnn.l{l}_reverse.cell" (bidirectional) and "decoder.layers.{l}.cell" (none for GRU).
// Transformer: the residual streams ("encoder.residual", "decoder.residual"), every int8
// sublayer input, projection and feed-forward hidden layer ("encoder.{l}.self_attn.q", ...),
// the encoder's memory and the generator's input (docs/INT8.md "int8-full Transformer").
// None for other schemes. `visitor` gets the name, rank 0, role kWeight, and in shape[0],
// shape[1] the int_bits range a file may store, shape[2] 1 for an int8 format (s8 @
// 2^(int_bits - 7)) and 0 for an int16 one (Q(int_bits).(15 - int_bits)); same contract as
// ExpectedTensors().
int32_t ExpectedActivations(const ModelConfig& config, ExpectedTensorVisitor visitor, void* user);

// Valid int_bits of an LSTM cell format: Q(int_bits).(15 - int_bits).
constexpr int32_t kMinActivationIntBits = 1;
constexpr int32_t kMaxActivationIntBits = 6;
// The Transformer's: residual streams Q(0..10).(15 - int_bits) (widened to Q11.20 without
// overflow), int8 formats s8 @ 2^(int_bits - 7) for int_bits in [-8, 10].
constexpr int32_t kMinTransformerInt8IntBits = -8;
constexpr int32_t kMaxTransformerIntBits = 10;

// Lambda-friendly form of ExpectedActivations().
template <typename F>
int32_t ForEachExpectedActivation(const ModelConfig& config, F&& f) {
  using Fn = typename std::remove_reference<F>::type;
  return ExpectedActivations(
      config,
      [](const ExpectedTensor& tensor, void* user) {
        return static_cast<bool>((*static_cast<Fn*>(user))(tensor));
      },
      const_cast<void*>(static_cast<const void*>(&f)));
}

// Number of gate blocks stacked in a recurrent weight's rows: 4 (LSTM: i, f, g, o) or 3 (GRU).
constexpr int32_t GateCount(CellType cell) { return cell == CellType::kLstm ? 4 : 3; }

// Width of decoder layer 0's input: tgt_embed + (E if bahdanau) + (H if input_feeding).
constexpr int32_t DecoderInputSize(const ModelConfig& c) {
  return c.rnn.tgt_embed +
         (c.rnn.attention == AttentionType::kBahdanau ? c.encoder_output_size() : 0) +
         (c.rnn.input_feeding ? c.rnn.dec_hidden : 0);
}

}  // namespace edgenmt

#endif  // EDGENMT_TENSOR_LAYOUT_H_
