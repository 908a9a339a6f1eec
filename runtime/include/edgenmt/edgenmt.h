/* edgenmt C API: the C++ runtime (edgenmt/translator.h) for firmware in C and for bindings.
 *
 * Memory: nothing here allocates. The caller provides
 *   - the model file bytes (flash or mmap; 64-byte aligned; never copied, must outlive
 *     everything made from it),
 *   - storage for the model object (enmt_model_storage_bytes(), 16-byte aligned),
 *   - one arena per translator (enmt_required_arena_bytes(); 16-byte aligned) which also holds
 *     the translator object itself.
 * Results (hypotheses, texts, attention) live in the translator's arena until its next
 * enmt_translate / enmt_translate_batch call (batch results: only during their callback). A
 * translator is not thread-safe; separate translators may share a model.
 *
 * Errors: every function returns an enmt_status (ENMT_OK = 0); enmt_*_error() gives a short
 * detail. Status values equal edgenmt::Status (edgenmt/status.h). Units: token counts, natural
 * log-probabilities, bytes.
 *
 *   static uint8_t model_storage[ENMT_MODEL_STORAGE_BYTES_MAX] __attribute__((aligned(16)));
 *   enmt_model* model;  enmt_model_load(model_storage, sizeof model_storage, g_model, g_model_size,
 * &model); enmt_limits limits; enmt_limits_default(model, &limits); size_t bytes;
 * enmt_required_arena_bytes(model, &limits, &bytes);      // e.g. at build time enmt_translator*
 * tr; enmt_translator_init(model, g_arena, sizeof g_arena, &limits, &tr); enmt_options opt;
 * enmt_options_default(model, &opt); int32_t n; enmt_translate(tr, "hello", 5, &opt, &n);
 *   enmt_hypothesis h; enmt_get_hypothesis(tr, 0, &h);   h.text == "HH AH L OW"
 */
#ifndef EDGENMT_C_API_H_
#define EDGENMT_C_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t enmt_status;
#define ENMT_OK 0
#define ENMT_INVALID_ARGUMENT 10
#define ENMT_NOT_INITIALIZED 11
#define ENMT_UNSUPPORTED 12
#define ENMT_MODEL_MALFORMED 20
#define ENMT_MODEL_VERSION_UNSUPPORTED 21
#define ENMT_MODEL_TENSOR_MISSING 22
#define ENMT_MODEL_TENSOR_INVALID 23
#define ENMT_MODEL_CONFIG_INVALID 24
#define ENMT_MODEL_VOCABULARY_INVALID 25
#define ENMT_SOURCE_EMPTY 30
#define ENMT_SOURCE_TOO_LONG 31
#define ENMT_SOURCE_INVALID_UTF8 32
#define ENMT_SOURCE_TOKEN_OUT_OF_RANGE 33
#define ENMT_USER_LEXICON_INVALID 34
#define ENMT_ARENA_TOO_SMALL 40
#define ENMT_LIMIT_EXCEEDED 41
#define ENMT_INTERNAL 90

/* Upper bound of enmt_model_storage_bytes() for static buffers (checked at compile time). */
#define ENMT_MODEL_STORAGE_BYTES_MAX 512

typedef struct enmt_model enmt_model;
typedef struct enmt_translator enmt_translator;

/* Kernel backends (edgenmt/kernel_backend.h). */
#define ENMT_BACKEND_REFERENCE 0
#define ENMT_BACKEND_XNNPACK 1
#define ENMT_BACKEND_SIMD 2 /* AVX2 / AVX-512 VNNI / NEON, detected at run time */
#define ENMT_BACKEND_AUTO 3 /* per operation, the fastest compiled-in backend */

/* The backend enmt_limits_default puts in limits.backend: ENMT_BACKEND_SIMD where this build
 * has it and the CPU has its baseline level (AVX2+FMA, NEON), else ENMT_BACKEND_REFERENCE; a
 * firmware build fixes it at compile time (CMake EDGENMT_DEFAULT_BACKEND). */
int32_t enmt_default_backend(void);
/* "reference", "xnnpack", "simd", "auto" ("unknown" otherwise), and what the backend runs on
 * this CPU ("avx512-vnni", "avx2-fma", "neon-dotprod", "neon", "portable"; "" when the backend
 * is not available here). Static strings. */
const char* enmt_backend_name(int32_t backend);
const char* enmt_backend_variant(int32_t backend);

typedef struct enmt_limits {
  int32_t max_src_len; /* source tokens; 0 = the model's max_src_len */
  int32_t max_beam;
  int32_t max_nbest;   /* <= max_beam */
  int32_t max_tgt_len; /* output tokens; 0 = the model's default max_len */
  int32_t backend;     /* ENMT_BACKEND_*; enmt_limits_default: enmt_default_backend() */
  int32_t attention;   /* nonzero: keep per-step attention so options may return it */
  int32_t max_batch;   /* sources enmt_translate_batch decodes together; 1 (the default; 0 is
                          taken as 1) sizes the arena exactly as without batching */
} enmt_limits;

typedef struct enmt_options {
  int32_t beam;        /* >= 1; 1 = greedy */
  int32_t nbest;       /* 1..beam */
  float alpha;         /* length penalty exponent ((5+|Y|)/6)^alpha, >= 0 */
  float beta;          /* coverage penalty weight, >= 0 */
  int32_t min_len;     /* tokens before </s> may be emitted */
  int32_t max_len;     /* <= limits.max_tgt_len */
  float max_len_ratio; /* 0 = off; else max steps = min(max_len, ceil(ratio * src_len)) */
  int32_t return_attention;
} enmt_options;

typedef struct enmt_hypothesis {
  const int32_t* ids; /* target ids, without <s> and </s> */
  int32_t length;
  const char* text; /* tokens joined by one space, NUL-terminated */
  size_t text_length;
  float score; /* log_prob / length penalty + coverage penalty */
  float log_prob;
  int32_t ended_with_eos; /* 0: stopped at the maximum length */
  const float* attention; /* [attention_steps, src_len] or NULL */
  int32_t attention_steps;
  int32_t src_len;
} enmt_hypothesis;

const char* enmt_status_name(enmt_status status);

size_t enmt_model_storage_bytes(void);
/* Verifies data[0, size) and builds a model view in `storage`. */
enmt_status enmt_model_load(void* storage, size_t storage_bytes, const void* data, size_t size,
                            enmt_model** out_model);
const char* enmt_model_error(const enmt_model* model);
void enmt_limits_default(const enmt_model* model, enmt_limits* out);
void enmt_options_default(const enmt_model* model, enmt_options* out);

/* Exact arena bytes for enmt_translator_init with these limits. */
enmt_status enmt_required_arena_bytes(const enmt_model* model, const enmt_limits* limits,
                                      size_t* out_bytes);
/* The same; on failure also writes the reason (the layer, tensor or limit that failed) into
 * detail[0, detail_size), NUL-terminated and truncated ("" on success). */
enmt_status enmt_required_arena_bytes_detail(const enmt_model* model, const enmt_limits* limits,
                                             size_t* out_bytes, char* detail, size_t detail_size);
/* Places the translator at the start of `arena` and plans everything else after it. On
 * ENMT_ARENA_TOO_SMALL, *out_translator is NULL and enmt_required_arena_bytes tells the need. */
enmt_status enmt_translator_init(const enmt_model* model, void* arena, size_t arena_bytes,
                                 const enmt_limits* limits, enmt_translator** out_translator);
const char* enmt_translator_error(const enmt_translator* translator);
size_t enmt_translator_arena_bytes_used(const enmt_translator* translator);

/* Translates utf8[0, len); *out_num_hypotheses receives how many n-best entries exist. */
enmt_status enmt_translate(enmt_translator* translator, const char* utf8, size_t len,
                           const enmt_options* options, int32_t* out_num_hypotheses);
/* The index-th hypothesis (0 = best) of the last successful enmt_translate. */
enmt_status enmt_get_hypothesis(const enmt_translator* translator, int32_t index,
                                enmt_hypothesis* out);

/* The source of the last successful enmt_translate as tokenized: *out_ids[0, *out_len) (valid
 * until the next enmt_translate) and how many tokens were mapped to <unk>. */
enmt_status enmt_get_source(const enmt_translator* translator, const int32_t** out_ids,
                            int32_t* out_len, int32_t* out_unknown);
/* ---- Batches (edgenmt::Translator::TranslateBatch) ------------------------------------------
 * enmt_translate_batch translates sources[i] (lengths[i] UTF-8 bytes) for i < count, up to
 * limits.max_batch at a time (continuous batching: a finished source's place goes to the next
 * waiting one). Each source gets exactly the result enmt_translate would give it and is
 * reported once through `callback`, in the order sources finish (not the input order: `index`
 * says which). `status` is that source's own (ENMT_OK, or a source error such as
 * ENMT_SOURCE_TOO_LONG, `detail` saying why); a bad source fails alone. `result` is NULL
 * unless ENMT_OK.
 *
 * Lifetime: `result`, everything read through it (hypotheses, texts, ids, attention) and
 * `detail` are valid only during the callback: copy what you keep. The callback must not call
 * enmt_translate* on the same translator (other translators are fine). After the call,
 * enmt_get_hypothesis / enmt_get_source have no result (ENMT_NOT_INITIALIZED) until the next
 * enmt_translate. The sources and lengths arrays are only read, during the call.
 *
 * Returns ENMT_OK once every source was reported; ENMT_INVALID_ARGUMENT (null pointers, a
 * null sources[i] (an empty source is "" with length 0), count < 0), ENMT_NOT_INITIALIZED or
 * an options error (as enmt_translate) before any source runs, and then no callback is made.
 * count == 0 returns ENMT_OK at once. Never allocates.
 *
 *   static void on_result(void* user, int32_t index, enmt_status status,
 *                         const enmt_batch_result* result, const char* detail) {
 *     enmt_hypothesis h;
 *     if (status == ENMT_OK && enmt_batch_get_hypothesis(result, 0, &h) == ENMT_OK)
 *       store(user, index, h.text, h.text_length);           // copy: h lives only until return
 *     else
 *       store_error(user, index, enmt_status_name(status), detail);
 *   }
 *   const char* words[] = {"hello", "world"};  size_t lens[] = {5, 5};
 *   enmt_translate_batch(tr, words, lens, 2, &opt, on_result, my_state);
 */
typedef struct enmt_batch_result {
  int32_t num_hypotheses; /* >= 1; enmt_batch_get_hypothesis(result, 0 .. num_hypotheses-1) */
  const int32_t* src_ids; /* [src_len] the source as tokenized */
  int32_t src_len;
  int32_t src_unknown;  /* source tokens mapped to <unk> */
  int32_t steps;        /* decoder steps run */
  const void* internal; /* the runtime's result; read it only through the accessors */
} enmt_batch_result;

typedef void (*enmt_batch_callback)(void* user, int32_t index, enmt_status status,
                                    const enmt_batch_result* result, const char* detail);

enmt_status enmt_translate_batch(enmt_translator* translator, const char* const* sources,
                                 const size_t* lengths, int32_t count, const enmt_options* options,
                                 enmt_batch_callback callback, void* user);
/* The index-th hypothesis (0 = best) of a batch result; only inside the callback. */
enmt_status enmt_batch_get_hypothesis(const enmt_batch_result* result, int32_t index,
                                      enmt_hypothesis* out);

/* Token `id` of the source (side 0) or target (side 1) vocabulary: *out_text[0, *out_len), not
 * NUL-terminated, inside the model buffer. */
enmt_status enmt_model_token(const enmt_model* model, int32_t side, int32_t id,
                             const char** out_text, size_t* out_len);
/* Nonzero when the model has an attention mechanism (enmt_limits.attention may then be set). */
int32_t enmt_model_has_attention(const enmt_model* model);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* EDGENMT_C_API_H_ */
