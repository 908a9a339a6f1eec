// Status codes returned by every fallible edgenmt call. The runtime never throws and never
// aborts on bad data: a model file, a source line or an option that is wrong yields one of
// these, and the object that failed keeps a short human-readable detail (see error_detail()).
#ifndef EDGENMT_STATUS_H_
#define EDGENMT_STATUS_H_

#include <stdint.h>

namespace edgenmt {

// Grouped by range like ExecuTorch's Error: 0 ok, 1x caller errors, 2x model file errors,
// 3x input errors, 4x resource errors, 9x internal.
enum class Status : int32_t {
  kOk = 0,

  kInvalidArgument = 10,  // a null pointer, a zero size, an option out of its documented range
  kNotInitialized = 11,   // a call on an object whose Init/Load did not succeed
  kUnsupported = 12,      // valid but not supported by this build (e.g. backend not compiled in)

  kModelMalformed = 20,           // not a FlatBuffer of our schema, truncated, bad identifier
  kModelVersionUnsupported = 21,  // format version newer (or older) than this runtime reads
  kModelTensorMissing = 22,       // a tensor the config needs is absent
  kModelTensorInvalid = 23,       // dtype, shape, buffer size, alignment or quantization wrong
  kModelConfigInvalid = 24,       // config values out of range or inconsistent
  kModelVocabularyInvalid = 25,   // vocabulary empty, special ids out of range, duplicate tokens

  kSourceEmpty = 30,            // no tokens after tokenization (empty or whitespace-only line)
  kSourceTooLong = 31,          // more tokens than the session's max_src_len
  kSourceInvalidUtf8 = 32,      // malformed UTF-8 in a source line
  kSourceTokenOutOfRange = 33,  // a token id outside the source vocabulary
  kUserLexiconInvalid = 34,     // a user lexicon line the phonemizer cannot read (frontend/)

  kArenaTooSmall = 40,  // caller's arena is smaller than required_arena_bytes()
  kLimitExceeded = 41,  // beam / n-best / length larger than the session was sized for

  kInternal = 90,
};

// Stable, static, human-readable name ("ModelTensorMissing"). Never null.
const char* StatusName(Status status);

inline bool IsOk(Status status) { return status == Status::kOk; }

}  // namespace edgenmt

// Propagates a non-ok status to the caller.
#define EDGENMT_RETURN_IF_ERROR(expr)                                      \
  do {                                                                     \
    const ::edgenmt::Status edgenmt_status_ = (expr);                      \
    if (edgenmt_status_ != ::edgenmt::Status::kOk) return edgenmt_status_; \
  } while (0)

#endif  // EDGENMT_STATUS_H_
