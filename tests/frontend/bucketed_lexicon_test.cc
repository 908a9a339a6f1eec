// The file's lexicon in bucket order (bucketed_lexicon.h): bucketed from a builder's pool, every
// word found, verified; out-of-order, misplaced and corrupt directories and entries rejected, and
// no corruption that verification lets through can make a lookup read out of bounds.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bucketed_lexicon.h"

namespace edgenmt::text {
namespace {

// Words "w0".."w<n>" in increasing byte order (zero-padded), each with one or two
// pronunciations, bucketed.
struct Bucketed {
  std::vector<std::string> words;
  std::vector<uint32_t> slots;
  std::vector<uint8_t> pool;
  std::vector<uint32_t> buckets;
  std::vector<uint8_t> entries;
  BucketedLexicon lexicon;

  explicit Bucketed(uint32_t n, uint32_t num_buckets = 0) {
    for (uint32_t i = 0; i < n; ++i) {
      char word[16];
      snprintf(word, sizeof word, "w%05u", i);
      words.push_back(word);
    }
    slots.assign(LexiconSlotsFor(n), 0);
    pool.assign(16 + 16ull * n, 0);
    LexiconBuilder builder;
    builder.Init(slots.data(), static_cast<uint32_t>(slots.size()), pool.data(), pool.size());
    const PhoneCode first[] = {static_cast<PhoneCode>(4 * 10), static_cast<PhoneCode>(4 * 0 + 1)};
    const PhoneCode second[] = {static_cast<PhoneCode>(4 * 10)};
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_EQ(builder.Add(words[i].data(), words[i].size(), first, 2),
                LexiconBuilder::Result::kAdded);
      if (i % 3 == 0) {
        EXPECT_EQ(builder.Add(words[i].data(), words[i].size(), second, 1),
                  LexiconBuilder::Result::kAdded);
      }
    }
    const LexiconTable table = builder.table();
    if (num_buckets == 0) num_buckets = LexiconBucketsFor(n);
    buckets.assign(num_buckets + 1, 0);
    entries.assign(table.entries_size, 0);
    EXPECT_TRUE(BucketLexiconEntries(table.entries, table.entries_size, num_buckets, buckets.data(),
                                     entries.data()));
    Point();
  }
  void Point() {
    lexicon.buckets = buckets.data();
    lexicon.num_buckets = static_cast<uint32_t>(buckets.size() - 1);
    lexicon.entries = entries.data();
    lexicon.entries_size = entries.size();
  }
};

TEST(BucketedLexicon, EveryWordFoundWithItsPronunciations) {
  for (uint32_t n : {1u, 2u, 7u, 100u, 5000u}) {
    Bucketed b(n);
    char detail[160];
    ASSERT_TRUE(VerifyBucketedLexicon(b.lexicon, n, detail, sizeof detail)) << n << ": " << detail;
    EXPECT_FALSE(VerifyBucketedLexicon(b.lexicon, n + 1, detail, sizeof detail));
    for (uint32_t i = 0; i < n; ++i) {
      const LexiconEntry e = b.lexicon.Find(b.words[i].data(), b.words[i].size());
      ASSERT_TRUE(e.found()) << b.words[i];
      EXPECT_EQ(e.count(), i % 3 == 0 ? 2 : 1);
      EXPECT_EQ(e.At(0).count, 2);
    }
    EXPECT_FALSE(b.lexicon.Find("w", 1).found());
    EXPECT_FALSE(b.lexicon.Find("w000000", 7).found());
    EXPECT_FALSE(b.lexicon.Find("zzz", 3).found());
    EXPECT_FALSE(b.lexicon.Find("", 0).found());
  }
}

TEST(BucketedLexicon, EmptyAndOneBucket) {
  Bucketed empty(0);
  char detail[160];
  EXPECT_TRUE(VerifyBucketedLexicon(empty.lexicon, 0, detail, sizeof detail)) << detail;
  EXPECT_FALSE(empty.lexicon.Find("a", 1).found());
  Bucketed one(50, 1);  // every word in one bucket: still sorted, still found
  EXPECT_TRUE(VerifyBucketedLexicon(one.lexicon, 50, detail, sizeof detail)) << detail;
  EXPECT_TRUE(one.lexicon.Find("w00049", 6).found());
}

TEST(BucketedLexicon, RejectsDirectoriesThatLie) {
  char detail[160];
  Bucketed b(40);
  ASSERT_GE(b.buckets.size(), 4u);
  {  // the last offset short of the entries
    Bucketed c(40);
    c.buckets.back() -= 1;
    EXPECT_FALSE(VerifyBucketedLexicon(c.lexicon, 40, detail, sizeof detail));
  }
  {  // offsets that decrease
    Bucketed c(40);
    std::swap(c.buckets[1], c.buckets[c.buckets.size() - 2]);
    EXPECT_FALSE(VerifyBucketedLexicon(c.lexicon, 40, detail, sizeof detail));
  }
  {  // the same entries under another bucket count: words in the wrong buckets
    Bucketed c(40);
    c.buckets.pop_back();
    c.buckets.back() = static_cast<uint32_t>(c.entries.size());
    c.Point();
    EXPECT_FALSE(VerifyBucketedLexicon(c.lexicon, 40, detail, sizeof detail));
  }
  {  // one bucket whose words are out of order
    Bucketed c(3, 1);
    std::vector<uint8_t> swapped(c.entries.size());
    // Entries: w00000 (two pronunciations, 13 bytes), w00001 (11), w00002 (11).
    const size_t a = 1 + 6 + 1 + 3 + 2, e = 1 + 6 + 1 + 3;
    memcpy(swapped.data(), c.entries.data() + a, e);
    memcpy(swapped.data() + e, c.entries.data(), a);
    memcpy(swapped.data() + a + e, c.entries.data() + a + e, e);
    c.entries = swapped;
    c.Point();
    EXPECT_FALSE(VerifyBucketedLexicon(c.lexicon, 3, detail, sizeof detail));
  }
}

// Every single-byte corruption of directory or entries is rejected, or leaves a lexicon whose
// lookups stay inside its bytes (ASan checks the reads in make asan).
TEST(BucketedLexicon, CorruptionRejectedOrHarmless) {
  Bucketed good(60);
  std::mt19937 rng(59);
  char detail[160];
  for (int trial = 0; trial < 4000; ++trial) {
    Bucketed b = good;
    b.Point();
    if (trial % 2 == 0) {
      uint8_t* bytes = reinterpret_cast<uint8_t*>(b.buckets.data());
      bytes[rng() % (4 * b.buckets.size())] ^= static_cast<uint8_t>(1 + rng() % 255);
    } else {
      b.entries[rng() % b.entries.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    }
    if (!VerifyBucketedLexicon(b.lexicon, 60, detail, sizeof detail)) continue;
    for (const std::string& w : good.words) {
      const LexiconEntry e = b.lexicon.Find(w.data(), w.size());
      for (int k = 0; k < e.count(); ++k) EXPECT_GT(e.At(k).count, 0);
    }
  }
}

TEST(BucketedLexicon, MalformedPoolRefused) {
  const uint8_t pool[] = {3, 'a', 'b'};  // a word whose pronunciations are missing
  uint32_t buckets[3];
  uint8_t out[sizeof pool];
  EXPECT_FALSE(BucketLexiconEntries(pool, sizeof pool, 2, buckets, out));
  EXPECT_FALSE(BucketLexiconEntries(pool, sizeof pool, 0, buckets, out));
}

}  // namespace
}  // namespace edgenmt::text
