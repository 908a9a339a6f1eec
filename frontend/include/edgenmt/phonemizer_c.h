/* The phonemizer's C API (edgenmt/phonemizer.h in C): English text in, phonemes out, with caller
 * storage for every object and output through callbacks. Statuses are edgenmt.h's ENMT_*.
 *
 * Ownership and lifetime: the file (64-byte aligned), the storage and the arena (16-byte aligned)
 * are the caller's and must outlive the phonemizer; nothing is allocated. One phonemizer is not
 * thread-safe. Units: bytes. */
#ifndef EDGENMT_PHONEMIZER_C_H_
#define EDGENMT_PHONEMIZER_C_H_

#include <stddef.h>
#include <stdint.h>

#include "edgenmt/edgenmt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct enmt_phonemizer enmt_phonemizer;

#define ENMT_PHONEMES_ARPABET 0
#define ENMT_PHONEMES_IPA 1
#define ENMT_PHONEMES_JSON 2

typedef struct enmt_phonemizer_limits {
  int32_t use_lexicon;             /* 0: only the user lexicon and the model */
  uint32_t user_lexicon_max_words; /* 0 and 0: no user lexicon */
  uint32_t user_lexicon_max_bytes;
  int32_t backend; /* ENMT_BACKEND_* */
} enmt_phonemizer_limits;

/* Output bytes of a line (the last call of a line ends with '\n'); a warning about skipped text. */
typedef void (*enmt_write_fn)(void* user, const char* bytes, size_t n);
typedef void (*enmt_warn_fn)(void* user, const char* message);
/* A bad user lexicon line: its 1-based number and why. */
typedef void (*enmt_lexicon_error_fn)(void* user, uint32_t line, const char* message);

/* Bytes (and 16-byte alignment) the phonemizer object needs in caller storage. */
size_t enmt_phonemizer_storage_bytes(void);
void enmt_phonemizer_limits_default(enmt_phonemizer_limits* out);
/* Exact arena bytes enmt_phonemizer_init needs; the reason of a failure goes to detail. */
enmt_status enmt_phonemizer_required_arena_bytes(const void* file, size_t size,
                                                 const enmt_phonemizer_limits* limits,
                                                 size_t* out_bytes, char* detail,
                                                 size_t detail_size);
/* Verifies the file and builds the phonemizer in `storage` over `arena`. On failure
 * *out_phonemizer is still set (so enmt_phonemizer_error can say why) unless storage is bad. */
enmt_status enmt_phonemizer_init(void* storage, size_t storage_bytes, const void* file, size_t size,
                                 const enmt_phonemizer_limits* limits, void* arena,
                                 size_t arena_bytes, enmt_phonemizer** out_phonemizer);
enmt_status enmt_phonemizer_load_user_lexicon(enmt_phonemizer* phonemizer, const char* text,
                                              size_t size, enmt_lexicon_error_fn on_error,
                                              void* user);
/* One line (without its '\n') in `format` (ENMT_PHONEMES_*), written through `write`. */
enmt_status enmt_phonemize(enmt_phonemizer* phonemizer, const char* utf8, size_t len,
                           int32_t format, enmt_write_fn write, enmt_warn_fn warn, void* user);
const char* enmt_phonemizer_error(const enmt_phonemizer* phonemizer);
size_t enmt_phonemizer_arena_bytes_used(const enmt_phonemizer* phonemizer);

#ifdef __cplusplus
}
#endif

#endif /* EDGENMT_PHONEMIZER_C_H_ */
