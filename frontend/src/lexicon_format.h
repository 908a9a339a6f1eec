// A lexicon's entries, and the open-addressing hash table over them that the user lexicon is
// built into (in the arena, one word at a time). The file's lexicon stores the same entries in
// hash-bucket order instead (bucketed_lexicon.h: 1 byte of index a word rather than 8-16). The
// packer (converter/phonemizer_pack.cc) and the phonemizer share these definitions.
//
// Entry: [word length n][n lowercase word bytes][pronunciation count k], then k times
// [phoneme count m][m PhoneCodes]. All counts are one byte (1..255; words and pronunciations are
// never empty). slots[h] = 0: empty; else 1 + the entry's byte offset.
#ifndef EDGENMT_FRONTEND_LEXICON_FORMAT_H_
#define EDGENMT_FRONTEND_LEXICON_FORMAT_H_

#include <stddef.h>
#include <stdint.h>

#include "arpabet.h"

namespace edgenmt {
namespace text {

constexpr size_t kMaxLexiconWordBytes = 255;
constexpr int kMaxPronunciations = 255;
constexpr int kMaxPronunciationPhones = 255;

// FNV-1a over the word's bytes: the slot is hash & (num_slots - 1), probed linearly.
inline uint32_t LexiconHash(const char* word, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i) {
    h ^= static_cast<uint8_t>(word[i]);
    h *= 16777619u;
  }
  return h;
}

// Parses the entry at `offset` of bytes[0, size): its word span, its pronunciation block (the
// count byte) and the entry's end; false, with the broken rule in *why, when it runs past `size`,
// has a zero count or a code that is not a phoneme. Word bytes are not checked here.
bool ParseLexiconEntry(const uint8_t* bytes, size_t size, size_t offset, const uint8_t** word,
                       size_t* word_len, const uint8_t** prons, size_t* end, const char** why);

// A stored word's bytes: printable ASCII without upper case (what both lexicon layouts hold).
bool LexiconWordBytesValid(const uint8_t* word, size_t n);

// One pronunciation inside an entry.
struct PronunciationView {
  const PhoneCode* phones;
  int count;
};

// A found entry: its pronunciations in dictionary order.
class LexiconEntry {
 public:
  LexiconEntry() = default;
  explicit LexiconEntry(const uint8_t* prons) : prons_(prons) {}
  bool found() const { return prons_ != nullptr; }
  int count() const { return prons_ ? prons_[0] : 0; }
  // i in [0, count()).
  PronunciationView At(int i) const;

 private:
  const uint8_t* prons_ = nullptr;  // the pronunciation count byte
};

struct LexiconTable {
  const uint32_t* slots = nullptr;
  uint32_t num_slots = 0;  // a power of two (0: no table)
  const uint8_t* entries = nullptr;
  size_t entries_size = 0;

  // word: lowercase bytes. Not found (or no table): an entry with found() == false.
  LexiconEntry Find(const char* word, size_t n) const;
};

// Checks a table read from an untrusted file before any lookup: slot count a power of two with
// at most half the slots used, every slot inside `entries`, every entry well-formed (counts >= 1,
// lowercase word bytes, phoneme codes of known phonemes) and reachable from its own hash, no word
// twice. On failure returns false with a reason in detail[0, detail_size).
bool VerifyLexiconTable(const LexiconTable& table, uint32_t num_words, char* detail,
                        size_t detail_size);

// Builds a table in caller memory (the arena: no heap): `slots` of num_slots (a power of two,
// >= 2 * the most words) and an entries pool of pool_size bytes.
class LexiconBuilder {
 public:
  void Init(uint32_t* slots, uint32_t num_slots, uint8_t* pool, size_t pool_size);
  enum class Result { kAdded, kPoolFull, kTableFull, kTooLong, kAlternateNotAfterWord };
  // Adds a word with one pronunciation; adding a word again appends an alternate, which must
  // then be the last word added (CMUdict lists alternates right after their word).
  Result Add(const char* word, size_t n, const PhoneCode* phones, int count);
  LexiconTable table() const;
  uint32_t num_words() const { return num_words_; }

 private:
  uint32_t* slots_ = nullptr;
  uint32_t num_slots_ = 0;
  uint8_t* pool_ = nullptr;
  size_t pool_size_ = 0;
  size_t used_ = 0;
  size_t last_entry_ = 0;  // offset of the last entry added
  uint32_t num_words_ = 0;
};

// Bytes LexiconBuilder needs for `words` entries: slots (uint32, power of two >= 2 * words).
uint32_t LexiconSlotsFor(uint32_t words);

}  // namespace text
}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_LEXICON_FORMAT_H_
