// The in-place lexicon table: built, found, verified; corrupt tables rejected.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lexicon_format.h"

namespace edgenmt::text {
namespace {

std::vector<PhoneCode> Phones(const char* arpabet) {
  std::vector<PhoneCode> out;
  const char* p = arpabet;
  while (*p) {
    size_t n = 0;
    while (p[n] && p[n] != ' ') ++n;
    PhoneCode c;
    EXPECT_TRUE(ParseArpabetPhone(p, n, &c)) << std::string(p, n);
    out.push_back(c);
    p += n;
    while (*p == ' ') ++p;
  }
  return out;
}

struct Table {
  std::vector<uint32_t> slots;
  std::vector<uint8_t> pool;
  LexiconBuilder builder;
  Table(uint32_t words, size_t bytes) : slots(LexiconSlotsFor(words)), pool(bytes) {
    builder.Init(slots.data(), static_cast<uint32_t>(slots.size()), pool.data(), pool.size());
  }
  LexiconBuilder::Result Add(const char* word, const char* arpabet) {
    const auto p = Phones(arpabet);
    return builder.Add(word, strlen(word), p.data(), static_cast<int>(p.size()));
  }
};

TEST(LexiconFormat, BuildFindVerify) {
  Table t(4, 256);
  EXPECT_EQ(t.Add("read", "R EH1 D"), LexiconBuilder::Result::kAdded);
  EXPECT_EQ(t.Add("read", "R IY1 D"), LexiconBuilder::Result::kAdded);
  EXPECT_EQ(t.Add("hello", "HH AH0 L OW1"), LexiconBuilder::Result::kAdded);
  EXPECT_EQ(t.Add("read", "R EH2 D"), LexiconBuilder::Result::kAlternateNotAfterWord);
  const LexiconTable table = t.builder.table();
  char detail[128];
  EXPECT_TRUE(VerifyLexiconTable(table, 2, detail, sizeof detail)) << detail;
  const LexiconEntry read = table.Find("read", 4);
  ASSERT_TRUE(read.found());
  ASSERT_EQ(read.count(), 2);
  char text[64];
  const PronunciationView second = read.At(1);
  text[FormatArpabet(second.phones, second.count, true, text, sizeof text)] = 0;
  EXPECT_STREQ(text, "R IY1 D");
  EXPECT_FALSE(table.Find("reads", 5).found());
  EXPECT_FALSE(table.Find("", 0).found());
}

TEST(LexiconFormat, CorruptTablesAreRejected) {
  Table t(4, 256);
  t.Add("cat", "K AE1 T");
  t.Add("dog", "D AO1 G");
  LexiconTable table = t.builder.table();
  char detail[128];
  ASSERT_TRUE(VerifyLexiconTable(table, 2, detail, sizeof detail));
  EXPECT_FALSE(VerifyLexiconTable(table, 3, detail, sizeof detail));  // count mismatch
  // Every single-byte corruption of the entries is caught or leaves a valid table.
  for (size_t i = 0; i < table.entries_size; ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<uint8_t> copy(table.entries, table.entries + table.entries_size);
      copy[i] ^= static_cast<uint8_t>(1 << bit);
      LexiconTable bad = table;
      bad.entries = copy.data();
      if (VerifyLexiconTable(bad, 2, detail, sizeof detail)) {
        // Still valid: lookups stay inside the entries.
        bad.Find("cat", 3);
        bad.Find("dog", 3);
      }
    }
  }
  std::vector<uint32_t> slots(t.slots);
  LexiconTable bad = table;
  bad.slots = slots.data();
  for (auto& s : slots)
    if (s) s = 100000;  // offsets past the end
  EXPECT_FALSE(VerifyLexiconTable(bad, 2, detail, sizeof detail));
  bad.num_slots = 12;  // not a power of two
  EXPECT_FALSE(VerifyLexiconTable(bad, 2, detail, sizeof detail));
}

TEST(Arpabet, ParseAndFormat) {
  PhoneCode c;
  EXPECT_TRUE(ParseArpabetPhone("AH0", 3, &c));
  EXPECT_EQ(PhoneStress(c), 0);
  EXPECT_TRUE(ParseArpabetPhone("zh", 2, &c));
  EXPECT_EQ(PhoneStress(c), kNoStress);
  EXPECT_FALSE(ParseArpabetPhone("T1", 2, &c));  // stress on a consonant
  EXPECT_FALSE(ParseArpabetPhone("AH3", 3, &c));
  EXPECT_FALSE(ParseArpabetPhone("XX", 2, &c));
  EXPECT_FALSE(ParseArpabetPhone("", 0, &c));
  const auto p = Phones("HH AH0 L OW1");
  char text[8];
  EXPECT_EQ(FormatArpabet(p.data(), 4, true, text, sizeof text), 12u);  // needs 12, wrote 8
}

}  // namespace
}  // namespace edgenmt::text
