#include "arpabet.h"

namespace edgenmt {
namespace text {
namespace {

constexpr const char* kBaseNames[kArpabetBases] = {
    "AA", "AE", "AH", "AO", "AW", "AY", "B",  "CH", "D", "DH", "EH", "ER", "EY",
    "F",  "G",  "HH", "IH", "IY", "JH", "K",  "L",  "M", "N",  "NG", "OW", "OY",
    "P",  "R",  "S",  "SH", "T",  "TH", "UH", "UW", "V", "W",  "Y",  "Z",  "ZH"};

char Upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

}  // namespace

const char* ArpabetBaseName(int base) {
  return (base >= 0 && base < kArpabetBases) ? kBaseNames[base] : "";
}

bool ArpabetIsVowel(int base) {
  const char* name = ArpabetBaseName(base);
  const char c = name[0];
  return c == 'A' || c == 'E' || c == 'I' || c == 'O' || c == 'U';
}

bool ParseArpabetPhone(const char* s, size_t n, PhoneCode* out) {
  if (n == 0 || n > 3) return false;
  int stress = kNoStress;
  size_t letters = n;
  if (s[n - 1] >= '0' && s[n - 1] <= '9') {
    if (s[n - 1] > '2') return false;
    stress = s[n - 1] - '0';
    letters = n - 1;
  }
  if (letters == 0 || letters > 2) return false;
  for (int base = 0; base < kArpabetBases; ++base) {
    const char* name = kBaseNames[base];
    const size_t len = name[1] ? 2 : 1;
    if (len != letters) continue;
    if (Upper(s[0]) != name[0] || (len == 2 && Upper(s[1]) != name[1])) continue;
    if (stress != kNoStress && !ArpabetIsVowel(base)) return false;
    *out = MakePhone(base, stress);
    return true;
  }
  return false;
}

size_t FormatArpabet(const PhoneCode* phones, int count, bool with_stress, char* out, size_t cap) {
  size_t used = 0;
  auto put = [&](char c) {
    if (used < cap) out[used] = c;
    ++used;
  };
  for (int i = 0; i < count; ++i) {
    if (i > 0) put(' ');
    for (const char* p = ArpabetBaseName(PhoneBase(phones[i])); *p; ++p) put(*p);
    const int stress = PhoneStress(phones[i]);
    if (with_stress && stress != kNoStress) put(static_cast<char>('0' + stress));
  }
  return used;
}

}  // namespace text
}  // namespace edgenmt
