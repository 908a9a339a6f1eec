#include "heteronym_rules.h"

#include <string.h>

namespace edgenmt {
namespace text {
namespace {

struct Rule {
  const char* word;
  const char* verb;        // after to / a modal / a subject pronoun
  const char* past;        // after have / was / is ...
  const char* noun;        // after a determiner or preposition
  const char* next_words;  // space-separated words after which...
  const char* next_pron;   // ...this pronunciation wins
  const char* prev_words;  // space-separated words before which...
  const char* prev_pron;   // ...this pronunciation wins
};

constexpr Rule kRules[] = {
    {"read", "R IY1 D", "R EH1 D", nullptr, nullptr, nullptr, nullptr, nullptr},
    {"lead", "L IY1 D", "L EH1 D", "L IY1 D", "pipe pipes paint poisoning pencil pencils",
     "L EH1 D", nullptr, nullptr},
    {"live", "L IH1 V", nullptr, "L AY1 V", nullptr, nullptr, nullptr, nullptr},
    {"wind", "W AY1 N D", nullptr, "W IH1 N D", nullptr, nullptr, nullptr, nullptr},
    {"tear", "T EH1 R", nullptr, "T IH1 R", nullptr, nullptr, nullptr, nullptr},
    {"close", "K L OW1 Z", nullptr, nullptr, "to", "K L OW1 S", nullptr, nullptr},
    {"use", "Y UW1 Z", "Y UW1 Z", "Y UW1 S", nullptr, nullptr, nullptr, nullptr},
    {"record", "R IH0 K AO1 R D", nullptr, "R EH1 K ER0 D", nullptr, nullptr, nullptr, nullptr},
    {"present", "P R IY0 Z EH1 N T", "P R IY0 Z EH1 N T", "P R EH1 Z AH0 N T", nullptr, nullptr,
     nullptr, nullptr},
    {"object", "AH0 B JH EH1 K T", nullptr, "AA1 B JH EH0 K T", nullptr, nullptr, nullptr, nullptr},
    {"content", nullptr, "K AH0 N T EH1 N T", "K AA1 N T EH0 N T", nullptr, nullptr, nullptr,
     nullptr},
    {"desert", "D IH0 Z ER1 T", nullptr, "D EH1 Z ER0 T", nullptr, nullptr, nullptr, nullptr},
    {"minute", nullptr, nullptr, "M IH1 N AH0 T", nullptr, nullptr, "very so too most",
     "M AY0 N UW1 T"},
    {"wound", "W UW1 N D", nullptr, "W UW1 N D", nullptr, nullptr, nullptr, nullptr},
    {"bass", nullptr, nullptr, nullptr, "guitar guitarist player line drum clef voice singer",
     "B EY1 S", nullptr, nullptr},
    {"bow", "B AW1", nullptr, nullptr, "and tie ties string strings", "B OW1", nullptr, nullptr},
    {"refuse", "R IH0 F Y UW1 Z", nullptr, "R EH1 F Y UW2 Z", nullptr, nullptr, nullptr, nullptr},
    {"project", "P R AA0 JH EH1 K T", nullptr, "P R AA1 JH EH0 K T", nullptr, nullptr, nullptr,
     nullptr},
    {"permit", "P ER0 M IH1 T", nullptr, "P ER1 M IH2 T", nullptr, nullptr, nullptr, nullptr},
    {"produce", "P R AH0 D UW1 S", nullptr, "P R OW1 D UW0 S", nullptr, nullptr, nullptr, nullptr},
    {"conduct", "K AA0 N D AH1 K T", nullptr, "K AA1 N D AH0 K T", nullptr, nullptr, nullptr,
     nullptr},
    {"contract", "K AH0 N T R AE1 K T", nullptr, "K AA1 N T R AE2 K T", nullptr, nullptr, nullptr,
     nullptr},
    {"subject", "S AH0 B JH EH1 K T", nullptr, "S AH1 B JH IH0 K T", nullptr, nullptr, nullptr,
     nullptr},
    {"excuse", "IH0 K S K Y UW1 Z", nullptr, "IH0 K S K Y UW1 S", nullptr, nullptr, nullptr,
     nullptr},
};

constexpr const char* kVerbContext =
    "to will would can could shall should may might must do does did don't didn't won't can't "
    "cannot please i you we they";
constexpr const char* kPastContext = "have has had having was were been be is are am";
constexpr const char* kNounContext =
    "a an the this that these those my your his her its our their some any no every each of in "
    "on at for with from by";

// True when `word` is one of the space-separated words of `list`.
bool InList(const char* list, WordText word) {
  if (!list || !word.text || word.len == 0) return false;
  const char* p = list;
  while (*p) {
    size_t n = 0;
    while (p[n] && p[n] != ' ') ++n;
    if (n == word.len && memcmp(p, word.text, n) == 0) return true;
    p += n;
    while (*p == ' ') ++p;
  }
  return false;
}

}  // namespace

const char* HeteronymPronunciation(WordText word, WordText previous, WordText next) {
  for (const Rule& r : kRules) {
    if (strlen(r.word) != word.len || memcmp(r.word, word.text, word.len) != 0) continue;
    if (InList(r.next_words, next)) return r.next_pron;
    if (InList(r.prev_words, previous)) return r.prev_pron;
    if (InList(kVerbContext, previous)) return r.verb;
    if (InList(kPastContext, previous)) return r.past;
    if (InList(kNounContext, previous)) return r.noun;
    return nullptr;
  }
  return nullptr;
}

bool IsHeteronym(const char* word, size_t len) {
  for (const Rule& r : kRules) {
    if (strlen(r.word) == len && memcmp(r.word, word, len) == 0) return true;
  }
  return false;
}

const char* HeteronymWord(int i) {
  constexpr int kCount = static_cast<int>(sizeof kRules / sizeof kRules[0]);
  return (i >= 0 && i < kCount) ? kRules[i].word : nullptr;
}

}  // namespace text
}  // namespace edgenmt
