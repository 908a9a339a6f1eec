// A loaded, verified edgenmt model: a read-only view over a caller-owned buffer.
//
// Ownership and lifetime: Model never copies the file. The buffer passed to Load() (flash, an
// mmap, a static array) must stay valid and unchanged for as long as the Model and every
// Translator made from it are used. Model owns no heap memory; it is safe to place it in static
// storage or on the stack. Load() verifies everything before returning kOk (FlatBuffers
// verifier, then semantic checks: version, dtypes, shapes against buffer sizes with
// overflow-checked arithmetic, quantization parameters, vocabularies, config consistency,
// 64-byte alignment of tensor data); after kOk, no accessor can read outside the buffer.
//
// Alignment: the buffer must start at a 64-byte boundary (tensor data is 64-byte aligned
// relative to the file start); Load() returns kInvalidArgument otherwise.
#ifndef EDGENMT_MODEL_H_
#define EDGENMT_MODEL_H_

#include <stddef.h>
#include <stdint.h>

#include "edgenmt/decoding_options.h"
#include "edgenmt/status.h"

namespace edgenmt {

// The model file format version this runtime writes and reads. Files with a larger version
// are refused (kModelVersionUnsupported); older versions listed in model.cc still load.
// Version 2 holds the RNN's options in Config.rnn; version 1 files (flat Config fields) load.
constexpr uint32_t kFormatVersion = 2;
constexpr uint32_t kOldestSupportedFormatVersion = 1;
constexpr size_t kModelBufferAlignment = 64;
constexpr int32_t kMaxTensorRank = 4;

enum class DType : uint8_t { kF32 = 0, kI8 = 1, kI16 = 2, kI32 = 3 };
// Bytes per element of `dtype` (0 for a value outside the enum).
constexpr size_t DTypeSize(DType dtype) {
  return dtype == DType::kF32   ? 4
         : dtype == DType::kI8  ? 1
         : dtype == DType::kI16 ? 2
         : dtype == DType::kI32 ? 4
                                : 0;
}
enum class CellType : uint8_t { kLstm = 0, kGru = 1 };
enum class AttentionType : uint8_t {
  kNone = 0,
  kGlobal = 1,
  kLocalM = 2,
  kLocalP = 3,
  kBahdanau = 4
};
enum class ScoreType : uint8_t { kDot = 0, kGeneral = 1, kConcat = 2, kLocation = 3 };
enum class TokenizerType : uint8_t { kChar = 0, kWord = 1 };
// The model family: which decoder implementation runs the file (docs/MODEL.md "Model types").
enum class ModelType : uint8_t { kRnn = 0, kTransformer = 1 };
// How the weights are stored and which arithmetic the runtime uses (docs/MODEL.md, docs/INT8.md).
enum class QuantScheme : uint8_t { kFloat32 = 0, kInt8Hybrid = 1, kInt8Full = 2 };

// The Transformer's options (docs/MODEL.md "Transformer"), ModelConfig::transformer.
enum class FeedForwardActivation : uint8_t { kRelu = 0, kGelu = 1 };  // GELU: the erf form
enum class NormPlacement : uint8_t { kPre = 0, kPost = 1 };  // x + f(LN(x)) or LN(x + f(x))
enum class PositionEncoding : uint8_t { kSinusoidal = 0, kLearned = 1 };  // both stored tables
struct TransformerConfig {
  int32_t d_model;
  int32_t heads;        // d_model is a multiple of heads
  int32_t ffn;          // feed-forward width
  int32_t max_tgt_len;  // rows of the target position table: the longest output
  FeedForwardActivation activation;
  NormPlacement norm;
  PositionEncoding positions;
  bool tie_output;  // the generator multiplies by tgt_embed.weight
};

// The RNN's options (docs/MODEL.md "config.json"), ModelConfig::rnn. Sizes are element counts.
struct RnnConfig {
  CellType cell;
  int32_t src_embed;
  int32_t tgt_embed;
  int32_t enc_hidden;  // per direction
  bool bidirectional;
  bool reverse_source;
  int32_t dec_hidden;
  bool bridge;
  bool input_feeding;
  AttentionType attention;
  ScoreType score;
  int32_t attn_hidden;
  int32_t window;  // local attention half-width D
};

// Every architecture option of docs/MODEL.md: the fields common to both model types, then one
// part per type: `rnn` (zero in a Transformer's config) and `transformer` (zero in an RNN's).
// Sizes are element counts. A zero-initialised config is an RNN model's.
struct ModelConfig {
  int32_t src_vocab_size;
  int32_t tgt_vocab_size;
  int32_t enc_layers;
  int32_t dec_layers;
  int32_t max_src_len;  // the longest source the model accepts (location score width)
  TokenizerType tokenizer;
  QuantScheme scheme;
  ModelType model_type;           // kRnn (zero-initialised configs are RNN models)
  RnnConfig rnn;                  // model_type kRnn only
  TransformerConfig transformer;  // model_type kTransformer only

  int32_t encoder_output_size() const {
    if (model_type == ModelType::kTransformer) return transformer.d_model;
    return rnn.bidirectional ? 2 * rnn.enc_hidden : rnn.enc_hidden;
  }
  // Whether a decoder step yields attention weights over the source (coverage, alignments):
  // the RNN with attention, and every Transformer (its last layer's cross-attention).
  bool has_attention() const {
    return model_type == ModelType::kTransformer || rnn.attention != AttentionType::kNone;
  }
};

// Caps that keep every size computation far from int32 overflow and reject absurd files.
constexpr int32_t kMaxModelDim = 1 << 20;  // any vocabulary, embedding, hidden size, length
constexpr int32_t kMaxModelLayers = 32;    // enc_layers, dec_layers
// kMaxDecodingBeam (edgenmt/decoding_options.h) caps the stored beam and the arena plan's.

// Checks a config against docs/MODEL.md: sizes in [1, kMaxModelDim] (attn_hidden and window
// may be 0 where unused), layers in [1, kMaxModelLayers], enums in range, `dot` needs E == H,
// input_feeding needs attention, local attention needs window >= 1, concat/bahdanau/local_p need
// attn_hidden >= 1. Returns kOk or kModelConfigInvalid and writes the failing field into
// `detail` (NUL-terminated, truncated to detail_size; detail may be null). Used by Model::Load
// and by the converter, so both accept exactly the same configs.
Status ValidateModelConfig(const ModelConfig& config, char* detail, size_t detail_size);

// The former name of the stored decoding defaults' type, kept for source compatibility.
using DecodingDefaults = DecodingOptions;

// The arena plan recorded by the converter for (max_src_len, beam).
struct ArenaPlan {
  int32_t max_src_len;
  int32_t beam;
  uint64_t bytes;
};

// A tensor inside the model buffer. `data` points into the caller's buffer, 64-byte aligned.
// Quantized tensors (kI8/kI16/kI32) carry `num_scales` scales: 1 (per tensor) or shape[axis]
// (per channel along `quant_axis`); zero_points is null for symmetric tensors.
struct TensorView {
  const char* name;  // NUL-terminated, inside the model buffer
  DType dtype;
  int32_t rank;
  int32_t shape[kMaxTensorRank];
  const void* data;
  size_t bytes;         // exactly element_count * dtype size
  const float* scales;  // null for kF32
  int32_t num_scales;
  const int32_t* zero_points;  // null when symmetric
  int32_t quant_axis;          // -1 for per-tensor

  int64_t element_count() const {
    int64_t n = 1;
    for (int32_t i = 0; i < rank; ++i) n *= shape[i];
    return n;
  }
};

// A token string inside the model buffer (not NUL-terminated in general).
struct TokenView {
  const char* data;
  uint32_t size;
};

struct VocabularyView {
  const void* impl;  // private: the FlatBuffers table
  int32_t size;
  int32_t pad_id, unk_id, bos_id, eos_id;
  TokenView Token(int32_t id) const;  // id must be in [0, size); empty view otherwise
  // The id whose token is exactly bytes [data, data + size), or -1. Binary search over the
  // file's sorted index: O(log V), no heap.
  int32_t Find(const char* data, uint32_t size) const;
};

struct Provenance {
  const char* checkpoint_sha256;  // hex, NUL-terminated, inside the buffer ("" if absent)
  const char* converter_version;
  const char* created;  // ISO 8601 date
  const char* source;   // checkpoint path or name as given to the converter
};

class Model {
 public:
  Model() = default;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // Verifies `data[0, size)` and makes this Model a view over it. Returns kOk or the first
  // problem found; error_detail() then names it (tensor name, field, expected vs. found).
  Status Load(const void* data, size_t size);

  bool loaded() const { return loaded_; }
  uint32_t format_version() const { return format_version_; }
  const ModelConfig& config() const { return config_; }
  // Decoding defaults stored by the converter (checked by ValidateDecodingOptions at Load).
  const DecodingOptions& decoding_defaults() const { return decoding_; }
  const ArenaPlan& arena_plan() const { return arena_plan_; }
  Provenance provenance() const;
  VocabularyView src_vocab() const { return src_vocab_; }
  VocabularyView tgt_vocab() const { return tgt_vocab_; }

  int32_t num_tensors() const;
  // Tensors by index [0, num_tensors()) or by exact name. kModelTensorMissing if absent.
  Status TensorAt(int32_t index, TensorView* out) const;
  Status FindTensor(const char* name, TensorView* out) const;

  // int8-full LSTM models: the stored fixed-point format Q(int_bits).(15 - int_bits) of the
  // activation `name` (tensor_layout.h ExpectedActivations() lists the names; Load() checks
  // every one is present with int_bits in [1, 6]). kModelTensorMissing if absent.
  Status FindActivationFormat(const char* name, int32_t* int_bits) const;

  // int8-full: the stored requantization constants (docs/INT8.md "Requantization constants")
  // of int8 tensor `name` for an input of scale input_scale_bits (float32 bit pattern);
  // rescale_rows selects an embedding's row rescale. multiplier / shift point into the model
  // buffer, one per row; Load() recomputed every entry. kModelTensorMissing when absent.
  Status FindRequantization(const char* name, uint32_t input_scale_bits, bool rescale_rows,
                            const int32_t** multiplier, const int32_t** shift) const;

  // Short description of the last failure, NUL-terminated, never null.
  const char* error_detail() const { return error_detail_; }

  const void* buffer() const { return buffer_; }
  size_t buffer_size() const { return buffer_size_; }

 private:
  // Records the concatenated parts (C strings, integers) as error_detail(); defined in model.cc.
  template <typename... Parts>
  Status Fail(Status status, const Parts&... parts);
  // Load's two stages, in separate frames: the verifier's and the config's locals are gone
  // before the expected-tensor walk (Load's deepest call chain) starts.
  Status VerifyAndRead(const void* data, size_t size);
  Status CheckTensorSet();

  const void* buffer_ = nullptr;
  size_t buffer_size_ = 0;
  const void* root_ = nullptr;  // the FlatBuffers root table
  bool loaded_ = false;
  uint32_t format_version_ = 0;
  ModelConfig config_{};
  DecodingOptions decoding_{};
  ArenaPlan arena_plan_{};
  VocabularyView src_vocab_{};
  VocabularyView tgt_vocab_{};
  char error_detail_[160] = {0};
};

}  // namespace edgenmt

#endif  // EDGENMT_MODEL_H_
