#include "lexicon_format.h"

#include <string.h>

#include "bounded_text.h"

namespace edgenmt {
namespace text {

bool ParseLexiconEntry(const uint8_t* bytes, size_t size, size_t offset, const uint8_t** word,
                       size_t* word_len, const uint8_t** prons, size_t* end, const char** why) {
  if (offset >= size) {
    *why = "entry offset past the end";
    return false;
  }
  const size_t n = bytes[offset];
  if (n == 0 || offset + 1 + n + 1 > size) {
    *why = "word length";
    return false;
  }
  *word = bytes + offset + 1;
  *word_len = n;
  size_t p = offset + 1 + n;
  *prons = bytes + p;
  const int k = bytes[p++];
  if (k == 0) {
    *why = "no pronunciation";
    return false;
  }
  for (int i = 0; i < k; ++i) {
    if (p >= size) {
      *why = "pronunciation past the end";
      return false;
    }
    const size_t m = bytes[p++];
    if (m == 0 || p + m > size) {
      *why = "phoneme count";
      return false;
    }
    for (size_t j = 0; j < m; ++j) {
      const PhoneCode c = bytes[p + j];
      const int base = PhoneBase(c);
      if (base >= kArpabetBases || (PhoneStress(c) != kNoStress && !ArpabetIsVowel(base))) {
        *why = "unknown phoneme code";
        return false;
      }
    }
    p += m;
  }
  *end = p;
  return true;
}

bool LexiconWordBytesValid(const uint8_t* word, size_t n) {
  for (size_t j = 0; j < n; ++j) {
    const uint8_t c = word[j];
    if (c <= ' ' || (c >= 'A' && c <= 'Z') || c >= 0x7f) return false;
  }
  return true;
}

PronunciationView LexiconEntry::At(int i) const {
  PronunciationView view{nullptr, 0};
  if (!prons_ || i < 0 || i >= prons_[0]) return view;
  const uint8_t* p = prons_ + 1;
  for (int k = 0; k < i; ++k) p += 1 + p[0];
  view.phones = p + 1;
  view.count = p[0];
  return view;
}

LexiconEntry LexiconTable::Find(const char* word, size_t n) const {
  if (num_slots == 0 || n == 0 || n > kMaxLexiconWordBytes) return LexiconEntry();
  const uint32_t mask = num_slots - 1;
  uint32_t h = LexiconHash(word, n) & mask;
  // Verified tables are at most half full, so an empty slot ends every probe.
  for (uint32_t probes = 0; probes < num_slots; ++probes, h = (h + 1) & mask) {
    const uint32_t slot = slots[h];
    if (slot == 0) break;
    const uint8_t* entry = entries + (slot - 1);
    if (entry[0] == n && memcmp(entry + 1, word, n) == 0) return LexiconEntry(entry + 1 + n);
  }
  return LexiconEntry();
}

bool VerifyLexiconTable(const LexiconTable& table, uint32_t num_words, char* detail,
                        size_t detail_size) {
  BoundedText out(detail, detail_size);
  const uint32_t s = table.num_slots;
  if (s == 0 || (s & (s - 1)) != 0) {
    out.Append("lexicon: slot count ").Number(s).Append(" is not a power of two");
    return false;
  }
  uint32_t used = 0;
  for (uint32_t i = 0; i < s; ++i) {
    const uint32_t slot = table.slots[i];
    if (slot == 0) continue;
    ++used;
    const uint8_t* word = nullptr;
    const uint8_t* prons = nullptr;
    size_t word_len = 0, end = 0;
    const char* why = "";
    if (!ParseLexiconEntry(table.entries, table.entries_size, slot - 1, &word, &word_len, &prons,
                           &end, &why)) {
      out.Append("lexicon: slot ").Number(i).Append(": ").Append(why);
      return false;
    }
    if (!LexiconWordBytesValid(word, word_len)) {
      out.Append("lexicon: slot ").Number(i).Append(": word byte not lowercase ASCII");
      return false;
    }
    // Reachable from its own hash, and the first entry with its word on that probe path.
    const LexiconEntry found = table.Find(reinterpret_cast<const char*>(word), word_len);
    if (!found.found() || found.count() == 0 || &found.At(0).phones[-1] != prons + 1) {
      out.Append("lexicon: slot ").Number(i).Append(": entry not reachable or word twice");
      return false;
    }
  }
  if (used != num_words || static_cast<uint64_t>(used) * 2 > s) {
    out.Append("lexicon: ")
        .Number(used)
        .Append(" slots used for ")
        .Number(num_words)
        .Append(" words in ")
        .Number(s)
        .Append(" slots");
    return false;
  }
  return true;
}

uint32_t LexiconSlotsFor(uint32_t words) {
  uint32_t s = 16;
  while (s < 2u * words && s < (1u << 31)) s <<= 1;
  return s;
}

void LexiconBuilder::Init(uint32_t* slots, uint32_t num_slots, uint8_t* pool, size_t pool_size) {
  slots_ = slots;
  num_slots_ = num_slots;
  pool_ = pool;
  pool_size_ = pool_size;
  used_ = 0;
  last_entry_ = 0;
  num_words_ = 0;
  for (uint32_t i = 0; i < num_slots; ++i) slots_[i] = 0;
}

LexiconBuilder::Result LexiconBuilder::Add(const char* word, size_t n, const PhoneCode* phones,
                                           int count) {
  if (n == 0 || n > kMaxLexiconWordBytes || count <= 0 || count > kMaxPronunciationPhones) {
    return Result::kTooLong;
  }
  const LexiconEntry existing = table().Find(word, n);
  if (existing.found()) {
    const uint8_t* entry = pool_ + last_entry_;
    if (num_words_ == 0 || entry[0] != n || memcmp(entry + 1, word, n) != 0) {
      return Result::kAlternateNotAfterWord;
    }
    if (existing.count() >= kMaxPronunciations) return Result::kTooLong;
    if (used_ + 1 + count > pool_size_) return Result::kPoolFull;
    pool_[last_entry_ + 1 + n] += 1;
    pool_[used_++] = static_cast<uint8_t>(count);
    memcpy(pool_ + used_, phones, count);
    used_ += count;
    return Result::kAdded;
  }
  if (2ull * (num_words_ + 1) > num_slots_) return Result::kTableFull;
  if (used_ + 1 + n + 1 + 1 + count > pool_size_) return Result::kPoolFull;
  const size_t offset = used_;
  pool_[used_++] = static_cast<uint8_t>(n);
  memcpy(pool_ + used_, word, n);
  used_ += n;
  pool_[used_++] = 1;
  pool_[used_++] = static_cast<uint8_t>(count);
  memcpy(pool_ + used_, phones, count);
  used_ += count;
  const uint32_t mask = num_slots_ - 1;
  uint32_t h = LexiconHash(word, n) & mask;
  while (slots_[h] != 0) h = (h + 1) & mask;
  slots_[h] = static_cast<uint32_t>(offset + 1);
  last_entry_ = offset;
  ++num_words_;
  return Result::kAdded;
}

LexiconTable LexiconBuilder::table() const {
  LexiconTable t;
  t.slots = slots_;
  t.num_slots = num_slots_;
  t.entries = pool_;
  t.entries_size = used_;
  return t;
}

}  // namespace text
}  // namespace edgenmt
