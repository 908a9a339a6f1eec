// Which of a heteronym's pronunciations the neighbouring words call for
// (docs/TEXT_NORMALIZATION.md "Heteronyms"): static rules, no heap.
#ifndef EDGENMT_FRONTEND_HETERONYM_RULES_H_
#define EDGENMT_FRONTEND_HETERONYM_RULES_H_

#include <stddef.h>

namespace edgenmt {
namespace text {

struct WordText {
  const char* text;  // lowercase; null when there is no such word in the phrase
  size_t len;
};

// The ARPAbet pronunciation (with stress, e.g. "R IY1 D") the context picks for `word`, or null
// when no rule applies (the dictionary's first pronunciation stands).
const char* HeteronymPronunciation(WordText word, WordText previous, WordText next);

// True for every word the rules know (the packer keeps all their pronunciations).
bool IsHeteronym(const char* word, size_t len);

// The rules' words, for tests and the packer: the i-th word, or null past the end.
const char* HeteronymWord(int i);

}  // namespace text
}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_HETERONYM_RULES_H_
