#include "model/model_checker.h"

#include <math.h>
#include <string.h>

#include "edgenmt/internal/fixed_point.h"
#include "edgenmt/internal/int8_requantization.h"
#include "edgenmt/internal/tensor_layout.h"

namespace edgenmt {

namespace fb = ::edgenmt::schema;

int CompareBytes(const char* a, uint32_t a_size, const char* b, uint32_t b_size) {
  const uint32_t n = a_size < b_size ? a_size : b_size;
  const int c = n == 0 ? 0 : memcmp(a, b, n);
  if (c != 0) return c;
  return a_size < b_size ? -1 : (a_size > b_size ? 1 : 0);
}

namespace {

bool IsFiniteFloat(float x) { return isfinite(x) != 0; }

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

// The RNN's options from Config.rnn (format 2) or from Config's flat fields (format 1): both
// tables name them alike.
template <typename Table>
void ReadRnnConfig(const Table& t, RnnConfig* out) {
  out->cell = static_cast<CellType>(static_cast<uint8_t>(t.cell()));
  out->src_embed = t.src_embed();
  out->tgt_embed = t.tgt_embed();
  out->enc_hidden = t.enc_hidden();
  out->bidirectional = t.bidirectional();
  out->reverse_source = t.reverse_source();
  out->dec_hidden = t.dec_hidden();
  out->bridge = t.bridge();
  out->input_feeding = t.input_feeding();
  out->attention = static_cast<AttentionType>(static_cast<uint8_t>(t.attention()));
  out->score = static_cast<ScoreType>(static_cast<uint8_t>(t.score()));
  out->attn_hidden = t.attn_hidden();
  out->window = t.window();
}

}  // namespace

Status ModelChecker::ReadConfig(ModelConfig* out) {
  const fb::Config* c = root_->config();
  ModelConfig cfg{};
  cfg.src_vocab_size = c->src_vocab_size();
  cfg.tgt_vocab_size = c->tgt_vocab_size();
  cfg.enc_layers = c->enc_layers();
  cfg.dec_layers = c->dec_layers();
  cfg.max_src_len = c->max_src_len();
  cfg.tokenizer = static_cast<TokenizerType>(static_cast<uint8_t>(c->tokenizer()));
  cfg.scheme = static_cast<QuantScheme>(static_cast<uint8_t>(c->scheme()));
  cfg.model_type = static_cast<ModelType>(static_cast<uint8_t>(c->model_type()));
  const uint32_t version = root_->format_version();
  if (version < 2) {
    ReadRnnConfig(*c, &cfg.rnn);  // format 1: the RNN's options are Config's flat fields
  } else if (const fb::RnnConfig* r = c->rnn()) {
    ReadRnnConfig(*r, &cfg.rnn);
  } else if (cfg.model_type == ModelType::kRnn) {
    return Fail(Status::kModelConfigInvalid, "config.rnn: missing (model_type rnn)");
  }
  if (const fb::TransformerConfig* t = c->transformer()) {
    cfg.transformer.d_model = t->d_model();
    cfg.transformer.heads = t->heads();
    cfg.transformer.ffn = t->ffn();
    cfg.transformer.max_tgt_len = t->max_tgt_len();
    cfg.transformer.activation =
        static_cast<FeedForwardActivation>(static_cast<uint8_t>(t->activation()));
    cfg.transformer.norm = static_cast<NormPlacement>(static_cast<uint8_t>(t->norm()));
    cfg.transformer.positions = static_cast<PositionEncoding>(static_cast<uint8_t>(t->positions()));
    cfg.transformer.tie_output = t->tie_output();
  } else if (cfg.model_type == ModelType::kTransformer) {
    return Fail(Status::kModelConfigInvalid,
                "config.transformer: missing (model_type transformer)");
  }
  const Status status = ValidateModelConfig(cfg, detail_, detail_size_);
  if (status != Status::kOk) return status;
  *out = cfg;
  return Status::kOk;
}

Status ModelChecker::ReadDecoding(DecodingOptions* out) {
  const fb::DecodingDefaults* d = root_->decoding();
  DecodingOptions v;
  v.beam = d->beam();
  v.nbest = d->nbest();
  v.alpha = d->alpha();
  v.beta = d->beta();
  v.min_len = d->min_len();
  v.max_len = d->max_len();
  v.max_len_ratio = d->max_len_ratio();
  // The file's defaults pass the same check as a Translator's options; a bad value is a bad
  // file (kModelConfigInvalid), its detail "decoding.<field>: ...".
  if (ValidateDecodingOptions(v, "decoding.", detail_, detail_size_) != Status::kOk) {
    return Status::kModelConfigInvalid;
  }
  *out = v;
  return Status::kOk;
}

Status ModelChecker::ReadArenaPlan(const ModelConfig& cfg, ArenaPlan* out) {
  const fb::ArenaPlan* a = root_->arena_plan();
  if (a->max_src_len() < 1 || a->max_src_len() > cfg.max_src_len)
    return Fail(Status::kModelConfigInvalid, "arena_plan.max_src_len: ", a->max_src_len(),
                " not in [1, ", cfg.max_src_len, "]");
  if (a->beam() < 1 || a->beam() > kMaxDecodingBeam)
    return Fail(Status::kModelConfigInvalid, "arena_plan.beam: ", a->beam(), " not in [1, ",
                kMaxDecodingBeam, "]");
  *out = ArenaPlan{a->max_src_len(), a->beam(), a->bytes()};
  return Status::kOk;
}

Status ModelChecker::ReadVocabulary(const fb::Vocabulary* v, const char* which,
                                    int32_t expected_size, VocabularyView* out) {
  const Status kBad = Status::kModelVocabularyInvalid;
  if (v->tokens() == nullptr) return Fail(kBad, which, ": no tokens");
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
        return Fail(kBad, which, ".", id_names[i], " == ", which, ".", id_names[j], " (", ids[i],
                    ")");
    }
  }
  for (uint32_t i = 0; i < size; ++i) {
    const flatbuffers::String* token = v->tokens()->Get(i);
    if (token->size() == 0) return Fail(kBad, which, ": token ", i, " is empty");
    if (HasNul(token)) return Fail(kBad, which, ": token ", i, " contains a NUL byte");
  }
  const flatbuffers::Vector<int32_t>* sorted = v->sorted_ids();
  if (sorted == nullptr || sorted->size() != size)
    return Fail(kBad, which, ".sorted_ids: ", sorted == nullptr ? 0u : sorted->size(),
                " entries, expected ", size);
  // Strictly increasing tokens along sorted_ids: every id in range, every token distinct, and
  // (with size entries) every id exactly once.
  const flatbuffers::String* previous = nullptr;
  for (uint32_t i = 0; i < size; ++i) {
    const int32_t id = sorted->Get(i);
    if (id < 0 || static_cast<uint32_t>(id) >= size)
      return Fail(kBad, which, ".sorted_ids[", i, "]: id ", id, " out of range");
    const flatbuffers::String* token = v->tokens()->Get(static_cast<uint32_t>(id));
    if (previous != nullptr) {
      const int c =
          CompareBytes(previous->c_str(), previous->size(), token->c_str(), token->size());
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

Status ModelChecker::CheckActivations(const ModelConfig& cfg) {
  const auto* formats = root_->activations();
  const uint32_t count = formats == nullptr ? 0 : formats->size();
  if (count > kMaxTensors) return Fail(Status::kModelMalformed, count, " activation formats");
  for (uint32_t i = 0; i < count; ++i) {
    const fb::ActivationFormat* f = formats->Get(i);
    const char* name = f->name()->c_str();
    if (HasNul(f->name()))
      return Fail(Status::kModelTensorInvalid, "activation ", i, ": name contains NUL");
    bool known = false;
    int32_t min_bits = 0, max_bits = 0;
    ForEachExpectedActivation(cfg, [&](const ExpectedTensor& want) {
      known = strcmp(want.name, name) == 0;
      min_bits = want.shape[0];
      max_bits = want.shape[1];
      return !known;
    });
    if (!known)
      return Fail(Status::kModelTensorInvalid, "activation ", name, ": not used by this config");
    for (uint32_t j = 0; j < i; ++j) {
      if (SameString(formats->Get(j)->name(), f->name()))
        return Fail(Status::kModelTensorInvalid, "activation ", name, ": appears twice");
    }
    if (f->int_bits() < min_bits || f->int_bits() > max_bits)
      return Fail(Status::kModelTensorInvalid, "activation ", name, ": int_bits ", f->int_bits(),
                  " not in [", min_bits, ", ", max_bits, "]");
  }
  Status status = Status::kOk;
  ForEachExpectedActivation(cfg, [&](const ExpectedTensor& want) {
    bool found = false;
    for (uint32_t i = 0; i < count && !found; ++i)
      found = strcmp(formats->Get(i)->name()->c_str(), want.name) == 0;
    if (!found)
      status = Fail(Status::kModelTensorMissing, "activation ", want.name,
                    ": missing (int8-full needs its format)");
    return found;
  });
  return status;
}

Status ModelChecker::CheckTensor(uint32_t index, const uint8_t* file_start) {
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
      return Fail(kBad, "tensor ", name, ": shape[", i, "] = ", d, " not in [1, ", kMaxModelDim,
                  "]");
  }
  const DType dtype = static_cast<DType>(static_cast<uint8_t>(t->dtype()));
  const size_t element_size = DTypeSize(dtype);
  if (element_size == 0)
    return Fail(kBad, "tensor ", name, ": unknown dtype ", static_cast<int>(t->dtype()));
  size_t expected_bytes = 0;
  if (!CheckedBytes(*shape, element_size, &expected_bytes))
    return Fail(kBad, "tensor ", name, ": size overflows");
  if (t->buffer() >= root_->buffers()->size())
    return Fail(kBad, "tensor ", name, ": buffer index ", t->buffer(),
                " >= ", root_->buffers()->size(), " buffers");
  const flatbuffers::Vector<uint8_t>* data = root_->buffers()->Get(t->buffer())->data();
  if (data == nullptr) return Fail(kBad, "tensor ", name, ": buffer ", t->buffer(), " has no data");
  if (data->size() != expected_bytes)
    return Fail(kBad, "tensor ", name, ": buffer holds ", data->size(),
                " bytes, shape and dtype need ", expected_bytes);
  const size_t offset = static_cast<size_t>(data->data() - file_start);
  if (offset % kModelBufferAlignment != 0)
    return Fail(kBad, "tensor ", name, ": data at file offset ", offset, " is not ",
                kModelBufferAlignment, "-byte aligned");
  EDGENMT_RETURN_IF_ERROR(CheckQuantization(t, name, dtype, rank));
  EDGENMT_RETURN_IF_ERROR(CheckValues(t, name, dtype, rank, *data));
  return CheckRequantization(t, name, dtype, rank, *data);
}

// Float data must be finite (a NaN weight would make every output NaN, and the hybrid scheme
// feeds activations to an integer quantizer); an int8 matrix's rows are dot products that must
// fit the int32 accumulators of the integer kernels (fxp::kMaxS8DotLength).
Status ModelChecker::CheckValues(const fb::Tensor* t, const char* name, DType dtype, int32_t rank,
                                 const flatbuffers::Vector<uint8_t>& data) {
  const Status kBad = Status::kModelTensorInvalid;
  if (dtype == DType::kF32) {
    // The data is 16-byte aligned (checked above), so it can be read as floats in place.
    const float* values = reinterpret_cast<const float*>(data.data());
    const size_t count = data.size() / sizeof(float);
    for (size_t i = 0; i < count; ++i) {
      if (!IsFiniteFloat(values[i]))
        return Fail(kBad, "tensor ", name, ": element ", i, " is ",
                    values[i] != values[i] ? "NaN" : "infinite");
    }
  }
  if (dtype == DType::kI8 && rank == 2) {
    const int32_t columns = t->shape()->Get(1);
    if (columns > fxp::kMaxS8DotLength)
      return Fail(kBad, "tensor ", name, ": ", columns,
                  " columns; int8 products accumulate exactly in int32 up to ",
                  fxp::kMaxS8DotLength, " (docs/INT8.md)");
  }
  return Status::kOk;
}

// Requantization constants are recomputed from the scales (and, for an embedding's rescale,
// the shared scale from the table): the runtime uses them as stored, so they must be exactly
// what fxp::MatrixRowRequantization / EmbeddingRowRescale give.
Status ModelChecker::CheckRequantization(const fb::Tensor* t, const char* name, DType dtype,
                                         int32_t rank, const flatbuffers::Vector<uint8_t>& data) {
  const Status kBad = Status::kModelTensorInvalid;
  const auto* entries = t->requantization();
  if (entries == nullptr) return Status::kOk;
  const fb::Quantization* q = t->quantization();
  if (dtype != DType::kI8 || rank != 2 || q->axis() != 0 || q->zero_point() != nullptr)
    return Fail(kBad, "tensor ", name, ": requantization needs symmetric per-row int8");
  const int32_t rows = t->shape()->Get(0), cols = t->shape()->Get(1);
  const float* scales = q->scale()->data();
  const int8_t* values = reinterpret_cast<const int8_t*>(data.data());
  for (const fb::Requantization* r : *entries) {
    const float input = r->input_scale();
    if (!IsFiniteFloat(input) || input <= 0)
      return Fail(kBad, "tensor ", name, ": requantization input scale is not finite and > 0");
    if (r->multiplier() == nullptr || r->shift() == nullptr ||
        r->multiplier()->size() != static_cast<uint32_t>(rows) ||
        r->shift()->size() != static_cast<uint32_t>(rows))
      return Fail(kBad, "tensor ", name, ": requantization needs ", rows,
                  " multipliers and shifts");
    uint32_t input_bits = 0;
    memcpy(&input_bits, &input, sizeof(input_bits));
    if (r->rescale_rows() &&
        input_bits != fxp::SharedEmbeddingScaleBits(scales, values, rows, cols))
      return Fail(kBad, "tensor ", name, ": row rescale target is not the table's shared scale");
    // Every row recomputed (at each boot: the stored constants are used as they are); the
    // vectors and the fixed operand fetched once, not per row.
    const fxp::RowRequantizer requantizer(input_bits, r->rescale_rows());
    const flatbuffers::Vector<int32_t>& stored_multipliers = *r->multiplier();
    const flatbuffers::Vector<int32_t>& stored_shifts = *r->shift();
    for (int32_t row = 0; row < rows; ++row) {
      uint32_t row_bits = 0;
      memcpy(&row_bits, &scales[row], sizeof(row_bits));
      int32_t multiplier = 0, shift = 0;
      requantizer.Row(row_bits, &multiplier, &shift);
      const auto at = static_cast<flatbuffers::uoffset_t>(row);
      if (stored_multipliers.Get(at) != multiplier || stored_shifts.Get(at) != shift)
        return Fail(kBad, "tensor ", name, ": requantization of row ", row,
                    " does not match its scales");
    }
  }
  return Status::kOk;
}

Status ModelChecker::CheckQuantization(const fb::Tensor* t, const char* name, DType dtype,
                                       int32_t rank) {
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
    if (count != 1)
      return Fail(kBad, "tensor ", name, ": per-tensor quantization with ", count, " scales");
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
      return Fail(kBad, "tensor ", name, ": ", q->zero_point()->size(), " zero points for ", count,
                  " scales");
    const int32_t lo = dtype == DType::kI8 ? -128 : dtype == DType::kI16 ? -32768 : 0;
    const int32_t hi = dtype == DType::kI8 ? 127 : dtype == DType::kI16 ? 32767 : 0;
    for (uint32_t i = 0; i < count; ++i) {
      const int32_t z = q->zero_point()->Get(i);
      if (z < lo || z > hi)
        return Fail(kBad, "tensor ", name, ": zero_point[", i, "] = ", z, " not in [", lo, ", ", hi,
                    "]");
    }
  }
  return Status::kOk;
}

}  // namespace edgenmt
