// Model::Load: verify a model file completely before anything reads it.
//
// Order: buffer argument checks, file identifier, the format version (read through a minimal
// verification of the root table, so a file from a newer converter reports its version rather
// than "malformed"), the full FlatBuffers verifier, then semantic checks (config, decoding
// defaults, arena plan, vocabularies, every tensor, and the tensor set the config requires).
// After kOk, accessors index the buffer without further checks.
#include "edgenmt/model.h"

#include <math.h>
#include <string.h>

#include "edgenmt/schema/edgenmt_generated.h"
#include "edgenmt/tensor_layout.h"
#include "error_detail.h"

namespace edgenmt {
namespace {

namespace fb = ::edgenmt::schema;

// Nesting in our schema is at most Model -> vector<Tensor> -> Tensor -> Quantization -> vector.
constexpr flatbuffers::uoffset_t kVerifierMaxDepth = 16;
// Tables: root + 7 + 2 per tensor + 1 per buffer; tensors are capped below.
constexpr flatbuffers::uoffset_t kVerifierMaxTables = 1u << 16;
constexpr uint32_t kMaxTensors = 4096;
constexpr uint32_t kMaxBuffers = 4096;

const fb::Model* Root(const void* root) { return static_cast<const fb::Model*>(root); }

bool IsFiniteFloat(float x) { return isfinite(x) != 0; }

// Unsigned lexicographic byte order; a proper prefix sorts first.
int CompareBytes(const char* a, uint32_t a_size, const char* b, uint32_t b_size) {
  const uint32_t n = a_size < b_size ? a_size : b_size;
  const int c = n == 0 ? 0 : memcmp(a, b, n);
  if (c != 0) return c;
  return a_size < b_size ? -1 : (a_size > b_size ? 1 : 0);
}

// True if `s` holds a NUL byte (names and tokens are exposed as C strings, so they must not).
bool HasNul(const flatbuffers::String* s) { return memchr(s->data(), '\0', s->size()) != nullptr; }

bool SameString(const flatbuffers::String* a, const flatbuffers::String* b) {
  return a->size() == b->size() && memcmp(a->data(), b->data(), a->size()) == 0;
}

// element_count * element_size without overflow; false if it overflows size_t.
bool CheckedBytes(const flatbuffers::Vector<int32_t>& shape, size_t element_size, size_t* bytes) {
  size_t n = element_size;
  for (flatbuffers::uoffset_t i = 0; i < shape.size(); ++i) {
    const int32_t d = shape.Get(i);
    if (d <= 0) return false;
    if (__builtin_mul_overflow(n, static_cast<size_t>(d), &n)) return false;
  }
  *bytes = n;
  return true;
}

// "[a, b, c]"
void FormatShape(const int32_t* shape, int32_t rank, ErrorDetail* out) {
  out->Clear();
  out->Append("[");
  for (int32_t i = 0; i < rank; ++i) {
    if (i > 0) out->Append(", ");
    out->Append(shape[i]);
  }
  out->Append("]");
}

// Replaces out[0, out_size) with the concatenation of `parts` (C strings and integers; no
// stdio, so Cortex-M builds do not pull in printf) and returns `status`.
template <typename... Parts>
Status WriteDetail(char* out, size_t out_size, Status status, const Parts&... parts) {
  ErrorDetail detail;
  detail.Fail(status, parts...);
  const char* text = detail.c_str();
  size_t n = 0;
  while (out_size > 0 && n + 1 < out_size && text[n] != '\0') {
    out[n] = text[n];
    ++n;
  }
  if (out_size > 0) out[n] = '\0';
  return status;
}

}  // namespace

TokenView VocabularyView::Token(int32_t id) const {
  if (impl == nullptr || id < 0 || id >= size) return TokenView{"", 0};
  const flatbuffers::String* token = static_cast<const fb::Vocabulary*>(impl)->tokens()->Get(
      static_cast<flatbuffers::uoffset_t>(id));
  return TokenView{token->c_str(), token->size()};
}

int32_t VocabularyView::Find(const char* data, uint32_t data_size) const {
  if (impl == nullptr || (data == nullptr && data_size > 0)) return -1;
  const fb::Vocabulary* vocab = static_cast<const fb::Vocabulary*>(impl);
  const flatbuffers::Vector<int32_t>* sorted = vocab->sorted_ids();
  int32_t lo = 0, hi = size - 1;
  while (lo <= hi) {
    const int32_t mid = lo + (hi - lo) / 2;
    const int32_t id = sorted->Get(static_cast<flatbuffers::uoffset_t>(mid));
    const flatbuffers::String* token = vocab->tokens()->Get(static_cast<flatbuffers::uoffset_t>(id));
    const int c = CompareBytes(token->c_str(), token->size(), data, data_size);
    if (c == 0) return id;
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

template <typename... Parts>
Status Model::Fail(Status status, const Parts&... parts) {
  loaded_ = false;
  return WriteDetail(error_detail_, sizeof(error_detail_), status, parts...);
}

Provenance Model::provenance() const {
  Provenance p{"", "", "", ""};
  if (!loaded_) return p;
  const fb::Provenance* prov = Root(root_)->provenance();
  if (prov == nullptr) return p;
  if (prov->checkpoint_sha256() != nullptr) p.checkpoint_sha256 = prov->checkpoint_sha256()->c_str();
  if (prov->converter_version() != nullptr) p.converter_version = prov->converter_version()->c_str();
  if (prov->created() != nullptr) p.created = prov->created()->c_str();
  if (prov->source() != nullptr) p.source = prov->source()->c_str();
  return p;
}

int32_t Model::num_tensors() const {
  return loaded_ ? static_cast<int32_t>(Root(root_)->tensors()->size()) : 0;
}

Status Model::TensorAt(int32_t index, TensorView* out) const {
  if (out == nullptr) return Status::kInvalidArgument;
  if (!loaded_) return Status::kNotInitialized;
  const fb::Model* model = Root(root_);
  if (index < 0 || static_cast<uint32_t>(index) >= model->tensors()->size())
    return Status::kModelTensorMissing;
  const fb::Tensor* t = model->tensors()->Get(static_cast<flatbuffers::uoffset_t>(index));
  const flatbuffers::Vector<uint8_t>* data = model->buffers()->Get(t->buffer())->data();
  TensorView v{};
  v.name = t->name()->c_str();
  v.dtype = static_cast<DType>(t->dtype());
  v.rank = static_cast<int32_t>(t->shape()->size());
  for (int32_t i = 0; i < v.rank; ++i) v.shape[i] = t->shape()->Get(static_cast<flatbuffers::uoffset_t>(i));
  v.data = data->data();
  v.bytes = data->size();
  v.quant_axis = -1;
  if (const fb::Quantization* q = t->quantization()) {
    v.scales = q->scale()->data();
    v.num_scales = static_cast<int32_t>(q->scale()->size());
    v.zero_points = q->zero_point() != nullptr ? q->zero_point()->data() : nullptr;
    v.quant_axis = q->axis();
  }
  *out = v;
  return Status::kOk;
}

Status Model::FindTensor(const char* name, TensorView* out) const {
  if (name == nullptr || out == nullptr) return Status::kInvalidArgument;
  if (!loaded_) return Status::kNotInitialized;
  const auto* tensors = Root(root_)->tensors();
  for (flatbuffers::uoffset_t i = 0; i < tensors->size(); ++i) {
    if (strcmp(tensors->Get(i)->name()->c_str(), name) == 0)
      return TensorAt(static_cast<int32_t>(i), out);
  }
  return Status::kModelTensorMissing;
}

Status Model::FindActivationFormat(const char* name, int32_t* int_bits) const {
  if (name == nullptr || int_bits == nullptr) return Status::kInvalidArgument;
  if (!loaded_) return Status::kNotInitialized;
  const auto* formats = Root(root_)->activations();
  if (formats == nullptr) return Status::kModelTensorMissing;
  for (flatbuffers::uoffset_t i = 0; i < formats->size(); ++i) {
    if (strcmp(formats->Get(i)->name()->c_str(), name) == 0) {
      *int_bits = formats->Get(i)->int_bits();
      return Status::kOk;
    }
  }
  return Status::kModelTensorMissing;
}

// ---- Load -----------------------------------------------------------------------------------

namespace {

// The semantic checks, written against the verified FlatBuffer. Each returns kOk or fills
// the caller's detail buffer.
class Checker {
 public:
  Checker(const fb::Model* root, char* detail, size_t detail_size)
      : root_(root), detail_(detail), detail_size_(detail_size) {}

  template <typename... Parts>
  Status Fail(Status status, const Parts&... parts) {
    return WriteDetail(detail_, detail_size_, status, parts...);
  }

  Status ReadConfig(ModelConfig* out) {
    const fb::Config* c = root_->config();
    ModelConfig cfg{};
    cfg.cell = static_cast<CellType>(static_cast<uint8_t>(c->cell()));
    cfg.src_vocab_size = c->src_vocab_size();
    cfg.tgt_vocab_size = c->tgt_vocab_size();
    cfg.src_embed = c->src_embed();
    cfg.tgt_embed = c->tgt_embed();
    cfg.enc_hidden = c->enc_hidden();
    cfg.enc_layers = c->enc_layers();
    cfg.dec_layers = c->dec_layers();
    cfg.bidirectional = c->bidirectional();
    cfg.reverse_source = c->reverse_source();
    cfg.dec_hidden = c->dec_hidden();
    cfg.bridge = c->bridge();
    cfg.input_feeding = c->input_feeding();
    cfg.attention = static_cast<AttentionType>(static_cast<uint8_t>(c->attention()));
    cfg.score = static_cast<ScoreType>(static_cast<uint8_t>(c->score()));
    cfg.attn_hidden = c->attn_hidden();
    cfg.window = c->window();
    cfg.max_src_len = c->max_src_len();
    cfg.tokenizer = static_cast<TokenizerType>(static_cast<uint8_t>(c->tokenizer()));
    cfg.scheme = static_cast<QuantScheme>(static_cast<uint8_t>(c->scheme()));
    const Status status = ValidateModelConfig(cfg, detail_, detail_size_);
    if (status != Status::kOk) return status;
    *out = cfg;
    return Status::kOk;
  }

  Status ReadDecoding(DecodingDefaults* out) {
    const fb::DecodingDefaults* d = root_->decoding();
    DecodingDefaults v{d->beam(), d->nbest(), d->alpha(), d->beta(), d->min_len(), d->max_len(),
                       d->max_len_ratio()};
    if (v.beam < 1 || v.beam > kMaxDecodingBeam)
      return Fail(Status::kModelConfigInvalid, "decoding.beam: ", v.beam, " not in [1, ", kMaxDecodingBeam, "]");
    if (v.nbest < 1 || v.nbest > v.beam)
      return Fail(Status::kModelConfigInvalid, "decoding.nbest: ", v.nbest, " not in [1, beam=", v.beam, "]");
    if (!IsFiniteFloat(v.alpha) || v.alpha < 0)
      return Fail(Status::kModelConfigInvalid, "decoding.alpha: must be finite and >= 0");
    if (!IsFiniteFloat(v.beta) || v.beta < 0)
      return Fail(Status::kModelConfigInvalid, "decoding.beta: must be finite and >= 0");
    if (!IsFiniteFloat(v.max_len_ratio) || v.max_len_ratio < 0)
      return Fail(Status::kModelConfigInvalid, "decoding.max_len_ratio: must be finite and >= 0");
    if (v.max_len < 1 || v.max_len > kMaxModelDim)
      return Fail(Status::kModelConfigInvalid, "decoding.max_len: ", v.max_len, " not in [1, ", kMaxModelDim, "]");
    if (v.min_len < 0 || v.min_len > v.max_len)
      return Fail(Status::kModelConfigInvalid, "decoding.min_len: ", v.min_len, " not in [0, max_len=", v.max_len, "]");
    *out = v;
    return Status::kOk;
  }

  Status ReadArenaPlan(const ModelConfig& cfg, ArenaPlan* out) {
    const fb::ArenaPlan* a = root_->arena_plan();
    if (a->max_src_len() < 1 || a->max_src_len() > cfg.max_src_len)
      return Fail(Status::kModelConfigInvalid, "arena_plan.max_src_len: ", a->max_src_len(), " not in [1, ", cfg.max_src_len, "]");
    if (a->beam() < 1 || a->beam() > kMaxDecodingBeam)
      return Fail(Status::kModelConfigInvalid, "arena_plan.beam: ", a->beam(), " not in [1, ", kMaxDecodingBeam, "]");
    *out = ArenaPlan{a->max_src_len(), a->beam(), a->bytes()};
    return Status::kOk;
  }

  Status ReadVocabulary(const fb::Vocabulary* v, const char* which, int32_t expected_size,
                        VocabularyView* out) {
    const Status kBad = Status::kModelVocabularyInvalid;
    if (v->tokens() == nullptr)
      return Fail(kBad, which, ": no tokens");
    const uint32_t size = v->tokens()->size();
    if (size != static_cast<uint32_t>(expected_size))
      return Fail(kBad, which, ": ", size, " tokens, config says ", expected_size);
    const int32_t ids[4] = {v->pad_id(), v->unk_id(), v->bos_id(), v->eos_id()};
    const char* id_names[4] = {"pad_id", "unk_id", "bos_id", "eos_id"};
    for (int i = 0; i < 4; ++i) {
      if (ids[i] < 0 || ids[i] >= expected_size)
        return Fail(kBad, which, ".", id_names[i], ": ", ids[i], " not in [0, ", expected_size, ")");
      for (int j = 0; j < i; ++j) {
        if (ids[i] == ids[j])
          return Fail(kBad, which, ".", id_names[i], " == ", which, ".", id_names[j], " (", ids[i], ")");
      }
    }
    for (uint32_t i = 0; i < size; ++i) {
      const flatbuffers::String* token = v->tokens()->Get(i);
      if (token->size() == 0) return Fail(kBad, which, ": token ", i, " is empty");
      if (HasNul(token))
        return Fail(kBad, which, ": token ", i, " contains a NUL byte");
    }
    const flatbuffers::Vector<int32_t>* sorted = v->sorted_ids();
    if (sorted == nullptr || sorted->size() != size)
      return Fail(kBad, which, ".sorted_ids: ", sorted == nullptr ? 0u : sorted->size(), " entries, expected ", size);
    // Strictly increasing tokens along sorted_ids: every id in range, every token distinct, and
    // (with size entries) every id exactly once.
    const flatbuffers::String* previous = nullptr;
    for (uint32_t i = 0; i < size; ++i) {
      const int32_t id = sorted->Get(i);
      if (id < 0 || static_cast<uint32_t>(id) >= size)
        return Fail(kBad, which, ".sorted_ids[", i, "]: id ", id, " out of range");
      const flatbuffers::String* token = v->tokens()->Get(static_cast<uint32_t>(id));
      if (previous != nullptr) {
        const int c = CompareBytes(previous->c_str(), previous->size(), token->c_str(), token->size());
        if (c == 0) return Fail(kBad, which, ": duplicate token (id ", id, ")");
        if (c > 0) return Fail(kBad, which, ".sorted_ids: not sorted at entry ", i);
      }
      previous = token;
    }
    VocabularyView view{};
    view.impl = v;
    view.size = expected_size;
    view.pad_id = ids[0];
    view.unk_id = ids[1];
    view.bos_id = ids[2];
    view.eos_id = ids[3];
    *out = view;
    return Status::kOk;
  }

  // Model.activations: unique, known names with int_bits in range; every one the config needs.
  Status CheckActivations(const ModelConfig& cfg) {
    const auto* formats = root_->activations();
    const uint32_t count = formats == nullptr ? 0 : formats->size();
    if (count > kMaxTensors) return Fail(Status::kModelMalformed, count, " activation formats");
    for (uint32_t i = 0; i < count; ++i) {
      const fb::ActivationFormat* f = formats->Get(i);
      const char* name = f->name()->c_str();
      if (HasNul(f->name())) return Fail(Status::kModelTensorInvalid, "activation ", i, ": name contains NUL");
      bool known = false;
      ForEachExpectedActivation(cfg, [&](const ExpectedTensor& want) {
        known = strcmp(want.name, name) == 0;
        return !known;
      });
      if (!known)
        return Fail(Status::kModelTensorInvalid, "activation ", name, ": not used by this config");
      for (uint32_t j = 0; j < i; ++j) {
        if (SameString(formats->Get(j)->name(), f->name()))
          return Fail(Status::kModelTensorInvalid, "activation ", name, ": appears twice");
      }
      if (f->int_bits() < kMinActivationIntBits || f->int_bits() > kMaxActivationIntBits)
        return Fail(Status::kModelTensorInvalid, "activation ", name, ": int_bits ", f->int_bits(), " not in [", kMinActivationIntBits, ", ", kMaxActivationIntBits, "]");
    }
    Status status = Status::kOk;
    ForEachExpectedActivation(cfg, [&](const ExpectedTensor& want) {
      bool found = false;
      for (uint32_t i = 0; i < count && !found; ++i) found = strcmp(formats->Get(i)->name()->c_str(), want.name) == 0;
      if (!found) status = Fail(Status::kModelTensorMissing, "activation ", want.name, ": missing (int8-full needs its format)");
      return found;
    });
    return status;
  }

  Status CheckTensor(uint32_t index, const uint8_t* file_start) {
    const Status kBad = Status::kModelTensorInvalid;
    const fb::Tensor* t = root_->tensors()->Get(index);
    const char* name = t->name()->c_str();
    if (t->name()->size() == 0) return Fail(kBad, "tensor ", index, ": empty name");
    if (HasNul(t->name())) return Fail(kBad, "tensor ", index, ": name contains NUL");
    for (uint32_t j = 0; j < index; ++j) {
      if (SameString(root_->tensors()->Get(j)->name(), t->name()))
        return Fail(kBad, "tensor ", name, ": name appears twice");
    }
    const flatbuffers::Vector<int32_t>* shape = t->shape();
    const int32_t rank = shape == nullptr ? 0 : static_cast<int32_t>(shape->size());
    if (rank < 1 || rank > kMaxTensorRank)
      return Fail(kBad, "tensor ", name, ": rank ", rank, " not in [1, ", kMaxTensorRank, "]");
    for (int32_t i = 0; i < rank; ++i) {
      const int32_t d = shape->Get(static_cast<uint32_t>(i));
      if (d < 1 || d > kMaxModelDim)
        return Fail(kBad, "tensor ", name, ": shape[", i, "] = ", d, " not in [1, ", kMaxModelDim, "]");
    }
    const DType dtype = static_cast<DType>(static_cast<uint8_t>(t->dtype()));
    const size_t element_size = DTypeSize(dtype);
    if (element_size == 0)
      return Fail(kBad, "tensor ", name, ": unknown dtype ", static_cast<int>(t->dtype()));
    size_t expected_bytes = 0;
    if (!CheckedBytes(*shape, element_size, &expected_bytes))
      return Fail(kBad, "tensor ", name, ": size overflows");
    if (t->buffer() >= root_->buffers()->size())
      return Fail(kBad, "tensor ", name, ": buffer index ", t->buffer(), " >= ", root_->buffers()->size(), " buffers");
    const flatbuffers::Vector<uint8_t>* data = root_->buffers()->Get(t->buffer())->data();
    if (data == nullptr) return Fail(kBad, "tensor ", name, ": buffer ", t->buffer(), " has no data");
    if (data->size() != expected_bytes)
      return Fail(kBad, "tensor ", name, ": buffer holds ", data->size(), " bytes, shape and dtype need ", expected_bytes);
    const size_t offset = static_cast<size_t>(data->data() - file_start);
    if (offset % kModelBufferAlignment != 0)
      return Fail(kBad, "tensor ", name, ": data at file offset ", offset, " is not ", kModelBufferAlignment, "-byte aligned");
    return CheckQuantization(t, name, dtype, rank);
  }

  Status CheckQuantization(const fb::Tensor* t, const char* name, DType dtype, int32_t rank) {
    const Status kBad = Status::kModelTensorInvalid;
    const fb::Quantization* q = t->quantization();
    if (dtype == DType::kF32) {
      if (q != nullptr) return Fail(kBad, "tensor ", name, ": F32 tensor has quantization");
      return Status::kOk;
    }
    if (q == nullptr || q->scale() == nullptr || q->scale()->size() == 0)
      return Fail(kBad, "tensor ", name, ": quantized tensor has no scales");
    const uint32_t count = q->scale()->size();
    const int32_t axis = q->axis();
    if (axis == -1) {
      if (count != 1) return Fail(kBad, "tensor ", name, ": per-tensor quantization with ", count, " scales");
    } else {
      if (axis < 0 || axis >= rank)
        return Fail(kBad, "tensor ", name, ": quantization axis ", axis, " not in [-1, ", rank, ")");
      const int32_t dim = t->shape()->Get(static_cast<uint32_t>(axis));
      if (count != static_cast<uint32_t>(dim))
        return Fail(kBad, "tensor ", name, ": ", count, " scales, shape[", axis, "] = ", dim);
    }
    for (uint32_t i = 0; i < count; ++i) {
      const float s = q->scale()->Get(i);
      if (!IsFiniteFloat(s) || s <= 0)
        return Fail(kBad, "tensor ", name, ": scale[", i, "] is not finite and > 0");
    }
    if (q->zero_point() != nullptr) {
      if (q->zero_point()->size() != count)
        return Fail(kBad, "tensor ", name, ": ", q->zero_point()->size(), " zero points for ", count, " scales");
      const int32_t lo = dtype == DType::kI8 ? -128 : dtype == DType::kI16 ? -32768 : 0;
      const int32_t hi = dtype == DType::kI8 ? 127 : dtype == DType::kI16 ? 32767 : 0;
      for (uint32_t i = 0; i < count; ++i) {
        const int32_t z = q->zero_point()->Get(i);
        if (z < lo || z > hi)
          return Fail(kBad, "tensor ", name, ": zero_point[", i, "] = ", z, " not in [", lo, ", ", hi, "]");
      }
    }
    return Status::kOk;
  }

 private:
  const fb::Model* root_;
  char* detail_;
  size_t detail_size_;
};

struct ExpectedCheck {
  const Model* model;
  Status status;
  char* detail;
  size_t detail_size;
  int32_t count;
};

}  // namespace

Status Model::Load(const void* data, size_t size) {
  buffer_ = nullptr;
  buffer_size_ = 0;
  root_ = nullptr;
  loaded_ = false;
  format_version_ = 0;
  config_ = ModelConfig{};
  decoding_ = DecodingDefaults{};
  arena_plan_ = ArenaPlan{};
  src_vocab_ = VocabularyView{};
  tgt_vocab_ = VocabularyView{};
  error_detail_[0] = '\0';

  if (data == nullptr) return Fail(Status::kInvalidArgument, "model buffer is null");
  if (size == 0) return Fail(Status::kInvalidArgument, "model buffer is empty");
  if (reinterpret_cast<uintptr_t>(data) % kModelBufferAlignment != 0)
    return Fail(Status::kInvalidArgument, "model buffer is not ", kModelBufferAlignment, "-byte aligned");
  if (size >= FLATBUFFERS_MAX_BUFFER_SIZE)
    return Fail(Status::kModelMalformed, "model is ", size, " bytes, larger than FlatBuffers allows");
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  if (size < 2 * sizeof(flatbuffers::uoffset_t))
    return Fail(Status::kModelMalformed, "model is ", size, " bytes, too short for a header");
  if (!fb::ModelBufferHasIdentifier(bytes)) {
    return Fail(Status::kModelMalformed, "file identifier is not \"", fb::ModelIdentifier(), "\" (not an edgenmt model)");
  }

  flatbuffers::Verifier::Options options;
  options.max_depth = kVerifierMaxDepth;
  options.max_tables = kVerifierMaxTables;
  options.check_alignment = true;
  options.check_nested_flatbuffers = false;

  // Version first, through the root table alone: a newer file may not verify under our schema.
  {
    flatbuffers::Verifier verifier(bytes, size, options);
    const flatbuffers::uoffset_t root_offset = flatbuffers::ReadScalar<flatbuffers::uoffset_t>(bytes);
    if (root_offset >= size || root_offset % sizeof(flatbuffers::uoffset_t) != 0)
      return Fail(Status::kModelMalformed, "root table offset ", root_offset, " is outside the ", size, "-byte file");
    const flatbuffers::Table* root = flatbuffers::GetRoot<flatbuffers::Table>(bytes);
    if (!root->VerifyTableStart(verifier) ||
        !root->VerifyField<uint32_t>(verifier, fb::Model::VT_FORMAT_VERSION, 4))
      return Fail(Status::kModelMalformed, "root table is corrupt or truncated");
    format_version_ = root->GetField<uint32_t>(fb::Model::VT_FORMAT_VERSION, 0);
    if (format_version_ < kOldestSupportedFormatVersion || format_version_ > kFormatVersion) {
      return Fail(Status::kModelVersionUnsupported, "file version ", format_version_, ", runtime reads ", kOldestSupportedFormatVersion, "..", kFormatVersion);
    }
  }
  {
    flatbuffers::Verifier verifier(bytes, size, options);
    if (!fb::VerifyModelBuffer(verifier))
      return Fail(Status::kModelMalformed,
                  "FlatBuffers verification failed (truncated, corrupt or not an edgenmt model)");
  }
  const fb::Model* root = fb::GetModel(bytes);
  if (root->tensors()->size() > kMaxTensors)
    return Fail(Status::kModelMalformed, root->tensors()->size(), " tensors, at most ", kMaxTensors);
  if (root->buffers()->size() > kMaxBuffers)
    return Fail(Status::kModelMalformed, root->buffers()->size(), " buffers, at most ", kMaxBuffers);

  Checker check(root, error_detail_, sizeof(error_detail_));
  ModelConfig config{};
  EDGENMT_RETURN_IF_ERROR(check.ReadConfig(&config));
  DecodingDefaults decoding{};
  EDGENMT_RETURN_IF_ERROR(check.ReadDecoding(&decoding));
  ArenaPlan plan{};
  EDGENMT_RETURN_IF_ERROR(check.ReadArenaPlan(config, &plan));
  EDGENMT_RETURN_IF_ERROR(check.CheckActivations(config));
  VocabularyView src{}, tgt{};
  EDGENMT_RETURN_IF_ERROR(check.ReadVocabulary(root->src_vocab(), "src_vocab", config.src_vocab_size, &src));
  EDGENMT_RETURN_IF_ERROR(check.ReadVocabulary(root->tgt_vocab(), "tgt_vocab", config.tgt_vocab_size, &tgt));
  for (uint32_t i = 0; i < root->tensors()->size(); ++i) {
    EDGENMT_RETURN_IF_ERROR(check.CheckTensor(i, bytes));
    if (config.scheme == QuantScheme::kFloat32 &&
        root->tensors()->Get(i)->dtype() != fb::DType::F32) {
      return Fail(Status::kModelTensorInvalid, "tensor ", root->tensors()->Get(i)->name()->c_str(), ": dtype ", fb::EnumNameDType(root->tensors()->Get(i)->dtype()), " in a float32 model");
    }
  }

  // Make this a loaded view so FindTensor works, then check the set of tensors the config
  // needs; any failure below resets loaded_ through Fail().
  buffer_ = data;
  buffer_size_ = size;
  root_ = root;
  config_ = config;
  decoding_ = decoding;
  arena_plan_ = plan;
  src_vocab_ = src;
  tgt_vocab_ = tgt;
  loaded_ = true;

  ExpectedCheck expected{this, Status::kOk, error_detail_, sizeof(error_detail_), 0};
  ExpectedTensors(
      config,
      [](const ExpectedTensor& want, void* user) {
        ExpectedCheck* e = static_cast<ExpectedCheck*>(user);
        ++e->count;
        TensorView have{};
        if (e->model->FindTensor(want.name, &have) != Status::kOk) {
          e->status = WriteDetail(e->detail, e->detail_size, Status::kModelTensorMissing, "tensor ",
                                  want.name, ": missing (the config needs it)");
          return false;
        }
        bool same = have.rank == want.rank;
        for (int32_t i = 0; same && i < want.rank; ++i) same = have.shape[i] == want.shape[i];
        if (!same) {
          ErrorDetail have_shape, want_shape;
          FormatShape(have.shape, have.rank, &have_shape);
          FormatShape(want.shape, want.rank, &want_shape);
          e->status = WriteDetail(e->detail, e->detail_size, Status::kModelTensorInvalid, "tensor ",
                                  want.name, ": shape ", have_shape.c_str(), ", the config needs ",
                                  want_shape.c_str());
          return false;
        }
        return true;
      },
      &expected);
  if (expected.status != Status::kOk) {
    loaded_ = false;
    return expected.status;
  }
  if (static_cast<uint32_t>(expected.count) != root->tensors()->size()) {
    // Names are unique and every expected one is present, so some tensor is unexpected.
    for (uint32_t i = 0; i < root->tensors()->size(); ++i) {
      const char* name = root->tensors()->Get(i)->name()->c_str();
      bool known = false;
      ForEachExpectedTensor(config, [&](const ExpectedTensor& want) {
        known = strcmp(want.name, name) == 0;
        return !known;
      });
      if (!known)
        return Fail(Status::kModelTensorInvalid, "tensor ", name, ": not used by this config");
    }
    return Fail(Status::kInternal, "tensor count mismatch");
  }
  return Status::kOk;
}

}  // namespace edgenmt
