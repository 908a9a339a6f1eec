// Source tokenization and target detokenization for an edgenmt model, no heap, no locale.
//
// Char mode (config tokenizer "char", the G2P models): the line is decoded as UTF-8 (malformed
// UTF-8, overlong forms, surrogates and code points above U+10FFFF are rejected with
// kSourceInvalidUtf8); leading and trailing ASCII whitespace is dropped; every remaining code
// point, with ASCII A-Z lowercased, is one token, looked up in the source vocabulary. Inner
// whitespace is a token like any other character.
// Word mode (tokenizer "word"): the line must be valid UTF-8; tokens are the maximal runs of
// non-whitespace bytes (ASCII space, \t, \n, \v, \f, \r separate), looked up unchanged.
// In both modes a token missing from the vocabulary becomes the vocabulary's <unk> id and is
// counted in *num_unknown so callers can report it. A line with no tokens is kSourceEmpty.
//
// Detokenization joins the target tokens' strings with one ASCII space (phonemes in char-mode
// models, words in word-mode models). Ids are written as their vocabulary strings, special
// tokens included.
#ifndef EDGENMT_TOKENIZER_H_
#define EDGENMT_TOKENIZER_H_

#include <stddef.h>
#include <stdint.h>

#include "edgenmt/model.h"
#include "edgenmt/status.h"

namespace edgenmt {

// Tokenizes utf8[0, len) (need not be NUL-terminated; len 0 is allowed and gives kSourceEmpty)
// into ids[0, *num_ids). At most max_ids tokens are written; a longer line returns
// kSourceTooLong (then *num_ids = max_ids, and *num_tokens_seen, when not null, receives the
// full token count so callers can report it). num_unknown may be null. `model` must be loaded.
// Returns kOk, kInvalidArgument (null pointers, max_ids < 1, model not loaded),
// kSourceInvalidUtf8, kSourceEmpty or kSourceTooLong.
Status TokenizeSource(const Model& model, const char* utf8, size_t len, int32_t* ids,
                      int32_t max_ids, int32_t* num_ids, int32_t* num_unknown,
                      int32_t* num_tokens_seen = nullptr);

// Bytes needed to detokenize any `count` target ids, including the terminating NUL:
// count * (longest target token + 1) + 1. Scans the vocabulary (O(V)).
size_t MaxDetokenizedBytes(const Model& model, int32_t count);

// Writes the target tokens ids[0, count) joined by single spaces, NUL-terminated, into
// out[0, out_size); *out_len (may be null) receives the length without the NUL. count may be 0
// (empty string). kInvalidArgument for null pointers, an id outside the target vocabulary, or
// out_size too small (nothing useful is written then beyond a NUL at out[0] if out_size > 0).
Status DetokenizeTarget(const Model& model, const int32_t* ids, int32_t count, char* out,
                        size_t out_size, size_t* out_len);

// Decodes one UTF-8 code point from s[0, len) (len >= 1). Returns the number of bytes (1..4)
// and the code point in *code_point, or 0 if the sequence is malformed or truncated.
int32_t DecodeUtf8(const uint8_t* s, size_t len, uint32_t* code_point);

}  // namespace edgenmt

#endif  // EDGENMT_TOKENIZER_H_
