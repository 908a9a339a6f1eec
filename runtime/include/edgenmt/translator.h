// Translating with a loaded Model inside one caller-provided arena.
//
//   SessionLimits limits;                         // sizes the arena for the worst case
//   limits.max_src_len = 32; limits.max_beam = 5; limits.max_nbest = 5; limits.max_tgt_len = 48;
//   size_t bytes = 0;
//   RequiredArenaBytes(model, limits, &bytes);    // exact, same planning code as Init
//   alignas(16) static uint8_t arena[kBytes];     // or any caller memory, 16-byte aligned
//   Translator translator;
//   translator.Init(&model, arena, sizeof arena, limits);
//   TranslateOptions options = TranslateOptions::FromModel(model);  // stored decoding defaults
//   TranslationResult result;
//   translator.Translate("hello", 5, options, &result);
//   result.hypotheses[0].text                      // "HH AH L OW"
//
// Memory: Init takes every buffer it will ever need from the arena (weights stay in the model
// buffer), so arena_bytes_used() == RequiredArenaBytes() exactly, and Translate/TranslateIds
// never allocate (no heap anywhere in the runtime). Arena layout: kArenaAlignment (16 bytes)
// aligned bump allocation; the arena must start at a 16-byte boundary. The session's layer
// objects (Translator::State, a few KB) sit at the start of the arena, followed by the buffers
// in plan order. Init and RequiredArenaBytes need about sizeof(Translator::State) of stack
// while planning (the measuring pass has no arena to place it in).
//
// Ownership and lifetime: the Translator keeps pointers to the Model and to the arena; both
// must outlive it and stay unchanged. It owns nothing and needs no destruction beyond going
// out of scope. Results point into the arena and stay valid until the next Translate /
// TranslateIds / Init on the same Translator. One Translator is not thread-safe; separate
// Translators (separate arenas) over the same Model may run concurrently.
//
// Units: lengths are token counts; scores and log-probs are natural logarithms; sizes in bytes.
#ifndef EDGENMT_TRANSLATOR_H_
#define EDGENMT_TRANSLATOR_H_

#include <stddef.h>
#include <stdint.h>

#include "edgenmt/decoding_options.h"
#include "edgenmt/kernel_backend.h"
#include "edgenmt/model.h"
#include "edgenmt/status.h"

namespace edgenmt {

// Largest SessionLimits::max_batch.
constexpr int32_t kMaxBatch = 1024;

// Worst case a Translator is sized for. Everything Translate may need is reserved at Init.
struct SessionLimits {
  int32_t max_src_len = 0;  // source tokens; 0 = the model's max_src_len (may not exceed it)
  int32_t max_beam = 1;     // largest TranslateOptions::beam
  int32_t max_nbest = 1;    // largest TranslateOptions::nbest (<= max_beam)
  int32_t max_tgt_len = 0;  // output tokens; 0 = the model's decoding max_len
  KernelBackend backend = DefaultKernelBackend();  // kReference to check against the reference
  // Sources TranslateBatch decodes together (its rows: max_batch * max_beam). 1 sizes the arena
  // exactly as a session without batching; more adds per-source encoder memory, search state
  // and source ids (RequiredArenaBytes gives the exact figure).
  int32_t max_batch = 1;
  // Reserve per-step attention history so TranslateOptions::return_attention may be set
  // (costs max_tgt_len * (max_beam + max_nbest) * max_src_len floats).
  bool attention = false;
};

// Decoding options (edgenmt/decoding_options.h; docs/MODEL.md "Decoding"), checked in this
// order: beam > max_beam, nbest > max_nbest or max_len > max_tgt_len of the SessionLimits is
// kLimitExceeded; a value outside ValidateDecodingOptions' ranges is kInvalidArgument;
// return_attention without SessionLimits::attention is kLimitExceeded.
// TranslateOptions::FromModel(model) gives the model's stored defaults.
using TranslateOptions = DecodingOptions;

// One output hypothesis. All pointers point into the Translator's arena.
struct Hypothesis {
  const int32_t* ids;  // [length] target ids, without <s> and </s>
  int32_t length;
  const char* text;     // detokenized, NUL-terminated (tokens joined by one space)
  size_t text_length;   // bytes, without the NUL
  float score;          // final score: log_prob / lp + cp (greedy: log_prob)
  float log_prob;       // sum of token log-probs, including </s> when emitted
  bool ended_with_eos;  // false: stopped by the maximum length
  // [attention_steps, src_len] row-major, row t = a_t over the source positions (in encoder
  // order, i.e. reversed when the model reverses the source); null unless return_attention.
  // attention_steps = length + 1 when ended_with_eos (the </s> step), else length.
  const float* attention;
  int32_t attention_steps;
};

struct TranslationResult {
  int32_t num_hypotheses = 0;              // min(nbest, finished hypotheses), >= 1 on kOk
  const Hypothesis* hypotheses = nullptr;  // best first
  const int32_t* src_ids = nullptr;        // [src_len] source ids as tokenized
  int32_t src_len = 0;
  int32_t src_unknown = 0;  // source tokens mapped to <unk>
  int32_t steps = 0;        // decoder steps run
};

// Exact arena bytes Init(model, ..., limits) will use; the same planning code as Init.
// Errors as Init (except kArenaTooSmall); kLimitExceeded also when the size does not fit size_t
// (limits too large for a 32-bit target). When `detail` is non-null, the reason for a failure
// (the layer, tensor or limit) is written there, NUL-terminated and truncated to detail_size
// bytes ("" on success).
Status RequiredArenaBytes(const Model& model, const SessionLimits& limits, size_t* out_bytes,
                          char* detail = nullptr, size_t detail_size = 0);

// The arena's two regions (runtime/internal/edgenmt/internal/arena.h): persistent (the session's
// objects, weights-derived state, encoder memory, decoder states, results) and scratch (reused
// between the encoder and the decoder steps). total == persistent + scratch == RequiredArenaBytes.
struct ArenaBytes {
  size_t total = 0;
  size_t persistent = 0;
  size_t scratch = 0;
};
Status RequiredArenaBytes(const Model& model, const SessionLimits& limits, ArenaBytes* out,
                          char* detail = nullptr, size_t detail_size = 0);

// TranslateBatch's report for one source, called once per source as soon as it is done (the
// order sources finish in, not the input order: `index` says which). status is that source's
// own (kOk, or a source error such as kSourceTooLong with `detail` saying why); `result` is
// null unless kOk. `result`, everything it points to and `detail` are valid only during the
// call. The callback must not call into the same Translator.
using TranslateBatchCallback = void (*)(void* user, int32_t index, Status status,
                                        const TranslationResult* result, const char* detail);

class Translator {
 public:
  Translator() = default;
  Translator(const Translator&) = delete;
  Translator& operator=(const Translator&) = delete;

  // Plans and reserves everything. Errors: kInvalidArgument (null model / arena, arena not
  // 16-byte aligned, limits out of range), kNotInitialized (model not loaded), kUnsupported
  // (backend not compiled in, quantized model in a float build), kLimitExceeded (limits beyond
  // the model, e.g. max_src_len > model max_src_len), kModel* (a tensor the config needs is
  // missing or has the wrong shape), kArenaTooSmall (error_detail() then gives the required
  // byte count; required_arena_bytes() returns it too).
  Status Init(const Model* model, void* arena, size_t arena_bytes, const SessionLimits& limits);

  // Tokenizes utf8[0, len) (edgenmt/tokenizer.h), then TranslateIds. Source errors:
  // kSourceInvalidUtf8, kSourceEmpty, kSourceTooLong (more than max_src_len tokens).
  Status Translate(const char* utf8, size_t len, const TranslateOptions& options,
                   TranslationResult* result);

  // Translates source ids (each in [0, source vocabulary size), else kSourceTokenOutOfRange;
  // 0 ids: kSourceEmpty; more than max_src_len: kSourceTooLong).
  Status TranslateIds(const int32_t* src_ids, int32_t src_len, const TranslateOptions& options,
                      TranslationResult* result);

  // Translates sources[i] (utf8 bytes, lengths[i] of them) for i < count, up to
  // SessionLimits::max_batch at a time: the encoder runs them together and every decoder step
  // advances all live hypotheses of all of them at once; when one finishes, the next waiting
  // source takes its place (continuous batching). Each source gets exactly the result
  // Translate would give it (byte for byte in the integer schemes) and is reported through
  // `callback` (see TranslateBatchCallback); a source that fails (bad UTF-8, empty, too long)
  // fails alone. Returns kOk when every source was reported; kInvalidArgument (null pointers,
  // count < 0), kNotInitialized or an options error (as Translate) before any source is run,
  // and then no callback is made. Never allocates.
  Status TranslateBatch(const char* const* sources, const size_t* lengths, int32_t count,
                        const TranslateOptions& options, TranslateBatchCallback callback,
                        void* user);

  // Teacher forcing: scores the target tgt_ids[0, tgt_len) (without <s>/</s>) for the source
  // src_ids[0, src_len). Writes tgt_len + 1 natural-log probabilities to step_log_probs:
  // log p(tgt_t | tgt_<t, src) for t < tgt_len, then log p(</s> | tgt, src). Used to compare
  // a quantized model with its float reference step by step. Errors as TranslateIds, plus
  // kLimitExceeded when tgt_len >= max_tgt_len and kInvalidArgument for a target id outside
  // the target vocabulary. Never allocates.
  Status ScoreIds(const int32_t* src_ids, int32_t src_len, const int32_t* tgt_ids, int32_t tgt_len,
                  float* step_log_probs);

  bool initialized() const { return initialized_; }
  const SessionLimits& limits() const { return limits_; }
  // Bytes of the arena in use after a successful Init (== RequiredArenaBytes).
  size_t arena_bytes_used() const { return arena_bytes_used_; }
  // The two regions of arena_bytes_used() after a successful Init.
  size_t arena_persistent_bytes() const { return arena_persistent_bytes_; }
  size_t arena_scratch_bytes() const { return arena_scratch_bytes_; }
  // The requirement learned by the last Init (also after kArenaTooSmall); 0 if unknown.
  size_t required_arena_bytes() const { return required_arena_bytes_; }
  const Model* model() const { return model_; }

  // Short description of the last failure, NUL-terminated, never null.
  const char* error_detail() const { return error_detail_; }

  // Internal state, opaque to callers (defined in runtime/src/translator_state.h). Public only
  // so RequiredArenaBytes can run the same planning code.
  struct State;

 private:
  Status CheckOptions(const TranslateOptions& options);
  // The source checks TranslateIds and ScoreIds share (pointer and sign already checked):
  // kSourceEmpty, kSourceTooLong, kSourceTokenOutOfRange.
  Status CheckSource(const int32_t* src_ids, int32_t src_len);
  // Tokenizes utf8[0, len) into ids[0, max_src_len) (Translate's source errors, with detail).
  Status TokenizeInto(const char* utf8, size_t len, int32_t* ids, int32_t* num_ids,
                      int32_t* num_unknown);
  // Writes the concatenated parts (C strings, integers) into error_detail_ and returns
  // `status`; defined in translator_state.h.
  template <typename... Parts>
  Status Fail(Status status, const Parts&... parts);

  const Model* model_ = nullptr;
  State* state_ = nullptr;  // lives in the arena
  SessionLimits limits_{};
  bool initialized_ = false;
  size_t arena_bytes_used_ = 0;
  size_t arena_persistent_bytes_ = 0;
  size_t arena_scratch_bytes_ = 0;
  size_t required_arena_bytes_ = 0;
  char error_detail_[160] = {0};
};

}  // namespace edgenmt

#endif  // EDGENMT_TRANSLATOR_H_
