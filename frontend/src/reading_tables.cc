#include "reading_tables.h"

#include <string.h>

namespace edgenmt {
namespace text {
namespace {

constexpr Abbreviation kAbbreviations[] = {
    {"mr", "mister", false, false},        {"mrs", "missus", false, false},
    {"ms", "miz", false, false},           {"dr", "doctor", false, false},
    {"st", "saint", true, false},          {"jr", "junior", true, false},
    {"sr", "senior", true, false},         {"prof", "professor", true, false},
    {"mt", "mount", true, false},          {"vs", "versus", false, false},
    {"etc", "et cetera", false, false},    {"e.g", "for example", false, false},
    {"e.g.", "for example", false, false}, {"i.e", "that is", false, false},
    {"i.e.", "that is", false, false},     {"a.m", "a m", false, false},
    {"a.m.", "a m", false, false},         {"p.m", "p m", false, false},
    {"p.m.", "p m", false, false},         {"inc", "incorporated", true, false},
    {"ltd", "limited", true, false},       {"co", "company", true, false},
    {"corp", "corporation", true, false},  {"approx", "approximately", true, false},
    {"dept", "department", true, false},   {"est", "established", true, false},
    {"min", "minimum", true, false},       {"max", "maximum", true, false},
    {"no", "number", true, true},          {"nos", "numbers", true, true},
    {"ave", "avenue", true, false},        {"blvd", "boulevard", true, false},
    {"fig", "figure", true, false},        {"vol", "volume", true, false},
};

constexpr Unit kUnits[] = {
    {"km", "kilometer", "kilometers", false},
    {"m", "meter", "meters", true},
    {"cm", "centimeter", "centimeters", false},
    {"mm", "millimeter", "millimeters", false},
    {"kg", "kilogram", "kilograms", false},
    {"g", "gram", "grams", true},
    {"mg", "milligram", "milligrams", false},
    {"lb", "pound", "pounds", false},
    {"lbs", "pounds", "pounds", false},
    {"oz", "ounce", "ounces", false},
    {"ft", "foot", "feet", false},
    {"in", "inch", "inches", true},
    {"mi", "mile", "miles", false},
    {"mph", "mile per hour", "miles per hour", false},
    {"kph", "kilometer per hour", "kilometers per hour", false},
    {"km/h", "kilometer per hour", "kilometers per hour", false},
    {"h", "hour", "hours", true},
    {"hr", "hour", "hours", false},
    {"hrs", "hours", "hours", false},
    {"min", "minute", "minutes", false},
    {"s", "second", "seconds", true},
    {"sec", "second", "seconds", false},
    {"ms", "millisecond", "milliseconds", false},
    {"ml", "milliliter", "milliliters", false},
    {"l", "liter", "liters", false},
    {"kb", "kilobyte", "kilobytes", false},
    {"mb", "megabyte", "megabytes", false},
    {"gb", "gigabyte", "gigabytes", false},
    {"tb", "terabyte", "terabytes", false},
    {"kw", "kilowatt", "kilowatts", false},
    {"kwh", "kilowatt hour", "kilowatt hours", false},
    {"w", "watt", "watts", true},
    {"v", "volt", "volts", true},
    {"hz", "hertz", "hertz", false},
    {"khz", "kilohertz", "kilohertz", false},
    {"mhz", "megahertz", "megahertz", false},
    {"ghz", "gigahertz", "gigahertz", false},
    {"\xC2\xB0"
     "C",
     "degree celsius", "degrees celsius", true},
    {"\xC2\xB0"
     "F",
     "degree fahrenheit", "degrees fahrenheit", true},
    {"\xC2\xB0", "degree", "degrees", true},
};

constexpr const char* kMonths[12][2] = {
    {"january", "jan"},   {"february", "feb"}, {"march", "mar"},    {"april", "apr"},
    {"may", "may"},       {"june", "jun"},     {"july", "jul"},     {"august", "aug"},
    {"september", "sep"}, {"october", "oct"},  {"november", "nov"}, {"december", "dec"}};

constexpr Currency kCurrencies[] = {
    {"$", "dollar", "dollars", "cent", "cents"},
    {"\xC2\xA3", "pound", "pounds", "penny", "pence"},
    {"\xE2\x82\xAC", "euro", "euros", "cent", "cents"},
    {"\xC2\xA5", "yen", "yen", nullptr, nullptr},
};

// CMUdict 0.7b's "A." ... "Z." (base * 4 + stress + 1, as arpabet.h packs them).
constexpr const char* kLetterNames[26] = {"EY1",
                                          "B IY1",
                                          "S IY1",
                                          "D IY1",
                                          "IY1",
                                          "EH1 F",
                                          "JH IY1",
                                          "EY1 CH",
                                          "AY1",
                                          "JH EY1",
                                          "K EY1",
                                          "EH1 L",
                                          "EH1 M",
                                          "EH1 N",
                                          "OW1",
                                          "P IY1",
                                          "K Y UW1",
                                          "AA1 R",
                                          "EH1 S",
                                          "T IY1",
                                          "Y UW1",
                                          "V IY1",
                                          "D AH1 B AH0 L Y UW0",
                                          "EH1 K S",
                                          "W AY1",
                                          "Z IY1"};

bool EqualsCaseless(const char* a, size_t n, const char* b) {
  if (strlen(b) != n) return false;
  for (size_t i = 0; i < n; ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != b[i]) return false;
  }
  return true;
}

}  // namespace

const Abbreviation* FindAbbreviation(const Token& word, bool period_follows, bool number_follows) {
  for (const Abbreviation& a : kAbbreviations) {
    if (!EqualsCaseless(word.text, word.len, a.written)) continue;
    if (a.needs_period && !period_follows) continue;
    if (a.before_number && !number_follows) continue;
    return &a;
  }
  return nullptr;
}

const Unit* FindUnit(const char* s, size_t n) {
  for (const Unit& u : kUnits) {
    if (u.case_sensitive ? (strlen(u.written) == n && memcmp(u.written, s, n) == 0)
                         : EqualsCaseless(s, n, u.written)) {
      return &u;
    }
  }
  // Case-sensitive units also read in their other case where that is unambiguous (L, W, V).
  if (n == 1 && (s[0] == 'L' || s[0] == 'W' || s[0] == 'V')) {
    const char lower[2] = {static_cast<char>(s[0] - 'A' + 'a'), 0};
    for (const Unit& u : kUnits) {
      if (strcmp(u.written, lower) == 0) return &u;
    }
  }
  return nullptr;
}

int MonthNumber(const Token& word) {
  for (int m = 0; m < 12; ++m) {
    if (EqualsCaseless(word.text, word.len, kMonths[m][0]) ||
        EqualsCaseless(word.text, word.len, kMonths[m][1])) {
      return m + 1;
    }
  }
  if (EqualsCaseless(word.text, word.len, "sept")) return 9;
  return 0;
}

const char* MonthName(int month) {
  return (month >= 1 && month <= 12) ? kMonths[month - 1][0] : "";
}

const Currency* FindCurrency(const Token& symbol) {
  for (const Currency& c : kCurrencies) {
    if (symbol.Is(c.symbol)) return &c;
  }
  return nullptr;
}

int LetterNamePhones(char c, PhoneCode* out) {
  if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  if (c < 'a' || c > 'z') return 0;
  const char* s = kLetterNames[c - 'a'];
  int count = 0;
  while (*s && count < 8) {
    size_t n = 0;
    while (s[n] && s[n] != ' ') ++n;
    if (ParseArpabetPhone(s, n, &out[count])) ++count;
    s += n;
    while (*s == ' ') ++s;
  }
  return count;
}

}  // namespace text
}  // namespace edgenmt
