// The phonemizer's C API (edgenmt/phonemizer_c.h) over edgenmt::Phonemizer.
#include <stdint.h>

#include <new>

#include "edgenmt/phonemizer.h"
#include "edgenmt/phonemizer_c.h"

struct enmt_phonemizer {
  edgenmt::Phonemizer impl;
};

namespace {

edgenmt::PhonemizerLimits ToLimits(const enmt_phonemizer_limits* in) {
  edgenmt::PhonemizerLimits limits;
  if (in == nullptr) return limits;
  limits.use_lexicon = in->use_lexicon != 0;
  limits.user_lexicon_max_words = in->user_lexicon_max_words;
  limits.user_lexicon_max_bytes = in->user_lexicon_max_bytes;
  limits.backend = static_cast<edgenmt::KernelBackend>(in->backend);
  return limits;
}

}  // namespace

extern "C" {

size_t enmt_phonemizer_storage_bytes(void) { return sizeof(enmt_phonemizer); }

void enmt_phonemizer_limits_default(enmt_phonemizer_limits* out) {
  if (out == nullptr) return;
  const edgenmt::PhonemizerLimits limits;
  out->use_lexicon = limits.use_lexicon ? 1 : 0;
  out->user_lexicon_max_words = limits.user_lexicon_max_words;
  out->user_lexicon_max_bytes = limits.user_lexicon_max_bytes;
  out->backend = static_cast<int32_t>(limits.backend);
}

enmt_status enmt_phonemizer_required_arena_bytes(const void* file, size_t size,
                                                 const enmt_phonemizer_limits* limits,
                                                 size_t* out_bytes, char* detail,
                                                 size_t detail_size) {
  return static_cast<enmt_status>(edgenmt::Phonemizer::RequiredArenaBytes(
      file, size, ToLimits(limits), out_bytes, detail, detail_size));
}

enmt_status enmt_phonemizer_init(void* storage, size_t storage_bytes, const void* file, size_t size,
                                 const enmt_phonemizer_limits* limits, void* arena,
                                 size_t arena_bytes, enmt_phonemizer** out_phonemizer) {
  if (out_phonemizer == nullptr) return ENMT_INVALID_ARGUMENT;
  *out_phonemizer = nullptr;
  if (storage == nullptr || storage_bytes < sizeof(enmt_phonemizer) ||
      reinterpret_cast<uintptr_t>(storage) % alignof(enmt_phonemizer) != 0) {
    return ENMT_INVALID_ARGUMENT;
  }
  enmt_phonemizer* p = new (storage) enmt_phonemizer();
  *out_phonemizer = p;
  return static_cast<enmt_status>(p->impl.Init(file, size, ToLimits(limits), arena, arena_bytes));
}

enmt_status enmt_phonemizer_load_user_lexicon(enmt_phonemizer* phonemizer, const char* text,
                                              size_t size, enmt_lexicon_error_fn on_error,
                                              void* user) {
  if (phonemizer == nullptr) return ENMT_INVALID_ARGUMENT;
  return static_cast<enmt_status>(phonemizer->impl.LoadUserLexicon(text, size, on_error, user));
}

enmt_status enmt_phonemize(enmt_phonemizer* phonemizer, const char* utf8, size_t len,
                           int32_t format, enmt_write_fn write, enmt_warn_fn warn, void* user) {
  if (phonemizer == nullptr || format < 0 || format > ENMT_PHONEMES_JSON) {
    return ENMT_INVALID_ARGUMENT;
  }
  edgenmt::PhonemizerOutput output;
  output.write = write;
  output.warn = warn;
  output.user = user;
  return static_cast<enmt_status>(
      phonemizer->impl.Phonemize(utf8, len, static_cast<edgenmt::PhonemeFormat>(format), output));
}

const char* enmt_phonemizer_error(const enmt_phonemizer* phonemizer) {
  return phonemizer ? phonemizer->impl.error_detail() : "null phonemizer";
}

size_t enmt_phonemizer_arena_bytes_used(const enmt_phonemizer* phonemizer) {
  return phonemizer ? phonemizer->impl.arena_bytes_used() : 0;
}

}  // extern "C"
