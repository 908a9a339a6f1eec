// The static tables the normalizer reads with (docs/TEXT_NORMALIZATION.md): abbreviations,
// units, months, currencies and letter names. Words are space-separated lowercase strings.
#ifndef EDGENMT_FRONTEND_READING_TABLES_H_
#define EDGENMT_FRONTEND_READING_TABLES_H_

#include <stddef.h>

#include "arpabet.h"
#include "text_scanner.h"

namespace edgenmt {
namespace text {

struct Abbreviation {
  const char* written;  // without its final period, matched case-insensitively
  const char* reading;
  bool needs_period;   // only when a period follows ("No.", "St.", "in.")
  bool before_number;  // only before a number ("No. 5")
};
// The abbreviation a word token (and whether a period follows) stands for; null if none.
const Abbreviation* FindAbbreviation(const Token& word, bool period_follows, bool number_follows);

struct Unit {
  const char* written;   // as written after a number
  const char* singular;  // after exactly 1
  const char* plural;
  bool case_sensitive;  // single letters and the ones that clash with words
};
const Unit* FindUnit(const char* s, size_t n);

// 1..12 for a month name or its abbreviation (case-insensitive), else 0.
int MonthNumber(const Token& word);
const char* MonthName(int month);  // 1..12

struct Currency {
  const char* symbol;     // UTF-8
  const char* unit_one;   // dollar
  const char* unit_many;  // dollars
  const char* cent_one;   // cent (null: no subunit)
  const char* cent_many;  // cents
};
const Currency* FindCurrency(const Token& symbol);

// The spoken name of letter c (a-z, either case) as CMUdict says "A." ... "Z.": its phonemes.
// Returns the phoneme count (0 for a non-letter) and writes up to 8 codes.
int LetterNamePhones(char c, PhoneCode* out);

}  // namespace text
}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_READING_TABLES_H_
