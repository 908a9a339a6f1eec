// The normalizer's numbers: plain numbers, ordinals, decades, times, dates, fractions, ranges,
// digit strings, money, percentages and units (docs/TEXT_NORMALIZATION.md).
#include <string.h>

#include "normalizer.h"
#include "number_words.h"
#include "reading_tables.h"

namespace edgenmt {
namespace text {
namespace {

// A number token split at its separators: digit groups and the marks between them.
struct Groups {
  static constexpr int kMax = 8;
  const char* start[kMax];
  uint8_t len[kMax];
  char sep[kMax];  // sep[i]: the mark after group i
  int count = 0;
  bool overflow = false;
};

Groups Split(const char* s, size_t n) {
  Groups g;
  size_t i = 0;
  while (i < n) {
    size_t j = i;
    while (j < n && s[j] >= '0' && s[j] <= '9') ++j;
    if (g.count == Groups::kMax) {
      g.overflow = true;
      break;
    }
    g.start[g.count] = s + i;
    g.len[g.count] = static_cast<uint8_t>(j - i);
    g.sep[g.count] = j < n ? s[j] : 0;
    ++g.count;
    i = j + 1;
  }
  return g;
}

bool AllSeparators(const Groups& g, char mark) {
  for (int i = 0; i + 1 < g.count; ++i) {
    if (g.sep[i] != mark) return false;
  }
  return true;
}

uint64_t Value(const char* s, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = v * 10 + static_cast<uint64_t>(s[i] - '0');
  return v;
}

bool IsFunctionWord(const Token& t) {
  static const char* const kWords[] = {
      "the",   "a",     "an",    "this",  "that",    "these", "those",      "my",
      "your",  "his",   "her",   "its",   "our",     "their", "all",        "each",
      "every", "total", "order", "front", "case",    "time",  "and",        "or",
      "to",    "for",   "which", "what",  "general", "fact",  "particular", "one"};
  for (const char* w : kWords) {
    if (t.IsCaseless(w)) return true;
  }
  return false;
}

bool IsSuffix(const Token* t, const char* a, const char* b = nullptr, const char* c = nullptr,
              const char* d = nullptr) {
  if (!t || t->kind != TokenKind::kWord) return false;
  return t->IsCaseless(a) || (b && t->IsCaseless(b)) || (c && t->IsCaseless(c)) ||
         (d && t->IsCaseless(d));
}

// "am", "pm", "a.m.", "p.m.", "a", "p": 'a' or 'p', else 0.
char Meridiem(const Token* t) {
  if (!t || t->kind != TokenKind::kWord) return 0;
  if (t->IsCaseless("am") || t->IsCaseless("a.m.") || t->IsCaseless("a.m")) return 'a';
  if (t->IsCaseless("pm") || t->IsCaseless("p.m.") || t->IsCaseless("p.m")) return 'p';
  return 0;
}

}  // namespace

void Normalizer::SayPlain(const char* s, size_t n, bool allow_year) {
  // s: digits with optional thousands commas and one decimal point (a leading '.' too).
  size_t int_len = 0;
  char digits[kMaxTokenText];
  size_t d = 0;
  while (int_len < n && s[int_len] != '.') {
    if (s[int_len] >= '0' && s[int_len] <= '9' && d < sizeof digits) digits[d++] = s[int_len];
    ++int_len;
  }
  const bool has_commas = d != int_len;
  if (d > 15 || (d > 1 && digits[0] == '0' && !has_commas)) {
    SayDigits(digits, d, false, sink_);
  } else if (d > 0) {
    const uint64_t v = Value(digits, d);
    if (allow_year && !has_commas && d == 4 && v >= 1000 && v <= 2099 && int_len == n) {
      SayYear(static_cast<uint32_t>(v), NumberForm::kCardinal, sink_);
    } else {
      SayNumber(v, NumberForm::kCardinal, sink_);
    }
  }
  if (int_len < n) {
    Say("point");
    SayDigits(s + int_len + 1, n - int_len - 1, false, sink_);
  }
}

int Normalizer::ReadUnitAfter(int k, bool singular) {
  const Token* t = Peek(k);
  if (!t) return 0;
  const Unit* unit = nullptr;
  int used = 0;
  if (t->kind == TokenKind::kSymbol && t->Is("\xC2\xB0")) {
    const Token* scale = Peek(k + 1);
    if (scale && !scale->space_before && (scale->Is("C") || scale->Is("F"))) {
      unit = FindUnit(scale->Is("C") ? "\xC2\xB0"
                                       "C"
                                     : "\xC2\xB0"
                                       "F",
                      3);
      used = 2;
    } else {
      unit = FindUnit("\xC2\xB0", 2);
      used = 1;
    }
  } else if (t->kind == TokenKind::kWord) {
    const Token* slash = Peek(k + 1);
    const Token* per = Peek(k + 2);
    if (slash && per && !slash->space_before && !per->space_before && slash->Is("/") &&
        t->IsCaseless("km") && per->IsCaseless("h")) {
      unit = FindUnit("km/h", 4);
      used = 3;
    } else {
      unit = FindUnit(t->text, t->len);
      used = 1;
      // "in" and single letters are not units before a function word ("5 in the box",
      // "3 in 4", "2 a day").
      if (unit && (t->len == 1 || t->Is("in")) && t->space_before) {
        const Token* next = Peek(k + 1);
        if (next && next->space_before &&
            (next->kind == TokenKind::kNumber ||
             (next->kind == TokenKind::kWord && IsFunctionWord(*next)))) {
          unit = nullptr;
        }
      }
    }
  }
  if (!unit) return 0;
  Say(singular ? unit->singular : unit->plural);
  return used;
}

int Normalizer::ReadMoney(int k) {
  const Token symbol = *Peek(k);
  const Currency* currency = FindCurrency(symbol);
  const Token amount = *Peek(k + 1);
  int used = k + 2;
  const Groups g = Split(amount.text, amount.len);
  // $5-$10: the first amount without its unit, then the second read in full.
  const Token* dash = Peek(used);
  if (dash && !dash->space_before && dash->kind == TokenKind::kPunct && dash->Is("-") &&
      Attached(used + 1) && Peek(used + 1)->kind == TokenKind::kSymbol &&
      FindCurrency(*Peek(used + 1)) && Attached(used + 2) &&
      Peek(used + 2)->kind == TokenKind::kNumber) {
    sink_->BeginItem(symbol.begin, amount.end);
    SayPlain(amount.text, amount.len, false);
    Say("to");
    return ReadMoney(used + 1);
  }
  // A range written as one token: $5-10.
  if (g.count == 2 && g.sep[0] == '-') {
    sink_->BeginItem(symbol.begin, amount.end);
    SayPlain(g.start[0], g.len[0], false);
    Say("to");
    SayPlain(g.start[1], g.len[1], false);
    Say(currency->unit_many);
    return used;
  }
  // A scale: $1.5 million, $3.2B, $10k.
  const char* scale = nullptr;
  const Token* next = Peek(used);
  if (next && next->kind == TokenKind::kWord) {
    if (!next->space_before) {
      if (next->IsCaseless("k"))
        scale = "thousand";
      else if (next->Is("M") || next->Is("m") || next->IsCaseless("mn"))
        scale = "million";
      else if (next->Is("B") || next->IsCaseless("bn"))
        scale = "billion";
      else if (next->Is("T") || next->IsCaseless("tn"))
        scale = "trillion";
    } else if (IsSuffix(next, "thousand", "million", "billion", "trillion")) {
      scale = next->IsCaseless("thousand")  ? "thousand"
              : next->IsCaseless("million") ? "million"
              : next->IsCaseless("billion") ? "billion"
                                            : "trillion";
    }
  }
  if (scale) {
    sink_->BeginItem(symbol.begin, next->end);
    SayPlain(amount.text, amount.len, false);
    Say(scale);
    Say(currency->unit_many);
    return used + 1;
  }
  sink_->BeginItem(symbol.begin, amount.end);
  const char* dot = static_cast<const char*>(memchr(amount.text, '.', amount.len));
  const size_t int_len = dot ? static_cast<size_t>(dot - amount.text) : amount.len;
  const size_t frac_len = dot ? amount.len - int_len - 1 : 0;
  if (dot && (frac_len != 2 || !currency->cent_one)) {
    SayPlain(amount.text, amount.len, false);
    Say(currency->unit_many);
  } else {
    char digits[kMaxTokenText];
    size_t d = 0;
    for (size_t i = 0; i < int_len; ++i) {
      if (amount.text[i] >= '0' && amount.text[i] <= '9') digits[d++] = amount.text[i];
    }
    const uint64_t whole = d <= 15 ? Value(digits, d) : 0;
    const uint64_t cents = dot ? Value(dot + 1, 2) : 0;
    if (d > 15) {
      SayDigits(digits, d, false, sink_);
      Say(currency->unit_many);
    } else if (whole > 0 || cents == 0) {
      SayNumber(whole, NumberForm::kCardinal, sink_);
      Say(whole == 1 ? currency->unit_one : currency->unit_many);
    }
    if (cents > 0) {
      SayNumber(cents, NumberForm::kCardinal, sink_);
      Say(cents == 1 ? currency->cent_one : currency->cent_many);
    }
  }
  return used;
}

int Normalizer::ReadNumber(const Token& t) {
  const bool after_integer = last_was_integer_;
  last_was_integer_ = false;
  const bool negative = t.text[0] == '-';
  const char* s = t.text + (negative ? 1 : 0);
  const size_t n = t.len - (negative ? 1 : 0);
  const Groups g = Split(s, n);
  int used = 1;
  // A digit run longer than a token, or a pattern with too many parts: digit by digit.
  if (t.continued || g.overflow) {
    sink_->BeginItem(t.begin, t.end);
    SayDigits(s, n, false, sink_);
    return 1;
  }
  const char first_sep = g.count > 1 ? g.sep[0] : 0;
  // Times: 3:45, 15:30, 12:00:30, with am / pm.
  if (first_sep == ':' && AllSeparators(g, ':') && g.count <= 3 && g.len[0] <= 2 && g.len[1] == 2 &&
      (g.count == 2 || g.len[2] == 2) && Value(g.start[1], 2) < 60) {
    const Token* next = Peek(1);
    const char meridiem = Meridiem(next);
    if (meridiem) used = 2;
    sink_->BeginItem(t.begin, Peek(used - 1)->end);
    SayNumber(Value(g.start[0], g.len[0]), NumberForm::kCardinal, sink_);
    const uint64_t minutes = Value(g.start[1], 2);
    if (g.count == 3) {
      for (int i = 1; i < 3; ++i) {
        const uint64_t v = Value(g.start[i], 2);
        if (v < 10)
          SayDigits(g.start[i], 2, true, sink_);
        else
          SayNumber(v, NumberForm::kCardinal, sink_);
      }
    } else if (minutes > 0) {
      SayTwoDigitGroup(static_cast<uint32_t>(minutes), sink_);
    } else if (!meridiem) {
      Say("o'clock");
    }
    if (meridiem) Say(meridiem == 'a' ? "a m" : "p m");
    return used;
  }
  sink_->BeginItem(t.begin, t.end);
  // Dates: 12/25/2024 (US month/day/year), 2024-05-03 (ISO).
  if (g.count == 3 && AllSeparators(g, '/') && g.len[0] <= 2 && g.len[1] <= 2 &&
      (g.len[2] == 2 || g.len[2] == 4)) {
    const uint64_t m = Value(g.start[0], g.len[0]), d = Value(g.start[1], g.len[1]);
    if (m >= 1 && m <= 12 && d >= 1 && d <= 31) {
      Say(MonthName(static_cast<int>(m)));
      SayNumber(d, NumberForm::kOrdinal, sink_);
      if (g.len[2] == 4)
        SayPlain(g.start[2], 4, true);
      else
        SayTwoDigitGroup(static_cast<uint32_t>(Value(g.start[2], 2)), sink_);
      return 1;
    }
  }
  if (g.count == 3 && AllSeparators(g, '-') && g.len[0] == 4 && g.len[1] == 2 && g.len[2] == 2) {
    const uint64_t m = Value(g.start[1], 2), d = Value(g.start[2], 2);
    if (m >= 1 && m <= 12 && d >= 1 && d <= 31) {
      Say(MonthName(static_cast<int>(m)));
      SayNumber(d, NumberForm::kOrdinal, sink_);
      SayPlain(g.start[0], 4, true);
      return 1;
    }
  }
  // Phone numbers: 555-1234, 555-123-4567, 1-800-555-1234.
  if (g.count >= 2 && AllSeparators(g, '-') && g.len[g.count - 1] == 4 && g.len[g.count - 2] == 3 &&
      (g.count == 2 || g.len[0] <= 3)) {
    for (int i = 0; i < g.count; ++i) SayDigits(g.start[i], g.len[i], false, sink_);
    return 1;
  }
  // Fractions: 1/2, 3/4, 7/32; after a whole number: one and a half.
  if (g.count == 2 && first_sep == '/' && g.len[0] <= 3 && g.len[1] <= 3 && !negative) {
    const uint64_t num = Value(g.start[0], g.len[0]), den = Value(g.start[1], g.len[1]);
    if (num >= 1 && den >= 2) {
      const bool mixed = after_integer && t.space_before;
      if (mixed) Say("and");
      if (mixed && num == 1)
        sink_->Word("a", 1, WordSource::kNormalizer);  // the article
      else
        SayNumber(num, NumberForm::kCardinal, sink_);
      const NumberForm form = num == 1 ? NumberForm::kOrdinal : NumberForm::kOrdinalPlural;
      if (den == 2)
        Say(num == 1 ? "half" : "halves");
      else if (den == 4)
        Say(num == 1 ? "quarter" : "quarters");
      else
        SayNumber(den, form, sink_);
      return 1;
    }
  }
  // Ranges: 5-10, 1990-2000 (each side read on its own, years as years).
  if (g.count == 2 && first_sep == '-') {
    if (negative) Say("minus");
    SayPlain(g.start[0], g.len[0], true);
    Say("to");
    SayPlain(g.start[1], g.len[1], true);
    return 1 + ReadUnitAfter(1, false);
  }
  // Anything else with separators other than thousands commas and one decimal point: each
  // group of digits on its own ("1.2.3": one point two point three).
  int dots = 0;
  bool commas_ok = true;
  for (int i = 0; i + 1 < g.count; ++i) {
    if (g.sep[i] == '.')
      ++dots;
    else if (g.sep[i] != ',' || g.len[i + 1] != 3 || dots > 0)
      commas_ok = false;
  }
  if (!commas_ok || dots > 1 || (g.count > 1 && g.sep[0] == ',' && g.len[0] > 3)) {
    if (negative) Say("minus");
    for (int i = 0; i < g.count; ++i) {
      if (g.len[i]) SayPlain(g.start[i], g.len[i], false);
      if (i + 1 < g.count)
        Say(g.sep[i] == '.'   ? "point"
            : g.sep[i] == ':' ? "colon"
            : g.sep[i] == '/' ? "slash"
            : g.sep[i] == '-' ? "dash"
                              : "");
    }
    return 1;
  }
  // A plain number, then what may follow it.
  const Token* next = Peek(1);
  const bool attached = next && !next->space_before;
  const bool is_integer = dots == 0 && s[0] != '.';
  if (attached && is_integer && IsSuffix(next, "st", "nd", "rd", "th")) {
    char digits[kMaxTokenText];
    size_t d = 0;
    for (size_t i = 0; i < n; ++i)
      if (s[i] != ',') digits[d++] = s[i];
    if (d <= 15) {
      sink_->BeginItem(t.begin, next->end);
      if (negative) Say("minus");
      SayNumber(Value(digits, d), NumberForm::kOrdinal, sink_);
      return 2;
    }
  }
  if (attached && is_integer && next->kind == TokenKind::kWord && next->Is("s") && n <= 4) {
    sink_->BeginItem(t.begin, next->end);
    const uint64_t v = Value(s, n);
    if (n == 4 && v >= 1000 && v <= 2099) {
      SayYear(static_cast<uint32_t>(v), NumberForm::kPlural, sink_);
    } else {
      SayNumber(v, NumberForm::kPlural, sink_);
    }
    return 2;
  }
  const bool one = n == 1 && s[0] == '1' && !negative;
  const Token* after = Peek(1);
  const bool percent_next = after && after->kind == TokenKind::kSymbol && after->Is("%");
  const Token* unit_token = Peek(1);
  const bool unit_like =
      unit_token &&
      (unit_token->kind == TokenKind::kWord || unit_token->kind == TokenKind::kSymbol) &&
      !percent_next;
  const char meridiem = Meridiem(next);
  if (negative) Say("minus");
  SayPlain(
      s, n,
      !percent_next && !(unit_like && FindUnit(unit_token->text, unit_token->len)) && !meridiem);
  last_was_integer_ = is_integer && !percent_next;
  if (percent_next) {
    Say("percent");
    return 2;
  }
  if (meridiem && is_integer) {
    Say(meridiem == 'a' ? "a m" : "p m");
    return 2;
  }
  if (attached && next->kind == TokenKind::kWord && next->IsCaseless("x") && Attached(2) &&
      Peek(2)->kind == TokenKind::kNumber) {
    Say("by");
    return 2;
  }
  if (Spaced(1) && next->kind == TokenKind::kWord && next->IsCaseless("x") && Spaced(2) &&
      Peek(2)->kind == TokenKind::kNumber) {
    Say("by");
    return 2;
  }
  const int unit_tokens = ReadUnitAfter(1, one);
  if (unit_tokens > 0) last_was_integer_ = false;
  return 1 + unit_tokens;
}

}  // namespace text
}  // namespace edgenmt
