// The C API (edgenmt/edgenmt.h) over the C++ runtime. No allocation: objects are placed into
// caller storage with placement new.
#include "edgenmt/edgenmt.h"

#include <new>
#include <stdint.h>
#include <string.h>

#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "edgenmt/translator.h"

struct enmt_model {
  edgenmt::Model model;
};

struct enmt_translator {
  edgenmt::Translator translator;
  edgenmt::TranslationResult result;
  bool has_result = false;
};

namespace {

constexpr size_t kObjectAlignment = 16;
static_assert(sizeof(enmt_model) <= ENMT_MODEL_STORAGE_BYTES_MAX,
              "raise ENMT_MODEL_STORAGE_BYTES_MAX");
static_assert(alignof(enmt_model) <= kObjectAlignment, "model storage alignment");
static_assert(alignof(enmt_translator) <= kObjectAlignment, "translator alignment");

// The translator object sits at the start of the arena, rounded to the arena alignment.
constexpr size_t kTranslatorHeaderBytes = (sizeof(enmt_translator) + edgenmt::kArenaAlignment - 1) /
                                          edgenmt::kArenaAlignment * edgenmt::kArenaAlignment;

bool Aligned(const void* p) { return reinterpret_cast<uintptr_t>(p) % kObjectAlignment == 0; }

edgenmt::SessionLimits ToLimits(const enmt_limits& in) {
  edgenmt::SessionLimits limits;
  limits.max_src_len = in.max_src_len;
  limits.max_beam = in.max_beam;
  limits.max_nbest = in.max_nbest;
  limits.max_tgt_len = in.max_tgt_len;
  limits.backend = static_cast<edgenmt::KernelBackend>(in.backend);
  limits.attention = in.attention != 0;
  limits.max_batch = in.max_batch == 0 ? 1 : in.max_batch;  // 0: a struct zeroed by hand
  return limits;
}
static_assert(sizeof(enmt_limits) == 7 * 4, "a new enmt_limits field needs ToLimits");

// The one conversion between the C struct (kept for the ABI) and edgenmt::DecodingOptions,
// used in both directions so a field is listed once.
template <typename To, typename From>
To CopyOptionFields(const From& in) {
  To out{};
  out.beam = in.beam;
  out.nbest = in.nbest;
  out.alpha = in.alpha;
  out.beta = in.beta;
  out.min_len = in.min_len;
  out.max_len = in.max_len;
  out.max_len_ratio = in.max_len_ratio;
  out.return_attention = in.return_attention != 0;
  return out;
}
static_assert(sizeof(enmt_options) == 8 * 4, "a new enmt_options field needs CopyOptionFields");

void CopyHypothesis(const edgenmt::TranslationResult& result, int32_t index, enmt_hypothesis* out) {
  const edgenmt::Hypothesis& h = result.hypotheses[index];
  out->ids = h.ids;
  out->length = h.length;
  out->text = h.text;
  out->text_length = h.text_length;
  out->score = h.score;
  out->log_prob = h.log_prob;
  out->ended_with_eos = h.ended_with_eos ? 1 : 0;
  out->attention = h.attention;
  out->attention_steps = h.attention_steps;
  out->src_len = result.src_len;
}

// enmt_translate_batch's bridge from the C++ callback to the C one.
struct BatchBridge {
  enmt_batch_callback callback;
  void* user;
};

void BatchTrampoline(void* user, int32_t index, edgenmt::Status status,
                     const edgenmt::TranslationResult* result, const char* detail) {
  const BatchBridge* bridge = static_cast<const BatchBridge*>(user);
  if (result == nullptr) {
    bridge->callback(bridge->user, index, static_cast<enmt_status>(status), nullptr,
                     detail == nullptr ? "" : detail);
    return;
  }
  enmt_batch_result view;
  view.num_hypotheses = result->num_hypotheses;
  view.src_ids = result->src_ids;
  view.src_len = result->src_len;
  view.src_unknown = result->src_unknown;
  view.steps = result->steps;
  view.internal = result;
  bridge->callback(bridge->user, index, static_cast<enmt_status>(status), &view,
                   detail == nullptr ? "" : detail);
}

// The C API's backend numbers are the C++ enum's (edgenmt/kernel_backend.h, the one list).
static_assert(ENMT_BACKEND_REFERENCE == static_cast<int>(edgenmt::KernelBackend::kReference),
              "backend");
static_assert(ENMT_BACKEND_XNNPACK == static_cast<int>(edgenmt::KernelBackend::kXnnpack),
              "backend");
static_assert(ENMT_BACKEND_SIMD == static_cast<int>(edgenmt::KernelBackend::kSimd), "backend");
static_assert(ENMT_BACKEND_AUTO == static_cast<int>(edgenmt::KernelBackend::kAuto), "backend");
static_assert(sizeof(edgenmt::kKernelBackends) / sizeof(edgenmt::kKernelBackends[0]) ==
                  ENMT_BACKEND_AUTO + 1,
              "a backend without an ENMT_BACKEND_* number");

bool ValidBackend(int32_t backend) { return backend >= 0 && backend <= ENMT_BACKEND_AUTO; }

}  // namespace

extern "C" {

const char* enmt_status_name(enmt_status status) {
  return edgenmt::StatusName(static_cast<edgenmt::Status>(status));
}

size_t enmt_model_storage_bytes(void) { return sizeof(enmt_model); }

enmt_status enmt_model_load(void* storage, size_t storage_bytes, const void* data, size_t size,
                            enmt_model** out_model) {
  if (out_model == nullptr) return ENMT_INVALID_ARGUMENT;
  *out_model = nullptr;
  if (storage == nullptr || !Aligned(storage) || storage_bytes < sizeof(enmt_model)) {
    return ENMT_INVALID_ARGUMENT;
  }
  enmt_model* model = new (storage) enmt_model();
  *out_model = model;  // also on failure, so enmt_model_error can say why
  return static_cast<enmt_status>(model->model.Load(data, size));
}

const char* enmt_model_error(const enmt_model* model) {
  return model == nullptr ? "null model" : model->model.error_detail();
}

void enmt_limits_default(const enmt_model* model, enmt_limits* out) {
  if (out == nullptr) return;
  memset(out, 0, sizeof *out);
  out->max_beam = 1;
  out->max_nbest = 1;
  out->max_batch = 1;
  out->backend = enmt_default_backend();
  if (model == nullptr || !model->model.loaded()) return;
  const edgenmt::DecodingOptions& d = model->model.decoding_defaults();
  out->max_beam = d.beam;
  out->max_nbest = d.nbest;
}

int32_t enmt_default_backend(void) { return static_cast<int32_t>(edgenmt::DefaultKernelBackend()); }

const char* enmt_backend_name(int32_t backend) {
  return ValidBackend(backend)
             ? edgenmt::KernelBackendName(static_cast<edgenmt::KernelBackend>(backend))
             : "unknown";
}

const char* enmt_backend_variant(int32_t backend) {
  return ValidBackend(backend)
             ? edgenmt::KernelBackendVariant(static_cast<edgenmt::KernelBackend>(backend))
             : "";
}

void enmt_options_default(const enmt_model* model, enmt_options* out) {
  if (out == nullptr) return;
  // Without a loaded model: DecodingOptions' own defaults (greedy, max_len 1).
  *out = CopyOptionFields<enmt_options>(model == nullptr || !model->model.loaded()
                                            ? edgenmt::DecodingOptions{}
                                            : edgenmt::DecodingOptions::FromModel(model->model));
}

enmt_status enmt_required_arena_bytes(const enmt_model* model, const enmt_limits* limits,
                                      size_t* out_bytes) {
  return enmt_required_arena_bytes_detail(model, limits, out_bytes, nullptr, 0);
}

enmt_status enmt_required_arena_bytes_detail(const enmt_model* model, const enmt_limits* limits,
                                             size_t* out_bytes, char* detail, size_t detail_size) {
  if (detail != nullptr && detail_size > 0) detail[0] = '\0';
  if (model == nullptr || limits == nullptr || out_bytes == nullptr ||
      !ValidBackend(limits->backend)) {
    return ENMT_INVALID_ARGUMENT;
  }
  size_t bytes = 0;
  const edgenmt::Status status =
      edgenmt::RequiredArenaBytes(model->model, ToLimits(*limits), &bytes, detail, detail_size);
  if (status != edgenmt::Status::kOk) return static_cast<enmt_status>(status);
  if (bytes > SIZE_MAX - kTranslatorHeaderBytes) return ENMT_LIMIT_EXCEEDED;  // 32-bit targets
  *out_bytes = bytes + kTranslatorHeaderBytes;
  return ENMT_OK;
}

enmt_status enmt_translator_init(const enmt_model* model, void* arena, size_t arena_bytes,
                                 const enmt_limits* limits, enmt_translator** out_translator) {
  if (out_translator == nullptr) return ENMT_INVALID_ARGUMENT;
  *out_translator = nullptr;
  if (model == nullptr || arena == nullptr || limits == nullptr || !Aligned(arena) ||
      !ValidBackend(limits->backend)) {
    return ENMT_INVALID_ARGUMENT;
  }
  if (arena_bytes < kTranslatorHeaderBytes) return ENMT_ARENA_TOO_SMALL;
  enmt_translator* translator = new (arena) enmt_translator();
  const edgenmt::Status status = translator->translator.Init(
      &model->model, static_cast<uint8_t*>(arena) + kTranslatorHeaderBytes,
      arena_bytes - kTranslatorHeaderBytes, ToLimits(*limits));
  if (status != edgenmt::Status::kOk) return static_cast<enmt_status>(status);
  *out_translator = translator;
  return ENMT_OK;
}

const char* enmt_translator_error(const enmt_translator* translator) {
  return translator == nullptr ? "null translator" : translator->translator.error_detail();
}

size_t enmt_translator_arena_bytes_used(const enmt_translator* translator) {
  return translator == nullptr ? 0
                               : translator->translator.arena_bytes_used() + kTranslatorHeaderBytes;
}

enmt_status enmt_translate(enmt_translator* translator, const char* utf8, size_t len,
                           const enmt_options* options, int32_t* out_num_hypotheses) {
  if (translator == nullptr || options == nullptr || out_num_hypotheses == nullptr ||
      (utf8 == nullptr && len != 0)) {
    return ENMT_INVALID_ARGUMENT;
  }
  *out_num_hypotheses = 0;
  translator->has_result = false;
  const edgenmt::Status status = translator->translator.Translate(
      utf8 == nullptr ? "" : utf8, len, CopyOptionFields<edgenmt::DecodingOptions>(*options),
      &translator->result);
  if (status != edgenmt::Status::kOk) return static_cast<enmt_status>(status);
  translator->has_result = true;
  *out_num_hypotheses = translator->result.num_hypotheses;
  return ENMT_OK;
}

enmt_status enmt_get_hypothesis(const enmt_translator* translator, int32_t index,
                                enmt_hypothesis* out) {
  if (translator == nullptr || out == nullptr) return ENMT_INVALID_ARGUMENT;
  if (!translator->has_result) return ENMT_NOT_INITIALIZED;
  if (index < 0 || index >= translator->result.num_hypotheses) return ENMT_INVALID_ARGUMENT;
  CopyHypothesis(translator->result, index, out);
  return ENMT_OK;
}

enmt_status enmt_translate_batch(enmt_translator* translator, const char* const* sources,
                                 const size_t* lengths, int32_t count, const enmt_options* options,
                                 enmt_batch_callback callback, void* user) {
  if (translator == nullptr || options == nullptr || callback == nullptr || count < 0 ||
      (count > 0 && (sources == nullptr || lengths == nullptr))) {
    return ENMT_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < count; ++i) {
    if (sources[i] == nullptr) return ENMT_INVALID_ARGUMENT;
  }
  translator->has_result = false;  // the batch reuses the result buffers
  if (count == 0) return ENMT_OK;
  BatchBridge bridge{callback, user};
  return static_cast<enmt_status>(translator->translator.TranslateBatch(
      sources, lengths, count, CopyOptionFields<edgenmt::DecodingOptions>(*options),
      &BatchTrampoline, &bridge));
}

enmt_status enmt_batch_get_hypothesis(const enmt_batch_result* result, int32_t index,
                                      enmt_hypothesis* out) {
  if (result == nullptr || out == nullptr || result->internal == nullptr) {
    return ENMT_INVALID_ARGUMENT;
  }
  const auto& cpp = *static_cast<const edgenmt::TranslationResult*>(result->internal);
  if (index < 0 || index >= cpp.num_hypotheses) return ENMT_INVALID_ARGUMENT;
  CopyHypothesis(cpp, index, out);
  return ENMT_OK;
}

enmt_status enmt_get_source(const enmt_translator* translator, const int32_t** out_ids,
                            int32_t* out_len, int32_t* out_unknown) {
  if (translator == nullptr || out_ids == nullptr || out_len == nullptr || out_unknown == nullptr) {
    return ENMT_INVALID_ARGUMENT;
  }
  if (!translator->has_result) return ENMT_NOT_INITIALIZED;
  *out_ids = translator->result.src_ids;
  *out_len = translator->result.src_len;
  *out_unknown = translator->result.src_unknown;
  return ENMT_OK;
}

enmt_status enmt_model_token(const enmt_model* model, int32_t side, int32_t id,
                             const char** out_text, size_t* out_len) {
  if (model == nullptr || out_text == nullptr || out_len == nullptr || (side != 0 && side != 1)) {
    return ENMT_INVALID_ARGUMENT;
  }
  if (!model->model.loaded()) return ENMT_NOT_INITIALIZED;
  const edgenmt::VocabularyView& vocab =
      side == 0 ? model->model.src_vocab() : model->model.tgt_vocab();
  if (id < 0 || id >= vocab.size) return ENMT_INVALID_ARGUMENT;
  const edgenmt::TokenView token = vocab.Token(id);
  *out_text = token.data;
  *out_len = token.size;
  return ENMT_OK;
}

int32_t enmt_model_has_attention(const enmt_model* model) {
  return model != nullptr && model->model.loaded() && model->model.config().has_attention() ? 1 : 0;
}

}  // extern "C"
