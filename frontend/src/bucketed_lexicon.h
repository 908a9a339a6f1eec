// The file's lexicon (schema/phonemizer.fbs Lexicon): lexicon_format.h's entries stored in
// hash-bucket order behind a directory of bucket offsets, looked up in place (flash or mmap).
//
// A word's bucket is LexiconBucket(LexiconHash(word), num_buckets); bucket b's entries are
// entries[buckets[b], buckets[b + 1]), in strictly increasing byte order of their words (so no
// word twice, and a scan stops at the first larger word). With about four words a bucket the
// index costs one byte a word, against 8-16 for an open-addressing table at half load, and a
// lookup reads one bucket: time proportional to the word's length.
#ifndef EDGENMT_FRONTEND_BUCKETED_LEXICON_H_
#define EDGENMT_FRONTEND_BUCKETED_LEXICON_H_

#include <stddef.h>
#include <stdint.h>

#include "lexicon_format.h"

namespace edgenmt {
namespace text {

// Words a bucket holds on average: the packer's choice, not a rule of the format.
constexpr uint32_t kLexiconWordsPerBucket = 4;

// Multiply-shift: the hash's high bits spread over [0, num_buckets) without a division.
inline uint32_t LexiconBucket(uint32_t hash, uint32_t num_buckets) {
  return static_cast<uint32_t>((static_cast<uint64_t>(hash) * num_buckets) >> 32);
}

struct BucketedLexicon {
  const uint32_t* buckets = nullptr;  // num_buckets + 1 offsets into entries
  uint32_t num_buckets = 0;           // 0: no lexicon
  const uint8_t* entries = nullptr;
  size_t entries_size = 0;

  // word: lowercase bytes. Not found (or no lexicon): an entry with found() == false.
  LexiconEntry Find(const char* word, size_t n) const;
};

// Checks a lexicon read from an untrusted file before any lookup: buckets[0] == 0, offsets
// nondecreasing up to buckets[num_buckets] == entries_size, every entry well-formed
// (ParseLexiconEntry) and ending inside its bucket, word bytes lowercase ASCII, each word in its
// own hash's bucket, words strictly increasing within a bucket, num_words entries in all. On
// failure returns false with a reason in detail[0, detail_size).
bool VerifyBucketedLexicon(const BucketedLexicon& lexicon, uint32_t num_words, char* detail,
                           size_t detail_size);

// Buckets a lexicon offline (the packer): num_buckets for `words` words.
uint32_t LexiconBucketsFor(uint32_t words);

// Rewrites the entries of pool[0, pool_size) (back to back, as LexiconBuilder's pool holds them)
// into bucket order: out (pool_size bytes) and buckets (num_buckets + 1 offsets). A stable
// counting sort, so words added in increasing byte order come out sorted within each bucket.
// false (a malformed pool) leaves out and buckets unspecified.
bool BucketLexiconEntries(const uint8_t* pool, size_t pool_size, uint32_t num_buckets,
                          uint32_t* buckets, uint8_t* out);

}  // namespace text
}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_BUCKETED_LEXICON_H_
