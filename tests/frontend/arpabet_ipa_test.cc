// WriteIpaWord against espeak-ng's own output. Every expected string below was copied from
// `espeak-ng -q --ipa -v en-us` (1.51) for that word, for words where the converter agrees with
// it; the phonemes are CMUdict 0.7b's first pronunciation.
#include "arpabet_ipa.h"

#include <gtest/gtest.h>
#include <string.h>

#include <string>
#include <vector>

#include "arpabet.h"

namespace edgenmt {
namespace text {
namespace {

std::vector<PhoneCode> Parse(const char* arpabet) {
  std::vector<PhoneCode> phones;
  for (const char* p = arpabet; *p != '\0';) {
    while (*p == ' ') ++p;
    const size_t n = strcspn(p, " ");
    if (n == 0) break;
    PhoneCode code = 0;
    EXPECT_TRUE(ParseArpabetPhone(p, n, &code)) << std::string(p, n);
    phones.push_back(code);
    p += n;
  }
  return phones;
}

std::string Ipa(const char* arpabet) {
  const std::vector<PhoneCode> phones = Parse(arpabet);
  char buf[256];
  const size_t used = WriteIpaWord(phones.data(), static_cast<int>(phones.size()), buf, sizeof buf);
  EXPECT_LE(used, sizeof buf);
  return std::string(buf, used < sizeof buf ? used : sizeof buf);
}

struct Case {
  const char* word;
  const char* arpabet;
  const char* espeak;
};

// Chosen to cover every table entry and context rule: flap ɾ, -ed/-es ᵻ, de-/be-/re- ᵻ, initial
// ɐ and un- ʌ, ɚɹ linking, nk ŋ, ʔn̩, unstressed i/ɪ, ɔ before f/ŋ, ɪɹ, dropped and added
// secondary stresses, several primaries.
const Case kCases[] = {
    {"hello", "HH AH0 L OW1", "həlˈoʊ"},
    {"world", "W ER1 L D", "wˈɜːld"},
    {"water", "W AO1 T ER0", "wˈɔːɾɚ"},
    {"better", "B EH1 T ER0", "bˈɛɾɚ"},
    {"city", "S IH1 T IY0", "sˈɪɾi"},
    {"happy", "HH AE1 P IY0", "hˈæpi"},
    {"about", "AH0 B AW1 T", "ɐbˈaʊt"},
    {"computer", "K AH0 M P Y UW1 T ER0", "kəmpjˈuːɾɚ"},
    {"little", "L IH1 T AH0 L", "lˈɪɾəl"},
    {"button", "B AH1 T AH0 N", "bˈʌʔn̩"},
    {"written", "R IH1 T AH0 N", "ɹˈɪʔn̩"},
    {"bridges", "B R IH1 JH AH0 Z", "bɹˈɪdʒᵻz"},
    {"started", "S T AA1 R T AH0 D", "stˈɑːɹɾᵻd"},
    {"uncle", "AH1 NG K AH0 L", "ˈʌŋkəl"},
    {"unhappy", "AH0 N HH AE1 P IY0", "ʌnhˈæpi"},
    {"thinking", "TH IH1 NG K IH0 NG", "θˈɪŋkɪŋ"},
    {"finger", "F IH1 NG G ER0", "fˈɪŋɡɚ"},
    {"hearer", "HH IY1 R ER0", "hˈɪɹɚ"},
    {"reasonable", "R IY1 Z AH0 N AH0 B AH0 L", "ɹˈiːzənəbəl"},
    {"react", "R IY0 AE1 K T", "ɹɪˈækt"},
    {"machine", "M AH0 SH IY1 N", "məʃˈiːn"},
    {"photograph", "F OW1 T AH0 G R AE2 F", "fˈoʊɾəɡɹˌæf"},
    {"photography", "F AH0 T AA1 G R AH0 F IY0", "fətˈɑːɡɹəfi"},
    {"remember", "R IH0 M EH1 M B ER0", "ɹᵻmˈɛmbɚ"},
    {"happiness", "HH AE1 P IY0 N AH0 S", "hˈæpɪnəs"},
    {"lighthouse", "L AY1 T HH AW2 S", "lˈaɪthaʊs"},
    {"airfield", "EH1 R F IY2 L D", "ˈɛɹfiːld"},
    {"finalist", "F AY1 N AH0 L IH0 S T", "fˈaɪnəlˌɪst"},
    {"kitten", "K IH1 T AH0 N", "kˈɪʔn̩"},
    {"hurry", "HH ER1 IY0", "hˈɜːɹi"},
    {"ourselves", "AW0 ER0 S EH1 L V Z", "aʊɚsˈɛlvz"},
    {"demand", "D IH0 M AE1 N D", "dᵻmˈænd"},
    {"behave", "B IH0 HH EY1 V", "bᵻhˈeɪv"},
    {"return", "R IH0 T ER1 N", "ɹᵻtˈɜːn"},
    {"radio", "R EY1 D IY0 OW2", "ɹˈeɪdɪˌoʊ"},
    {"forty", "F AO1 R T IY0", "fˈɔːɹɾi"},
    {"automatic", "AO2 T AH0 M AE1 T IH0 K", "ˌɔːɾəmˈæɾɪk"},
    {"operator", "AA1 P ER0 EY2 T ER0", "ˈɑːpɚɹˌeɪɾɚ"},
    {"everything", "EH1 V R IY0 TH IH2 NG", "ˈɛvɹɪθˌɪŋ"},
    {"understand", "AH2 N D ER0 S T AE1 N D", "ˌʌndɚstˈænd"},
    {"yesterday", "Y EH1 S T ER0 D EY2", "jˈɛstɚdˌeɪ"},
    {"thought", "TH AO1 T", "θˈɔːt"},
    {"song", "S AO1 NG", "sˈɔŋ"},
    {"offer", "AO1 F ER0", "ˈɔfɚ"},
    {"long", "L AO1 NG", "lˈɔŋ"},
    {"handheld", "HH AE1 N D HH EH1 L D", "hˈændhɛld"},
    {"abbreviations", "AH0 B R IY2 V IY0 EY1 SH AH0 N Z", "ɐbɹˌiːvɪˈeɪʃənz"},
    {"advertised", "AE1 D V ER0 T AY2 Z D", "ˈædvɚtˌaɪzd"},
    {"ink", "IH1 NG K", "ˈɪŋk"},
    {"forever", "F ER0 EH1 V ER0", "fɚɹˈɛvɚ"},
    {"unusual", "AH0 N Y UW1 ZH UW2 AH0 L", "ʌnjˈuːʒuːəl"},
    {"atomic", "AH0 T AA1 M IH0 K", "ɐtˈɑːmɪk"},
    {"motorist", "M OW1 T ER0 IH0 S T", "mˈoʊɾɚɹˌɪst"},
    {"include", "IH2 N K L UW1 D", "ɪŋklˈuːd"},
    {"encourage", "EH0 N K ER1 IH0 JH", "ɛŋkˈɜːɹɪdʒ"},
    {"buffalo", "B AH1 F AH0 L OW2", "bˈʌfəlˌoʊ"},
    {"vanselow", "V AE1 N S IH0 L OW0", "vˈænsɪlˌoʊ"},
};

TEST(ArpabetIpa, MatchesEspeakNg) {
  EXPECT_GE(sizeof kCases / sizeof kCases[0], 40u);
  for (const Case& c : kCases) EXPECT_EQ(Ipa(c.arpabet), c.espeak) << c.word;
}

TEST(ArpabetIpa, SymbolsAreEspeaks) {
  // IPA ɡ (U+0261), not ASCII g; ɹ, not r; syllabic n is n + U+0329.
  EXPECT_EQ(Ipa("G UH1 D"),
            "\xc9\xa1\xcb\x88\xca\x8a"
            "d");
  EXPECT_EQ(Ipa("R EH1 D"),
            "\xc9\xb9\xcb\x88\xc9\x9b"
            "d");
  EXPECT_EQ(Ipa("K AA1 T AH0 N"), "k\xcb\x88\xc9\x91\xcb\x90\xca\x94n\xcc\xa9");
}

TEST(ArpabetIpa, StressMarkGoesBeforeTheVowelNotTheOnset) {
  EXPECT_EQ(Ipa("S T R AO1 NG"), "stɹˈɔŋ");
  EXPECT_EQ(Ipa("AH0 B R IY2 V IY0 EY1 SH AH0 N Z"), "ɐbɹˌiːvɪˈeɪʃənz");
}

TEST(ArpabetIpa, UnstressedWordGetsNoMark) {
  EXPECT_EQ(Ipa("DH AH0"), "ðə");
  EXPECT_EQ(Ipa("AH0"), "ɐ");
}

TEST(ArpabetIpa, SecondaryOnlyWordGetsPrimaryOnItsFirstSecondary) {
  EXPECT_EQ(Ipa("M AA2 R K AH0 T ER0 Z"), "mˈɑːɹkəɾɚz");
}

TEST(ArpabetIpa, StresslessPhonesGetNoMarksAndUnstressedVowels) {
  EXPECT_EQ(Ipa("HH AH L OW"), "həloʊ");
  EXPECT_EQ(Ipa("W AO T ER"), "wɔːɾɚ");
  EXPECT_EQ(Ipa("D IH M AE N D"), "dᵻmænd");
  EXPECT_EQ(Ipa("S IH T IY"), "sɪɾi");
}

TEST(ArpabetIpa, EmptyInputWritesNothing) {
  char buf[4] = {'x', 'x', 'x', 'x'};
  EXPECT_EQ(WriteIpaWord(nullptr, 0, buf, sizeof buf), 0u);
  const PhoneCode k = MakePhone(19, kNoStress);
  EXPECT_EQ(WriteIpaWord(&k, 0, buf, sizeof buf), 0u);
  EXPECT_EQ(WriteIpaWord(&k, -1, buf, sizeof buf), 0u);
  EXPECT_EQ(memcmp(buf, "xxxx", 4), 0);
}

TEST(ArpabetIpa, InvalidCodeWritesNothing) {
  const PhoneCode bad[2] = {MakePhone(19, kNoStress), static_cast<PhoneCode>(kArpabetBases * 4)};
  char buf[8] = {};
  EXPECT_EQ(WriteIpaWord(bad, 2, buf, sizeof buf), 0u);
  EXPECT_EQ(buf[0], '\0');
}

TEST(ArpabetIpa, SmallCapReturnsNeededSizeAndWritesOnlyCapBytes) {
  const std::vector<PhoneCode> phones = Parse("HH AH0 L OW1");
  const std::string full = "həlˈoʊ";
  EXPECT_EQ(WriteIpaWord(phones.data(), 4, nullptr, 0), full.size());
  for (size_t cap = 0; cap <= full.size(); ++cap) {
    char buf[32];
    memset(buf, '#', sizeof buf);
    EXPECT_EQ(WriteIpaWord(phones.data(), 4, buf, cap), full.size());
    EXPECT_EQ(std::string(buf, cap), full.substr(0, cap)) << cap;
    for (size_t i = cap; i < sizeof buf; ++i) EXPECT_EQ(buf[i], '#') << cap << " " << i;
  }
}

}  // namespace
}  // namespace text
}  // namespace edgenmt
