// CMUdict's phoneme set (ARPAbet, 39 phonemes) and its stress digits, packed one phoneme a byte.
// The lexicon in a phonemizer file, the user lexicon and the model's output all meet here.
#ifndef EDGENMT_FRONTEND_ARPABET_H_
#define EDGENMT_FRONTEND_ARPABET_H_

#include <stddef.h>
#include <stdint.h>

namespace edgenmt {
namespace text {

// One phoneme: base * 4 + stress slot; slot 0 = no stress digit (a consonant, or a vowel from a
// model without stress), slots 1..3 = stress 0 (none), 1 (primary), 2 (secondary).
using PhoneCode = uint8_t;

// Bases in CMUdict's (alphabetical) order: AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH
// K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH.
constexpr int kArpabetBases = 39;
constexpr int kNoStress = -1;

inline int PhoneBase(PhoneCode code) { return code >> 2; }
// -1 (no digit), 0, 1 or 2.
inline int PhoneStress(PhoneCode code) { return (code & 3) - 1; }
inline PhoneCode MakePhone(int base, int stress) {
  return static_cast<PhoneCode>(base * 4 + stress + 1);
}

// "AA" ... "ZH" for base in [0, kArpabetBases); "" otherwise.
const char* ArpabetBaseName(int base);
// The 15 vowels (AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW) carry stress digits.
bool ArpabetIsVowel(int base);

// Parses one phoneme such as "AH0", "ah1" (case-insensitive) or "T" from s[0, n). A stress digit
// on a consonant, a digit other than 0-2, or an unknown name: false.
bool ParseArpabetPhone(const char* s, size_t n, PhoneCode* out);

// Writes the phonemes space-separated ("HH AH0 L OW1") into out[0, cap) without a NUL; returns
// the bytes the text needs (may exceed cap: nothing past cap is written).
size_t FormatArpabet(const PhoneCode* phones, int count, bool with_stress, char* out, size_t cap);

}  // namespace text
}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_ARPABET_H_
