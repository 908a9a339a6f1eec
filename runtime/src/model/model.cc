// Model::Load: verify a model file completely before anything reads it.
//
// Order: buffer argument checks, file identifier, the format version (read through a minimal
// verification of the root table, so a file from a newer converter reports its version rather
// than "malformed"), the full FlatBuffers verifier, then semantic checks (config, decoding
// defaults, arena plan, vocabularies, every tensor, and the tensor set the config requires).
// After kOk, accessors index the buffer without further checks.
#include "edgenmt/model.h"

#include <string.h>

#include "edgenmt/schema/edgenmt_generated.h"
#include "edgenmt/internal/tensor_layout.h"
#include "error_detail.h"
#include "model/model_checker.h"

namespace edgenmt {
namespace {

namespace fb = ::edgenmt::schema;

// Nesting in our schema is at most Model -> vector<Tensor> -> Tensor -> Quantization -> vector.
constexpr flatbuffers::uoffset_t kVerifierMaxDepth = 16;
// Tables: root + 7 + 2 per tensor + 1 per buffer; tensors are capped below.
constexpr flatbuffers::uoffset_t kVerifierMaxTables = 1u << 16;

const fb::Model* Root(const void* root) { return static_cast<const fb::Model*>(root); }

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
    const flatbuffers::String* token =
        vocab->tokens()->Get(static_cast<flatbuffers::uoffset_t>(id));
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
  if (prov->checkpoint_sha256() != nullptr)
    p.checkpoint_sha256 = prov->checkpoint_sha256()->c_str();
  if (prov->converter_version() != nullptr)
    p.converter_version = prov->converter_version()->c_str();
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
  // Filled in place (no second TensorView on the stack: this runs in Init's deepest frames).
  *out = TensorView{};
  TensorView& v = *out;
  v.name = t->name()->c_str();
  v.dtype = static_cast<DType>(t->dtype());
  v.rank = static_cast<int32_t>(t->shape()->size());
  for (int32_t i = 0; i < v.rank; ++i)
    v.shape[i] = t->shape()->Get(static_cast<flatbuffers::uoffset_t>(i));
  v.data = data->data();
  v.bytes = data->size();
  v.quant_axis = -1;
  if (const fb::Quantization* q = t->quantization()) {
    v.scales = q->scale()->data();
    v.num_scales = static_cast<int32_t>(q->scale()->size());
    v.zero_points = q->zero_point() != nullptr ? q->zero_point()->data() : nullptr;
    v.quant_axis = q->axis();
  }
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

Status Model::FindRequantization(const char* name, uint32_t input_scale_bits, bool rescale_rows,
                                 const int32_t** multiplier, const int32_t** shift) const {
  if (name == nullptr || multiplier == nullptr || shift == nullptr) return Status::kInvalidArgument;
  if (!loaded_) return Status::kNotInitialized;
  const auto* tensors = Root(root_)->tensors();
  for (flatbuffers::uoffset_t i = 0; i < tensors->size(); ++i) {
    const fb::Tensor* t = tensors->Get(i);
    if (strcmp(t->name()->c_str(), name) != 0 || t->requantization() == nullptr) continue;
    for (const fb::Requantization* r : *t->requantization()) {
      uint32_t bits = 0;
      const float scale = r->input_scale();
      memcpy(&bits, &scale, sizeof(bits));
      if (bits == input_scale_bits && r->rescale_rows() == rescale_rows) {
        *multiplier = r->multiplier()->data();
        *shift = r->shift()->data();
        return Status::kOk;
      }
    }
  }
  return Status::kModelTensorMissing;
}

// ---- Load -----------------------------------------------------------------------------------

namespace {

// "tensor <name>: shape [..], the config needs [..]". Out of line: its text buffers stay off the
// stack of the visitor that calls it for every tensor.
__attribute__((noinline)) Status ShapeMismatch(char* detail, size_t detail_size,
                                               const ExpectedTensor& want, const TensorView& have) {
  // "[d0, d1, d2, d3]" with dims <= kMaxModelDim.
  char have_text[56], want_text[56];
  ErrorDetail have_shape(have_text, sizeof have_text);
  ErrorDetail want_shape(want_text, sizeof want_text);
  FormatShape(have.shape, have.rank, &have_shape);
  FormatShape(want.shape, want.rank, &want_shape);
  return WriteDetail(detail, detail_size, Status::kModelTensorInvalid, "tensor ", want.name,
                     ": shape ", have_shape.c_str(), ", the config needs ", want_shape.c_str());
}

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
  decoding_ = DecodingOptions{};
  arena_plan_ = ArenaPlan{};
  src_vocab_ = VocabularyView{};
  tgt_vocab_ = VocabularyView{};
  error_detail_[0] = '\0';

  EDGENMT_RETURN_IF_ERROR(VerifyAndRead(data, size));
  return CheckTensorSet();
}

__attribute__((noinline)) Status Model::VerifyAndRead(const void* data, size_t size) {
  if (data == nullptr) return Fail(Status::kInvalidArgument, "model buffer is null");
  if (size == 0) return Fail(Status::kInvalidArgument, "model buffer is empty");
  if (reinterpret_cast<uintptr_t>(data) % kModelBufferAlignment != 0)
    return Fail(Status::kInvalidArgument, "model buffer is not ", kModelBufferAlignment,
                "-byte aligned");
  if (size >= FLATBUFFERS_MAX_BUFFER_SIZE)
    return Fail(Status::kModelMalformed, "model is ", size,
                " bytes, larger than FlatBuffers allows");
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  if (size < 2 * sizeof(flatbuffers::uoffset_t))
    return Fail(Status::kModelMalformed, "model is ", size, " bytes, too short for a header");
  if (!fb::ModelBufferHasIdentifier(bytes)) {
    return Fail(Status::kModelMalformed, "file identifier is not \"", fb::ModelIdentifier(),
                "\" (not an edgenmt model)");
  }

  flatbuffers::Verifier::Options options;
  options.max_depth = kVerifierMaxDepth;
  options.max_tables = kVerifierMaxTables;
  options.check_alignment = true;
  options.check_nested_flatbuffers = false;

  // Version first, through the root table alone: a newer file may not verify under our schema.
  {
    flatbuffers::Verifier verifier(bytes, size, options);
    const flatbuffers::uoffset_t root_offset =
        flatbuffers::ReadScalar<flatbuffers::uoffset_t>(bytes);
    if (root_offset >= size || root_offset % sizeof(flatbuffers::uoffset_t) != 0)
      return Fail(Status::kModelMalformed, "root table offset ", root_offset, " is outside the ",
                  size, "-byte file");
    const flatbuffers::Table* root = flatbuffers::GetRoot<flatbuffers::Table>(bytes);
    if (!root->VerifyTableStart(verifier) ||
        !root->VerifyField<uint32_t>(verifier, fb::Model::VT_FORMAT_VERSION, 4))
      return Fail(Status::kModelMalformed, "root table is corrupt or truncated");
    format_version_ = root->GetField<uint32_t>(fb::Model::VT_FORMAT_VERSION, 0);
    if (format_version_ < kOldestSupportedFormatVersion || format_version_ > kFormatVersion) {
      return Fail(Status::kModelVersionUnsupported, "file version ", format_version_,
                  ", runtime reads ", kOldestSupportedFormatVersion, "..", kFormatVersion);
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
    return Fail(Status::kModelMalformed, root->tensors()->size(), " tensors, at most ",
                kMaxTensors);
  if (root->buffers()->size() > kMaxBuffers)
    return Fail(Status::kModelMalformed, root->buffers()->size(), " buffers, at most ",
                kMaxBuffers);

  ModelChecker check(root, error_detail_, sizeof(error_detail_));
  ModelConfig config{};
  EDGENMT_RETURN_IF_ERROR(check.ReadConfig(&config));
  DecodingOptions decoding{};
  EDGENMT_RETURN_IF_ERROR(check.ReadDecoding(&decoding));
  if (config.model_type == ModelType::kTransformer &&
      decoding.max_len > config.transformer.max_tgt_len) {
    return Fail(Status::kModelConfigInvalid, "decoding.max_len: ", decoding.max_len,
                " > config.transformer.max_tgt_len ", config.transformer.max_tgt_len);
  }
  ArenaPlan plan{};
  EDGENMT_RETURN_IF_ERROR(check.ReadArenaPlan(config, &plan));
  EDGENMT_RETURN_IF_ERROR(check.CheckActivations(config));
  VocabularyView src{}, tgt{};
  EDGENMT_RETURN_IF_ERROR(
      check.ReadVocabulary(root->src_vocab(), "src_vocab", config.src_vocab_size, &src));
  EDGENMT_RETURN_IF_ERROR(
      check.ReadVocabulary(root->tgt_vocab(), "tgt_vocab", config.tgt_vocab_size, &tgt));
  for (uint32_t i = 0; i < root->tensors()->size(); ++i) {
    EDGENMT_RETURN_IF_ERROR(check.CheckTensor(i, bytes));
    if (config.scheme == QuantScheme::kFloat32 &&
        root->tensors()->Get(i)->dtype() != fb::DType::F32) {
      return Fail(Status::kModelTensorInvalid, "tensor ", root->tensors()->Get(i)->name()->c_str(),
                  ": dtype ", fb::EnumNameDType(root->tensors()->Get(i)->dtype()),
                  " in a float32 model");
    }
  }

  // A loaded view, so that CheckTensorSet's FindTensor works; its failures reset loaded_
  // through Fail().
  buffer_ = data;
  buffer_size_ = size;
  root_ = root;
  config_ = config;
  decoding_ = decoding;
  arena_plan_ = plan;
  src_vocab_ = src;
  tgt_vocab_ = tgt;
  loaded_ = true;
  return Status::kOk;
}

// The set of tensors the config needs, against the file's (a loaded view, so FindTensor works;
// a failure resets loaded_).
__attribute__((noinline)) Status Model::CheckTensorSet() {
  const fb::Model* root = Root(root_);
  const ModelConfig& config = config_;
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
          e->status = ShapeMismatch(e->detail, e->detail_size, want, have);
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
