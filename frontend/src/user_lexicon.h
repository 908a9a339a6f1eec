// A user lexicon in CMUdict's text format parsed into a LexiconBuilder (caller memory, no heap):
// Phonemizer::LoadUserLexicon's parser, on its own so the fuzzer can reach it.
#ifndef EDGENMT_FRONTEND_USER_LEXICON_H_
#define EDGENMT_FRONTEND_USER_LEXICON_H_

#include <stddef.h>
#include <stdint.h>

#include "edgenmt/phonemizer.h"
#include "lexicon_format.h"

namespace edgenmt {
namespace text {

enum class UserLexiconResult : uint8_t { kOk, kBadLines, kLimitExceeded };

// Adds every good line of text[0, size) to *builder. Each bad line is reported through
// on_error (may be null) with its 1-based number; the first (or the limit that stopped it) is
// written to detail. kLimitExceeded: more than max_words words, or the builder's space is full.
UserLexiconResult ParseUserLexicon(const char* text, size_t size, uint32_t max_words,
                                   LexiconBuilder* builder, LexiconLineErrorFunction on_error,
                                   void* user, char* detail, size_t detail_size);

}  // namespace text
}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_USER_LEXICON_H_
