#include "bucketed_lexicon.h"

#include <string.h>

#include "bounded_text.h"

namespace edgenmt {
namespace text {
namespace {

// Byte order of two words, a proper prefix first (<0, 0, >0).
int CompareWords(const uint8_t* a, size_t na, const uint8_t* b, size_t nb) {
  const int c = memcmp(a, b, na < nb ? na : nb);
  if (c != 0) return c;
  return na < nb ? -1 : (na > nb ? 1 : 0);
}

// The end of the (already verified, or self-built) entry at p.
size_t SkipEntry(const uint8_t* entries, size_t p) {
  p += 1 + entries[p];
  const int k = entries[p++];
  for (int i = 0; i < k; ++i) p += 1 + entries[p];
  return p;
}

}  // namespace

LexiconEntry BucketedLexicon::Find(const char* word, size_t n) const {
  if (num_buckets == 0 || n == 0 || n > kMaxLexiconWordBytes) return LexiconEntry();
  const uint32_t b = LexiconBucket(LexiconHash(word, n), num_buckets);
  const auto* w = reinterpret_cast<const uint8_t*>(word);
  for (size_t p = buckets[b], end = buckets[b + 1]; p < end; p = SkipEntry(entries, p)) {
    const int c = CompareWords(entries + p + 1, entries[p], w, n);
    if (c == 0) return LexiconEntry(entries + p + 1 + n);
    if (c > 0) break;  // sorted: the word is not in this bucket
  }
  return LexiconEntry();
}

bool VerifyBucketedLexicon(const BucketedLexicon& lexicon, uint32_t num_words, char* detail,
                           size_t detail_size) {
  BoundedText out(detail, detail_size);
  const uint32_t nb = lexicon.num_buckets;
  if (nb == 0 || lexicon.buckets[0] != 0 || lexicon.buckets[nb] != lexicon.entries_size) {
    out.Append("lexicon: bucket directory does not span the entries (")
        .Number(nb)
        .Append(" buckets)");
    return false;
  }
  uint64_t words = 0;
  for (uint32_t b = 0; b < nb; ++b) {
    const size_t start = lexicon.buckets[b], end = lexicon.buckets[b + 1];
    // Checked before the bucket is read: a middle offset past the entries would otherwise
    // let this bucket's entries be parsed beyond them (the later buckets' order check comes
    // too late).
    if (end < start || end > lexicon.entries_size) {
      out.Append("lexicon: bucket ").Number(b).Append(": offsets decrease or pass the entries");
      return false;
    }
    const uint8_t* previous = nullptr;
    size_t previous_len = 0;
    for (size_t p = start; p < end;) {
      const uint8_t* word = nullptr;
      const uint8_t* prons = nullptr;
      size_t word_len = 0, next = 0;
      const char* why = "";
      // Parsed within the bucket: an entry may not run into the next one.
      if (!ParseLexiconEntry(lexicon.entries, end, p, &word, &word_len, &prons, &next, &why)) {
        out.Append("lexicon: bucket ").Number(b).Append(": ").Append(why);
        return false;
      }
      if (!LexiconWordBytesValid(word, word_len)) {
        out.Append("lexicon: bucket ").Number(b).Append(": word byte not lowercase ASCII");
        return false;
      }
      if (LexiconBucket(LexiconHash(reinterpret_cast<const char*>(word), word_len), nb) != b) {
        out.Append("lexicon: bucket ").Number(b).Append(": a word of another bucket");
        return false;
      }
      if (previous != nullptr && CompareWords(previous, previous_len, word, word_len) >= 0) {
        out.Append("lexicon: bucket ").Number(b).Append(": words out of order or twice");
        return false;
      }
      previous = word;
      previous_len = word_len;
      ++words;
      p = next;
    }
  }
  if (words != num_words) {
    out.Append("lexicon: ")
        .Number(words)
        .Append(" entries for ")
        .Number(num_words)
        .Append(" words");
    return false;
  }
  return true;
}

uint32_t LexiconBucketsFor(uint32_t words) {
  const uint32_t buckets = (words + kLexiconWordsPerBucket - 1) / kLexiconWordsPerBucket;
  return buckets > 0 ? buckets : 1;
}

bool BucketLexiconEntries(const uint8_t* pool, size_t pool_size, uint32_t num_buckets,
                          uint32_t* buckets, uint8_t* out) {
  if (num_buckets == 0 || pool_size > 0xffffffffu) return false;
  // buckets[b + 1] counts bucket b's bytes, then (prefix sums) holds its start; placing an entry
  // advances it, which leaves it at the bucket's end, that is the next bucket's start.
  for (uint32_t b = 0; b <= num_buckets; ++b) buckets[b] = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t p = 0; p < pool_size;) {
      const uint8_t* word = nullptr;
      const uint8_t* prons = nullptr;
      size_t word_len = 0, next = 0;
      const char* why = "";
      if (!ParseLexiconEntry(pool, pool_size, p, &word, &word_len, &prons, &next, &why)) {
        return false;
      }
      const uint32_t b =
          LexiconBucket(LexiconHash(reinterpret_cast<const char*>(word), word_len), num_buckets);
      const size_t bytes = next - p;
      if (pass == 0) {
        buckets[b + 1] += static_cast<uint32_t>(bytes);
      } else {
        memcpy(out + buckets[b + 1], pool + p, bytes);
        buckets[b + 1] += static_cast<uint32_t>(bytes);
      }
      p = next;
    }
    if (pass == 0) {  // exclusive prefix sums, shifted by one: buckets[b + 1] = start of b
      uint32_t sum = 0;
      for (uint32_t b = 0; b < num_buckets; ++b) {
        const uint32_t size = buckets[b + 1];
        buckets[b + 1] = sum;
        sum += size;
      }
    }
  }
  return true;
}

}  // namespace text
}  // namespace edgenmt
