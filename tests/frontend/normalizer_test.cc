// The reading rules (docs/TEXT_NORMALIZATION.md) on their own: text -> words, with a small
// stand-in for the dictionary.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "normalizer.h"
#include "number_words.h"

namespace edgenmt::text {
namespace {

class Collect final : public WordSink, public WordOracle {
 public:
  void BeginItem(uint32_t, uint32_t) override {}
  void ExtendItem(uint32_t) override {}
  void Word(const char* text, size_t n, WordSource) override {
    if (!words.empty()) words += ' ';
    words.append(text, n);
  }
  void Break(const char* mark, bool) override { breaks += mark; }
  bool ReadsAsLetters(const char* lower, size_t n) override {
    const std::string w(lower, n);
    return !(w == "nasa" || w == "nato");
  }
  bool Listed(const char* lower, size_t n) override {
    const std::string w(lower, n);
    return w == "example" || w == "com" || w == "org" || w == "user";
  }
  std::string words, breaks;
  std::vector<std::string> warnings;
};

void Warn(void* user, const char* message) {
  static_cast<Collect*>(user)->warnings.push_back(message);
}

std::string Read(const std::string& line, Collect* out = nullptr) {
  Collect local;
  Collect* c = out ? out : &local;
  Normalizer normalizer(line.data(), line.size(), &Warn, c, c, c);
  normalizer.Run();
  return c->words;
}

TEST(Normalizer, Cardinals) {
  EXPECT_EQ(Read("0 7 15 42"), "zero seven fifteen forty two");
  EXPECT_EQ(Read("101"), "one hundred one");
  EXPECT_EQ(Read("1,234,567"),
            "one million two hundred thirty four thousand five hundred sixty seven");
  EXPECT_EQ(Read("999,999,999,999,999"),
            "nine hundred ninety nine trillion nine hundred ninety nine billion nine hundred "
            "ninety nine million nine hundred ninety nine thousand nine hundred ninety nine");
  EXPECT_EQ(Read("-5"), "minus five");
  // 70 digits: more than one token, every piece digit by digit.
  const std::string digits(70, '7');
  std::string sevens;
  for (int i = 0; i < 70; ++i) sevens += i ? " seven" : "seven";
  EXPECT_EQ(Read(digits), sevens);
  EXPECT_EQ(Read("1234567890123456789"),
            "one two three four five six seven eight nine zero one two three four five six seven "
            "eight nine");
}

TEST(Normalizer, DecimalsOrdinalsYears) {
  EXPECT_EQ(Read("3.14"), "three point one four");
  EXPECT_EQ(Read(".5"), "point five");
  EXPECT_EQ(Read("1st 2nd 3rd 4th 22nd 103rd"),
            "first second third fourth twenty second one hundred third");
  EXPECT_EQ(Read("1066 1900 1905 1999 2000 2005 2010 2024"),
            "ten sixty six nineteen hundred nineteen oh five nineteen ninety nine two thousand "
            "two thousand five twenty ten twenty twenty four");
  EXPECT_EQ(Read("the 1990s and the '90s"), "the nineteen nineties and the nineties");
  EXPECT_EQ(Read("007"), "zero zero seven");
}

TEST(Normalizer, MoneyPercentUnits) {
  EXPECT_EQ(Read("$3.50"), "three dollars fifty cents");
  EXPECT_EQ(Read("$1"), "one dollar");
  EXPECT_EQ(Read("$0.99"), "ninety nine cents");
  EXPECT_EQ(Read("$1.5 million"), "one point five million dollars");
  EXPECT_EQ(Read("$3.2B"), "three point two billion dollars");
  EXPECT_EQ(Read("\xC2\xA3"
                 "2.50"),
            "two pounds fifty pence");
  EXPECT_EQ(Read("\xE2\x82\xAC"
                 "1"),
            "one euro");
  EXPECT_EQ(Read("50\xC2\xA2"), "fifty cents");
  EXPECT_EQ(Read("5% and 3.5%"), "five percent and three point five percent");
  EXPECT_EQ(Read("1 km, 5 km, 60 mph"), "one kilometer five kilometers sixty miles per hour");
  EXPECT_EQ(Read("20\xC2\xB0"
                 "C"),
            "twenty degrees celsius");
  EXPECT_EQ(Read("5 in the box"), "five in the box");
  EXPECT_EQ(Read("$5-$10"), "five to ten dollars");
}

TEST(Normalizer, TimesDatesRangesFractions) {
  EXPECT_EQ(Read("3:45 3:05 3:00 15:30"),
            "three forty five three oh five three o'clock fifteen thirty");
  EXPECT_EQ(Read("3:45pm"), "three forty five p m");
  EXPECT_EQ(Read("10am"), "ten a m");
  EXPECT_EQ(Read("May 3rd, 2024"), "may third twenty twenty four");
  EXPECT_EQ(Read("12/25/2024"), "december twenty fifth twenty twenty four");
  EXPECT_EQ(Read("2024-05-03"), "may third twenty twenty four");
  EXPECT_EQ(Read("5-10"), "five to ten");
  EXPECT_EQ(Read("1/2 3/4 2/3 5/8"), "one half three quarters two thirds five eighths");
  EXPECT_EQ(Read("1 1/2"), "one and a half");
  EXPECT_EQ(Read("555-1234"), "five five five one two three four");
}

TEST(Normalizer, AbbreviationsSymbolsInitialisms) {
  EXPECT_EQ(Read("Dr. Smith and Mr. Jones"), "doctor smith and mister jones");
  EXPECT_EQ(Read("St. Louis"), "saint louis");
  EXPECT_EQ(Read("apples, pears, etc."), "apples pears et cetera");
  EXPECT_EQ(Read("No. 5"), "number five");
  EXPECT_EQ(Read("no way"), "no way");
  EXPECT_EQ(Read("A & B"), "a and b");
  EXPECT_EQ(Read("the FBI and the U.S."), "the f b i and the u s");
  EXPECT_EQ(Read("NASA"), "nasa");
  EXPECT_EQ(Read("user@example.com"), "user at example dot com");
  EXPECT_EQ(Read("well-known"), "well known");
  EXPECT_EQ(Read("don't"), "don't");
}

TEST(Normalizer, BreaksAndBadText) {
  Collect c;
  EXPECT_EQ(Read("Hi, there! (Yes.)", &c), "hi there yes");
  EXPECT_EQ(c.breaks, ",!(.)");
  Collect bad;
  EXPECT_EQ(Read("caf\xC3\xA9 \xF0\x9F\x98\x80 ok \xFF\x01 done", &bad), "cafe ok done");
  ASSERT_EQ(bad.warnings.size(), 2u);
  EXPECT_NE(bad.warnings[0].find("U+1F600"), std::string::npos);
  EXPECT_NE(bad.warnings[1].find("0xFF"), std::string::npos);
  // A long line: linear, no word lost.
  std::string line;
  for (int i = 0; i < 20000; ++i) line += "word ";
  const std::string words = Read(line);
  EXPECT_EQ(words.size(), 20000u * 5 - 1);
}

}  // namespace
}  // namespace edgenmt::text
