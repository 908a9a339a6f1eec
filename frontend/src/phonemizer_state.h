// Phonemizer::State: what a Phonemizer keeps in its arena, and the lookup chain every word goes
// through (user lexicon, file lexicon, model). Internal to frontend/.
#ifndef EDGENMT_FRONTEND_PHONEMIZER_STATE_H_
#define EDGENMT_FRONTEND_PHONEMIZER_STATE_H_

#include <stddef.h>
#include <stdint.h>

#include "arpabet.h"
#include "edgenmt/phonemizer.h"
#include "bucketed_lexicon.h"
#include "lexicon_format.h"
#include "word_sink.h"

namespace edgenmt {

// A phrase is read word by word and written out at each break (or when full), so heteronym
// rules see their neighbours and a line of any length fits.
constexpr int kPhraseWords = 64;
constexpr int kPhraseItems = 64;
constexpr int kMaxWordChars = 64;  // longer words are read in pieces
constexpr int kMaxWordPhones = 96;

struct PhraseWord {
  char text[kMaxWordChars];
  uint8_t len;
  text::WordSource source;
  WordOrigin origin;
  uint8_t num_phones;
  uint16_t item;
  text::PhoneCode phones[kMaxWordPhones];
};

struct PhraseItem {
  uint32_t begin, end;  // byte span in the line
  uint16_t first_word, num_words;
  char mark[4];  // a break's mark ("" for words)
  bool space_before;
};

struct Phonemizer::State {
  text::BucketedLexicon lexicon;  // the file's (num_buckets 0 when use_lexicon is off)
  bool lexicon_complete = false;
  uint32_t lexicon_words = 0;
  text::LexiconBuilder user;  // over the arena's user lexicon space
  bool user_loaded = false;
  uint32_t* user_slots = nullptr;
  uint32_t user_num_slots = 0;
  uint8_t* user_pool = nullptr;
  uint32_t user_max_words = 0;
  uint32_t user_max_bytes = 0;
  // Target id -> phoneme; 0xFF for the specials.
  text::PhoneCode target_phone[256];
  int32_t max_src_len = 0;
  TranslateOptions options;
  PhraseWord words[kPhraseWords];
  PhraseItem items[kPhraseItems];
};

// The lookup chain over a State (and the model's Translator).
class WordLookup {
 public:
  WordLookup(Phonemizer::State* state, Translator* translator)
      : state_(state), translator_(translator) {}
  // The entry of `word` (lowercase) in the user lexicon, else the file's lexicon.
  text::LexiconEntry Find(const char* word, size_t n, WordOrigin* origin) const;
  // The model's phonemes for `word` (lowercase letters and '), read in pieces of at most
  // max_src_len characters; returns the count written (<= cap), or -1 with *error set.
  int FromModel(const char* word, size_t n, text::PhoneCode* out, int cap,
                const char** error) const;
  // The word's first listed pronunciation (user lexicon, then lexicon; *origin says which), or
  // when it is not listed and ask_model is set, the model's (*origin kModel). Returns the count
  // written to out (<= cap), -1 when the model failed (*error says why), kNotListed when the
  // word is not listed and ask_model is not set.
  static constexpr int kNotListed = -2;
  int FirstPronunciation(const char* word, size_t n, bool ask_model, text::PhoneCode* out, int cap,
                         WordOrigin* origin, const char** error) const;

 private:
  Phonemizer::State* state_;
  Translator* translator_;
};

}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_PHONEMIZER_STATE_H_
