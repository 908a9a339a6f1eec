#include "normalizer.h"

#include <string.h>

#include "number_words.h"
#include "reading_tables.h"

namespace edgenmt {
namespace text {
namespace {

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || IsUpper(c); }
char Lower(char c) { return IsUpper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

// The reading of one character of a URL or e-mail address that is not a letter or digit.
const char* UrlMarkReading(char c) {
  switch (c) {
    case '.': return "dot";
    case '/': return "slash";
    case ':': return "colon";
    case '@': return "at";
    case '-': return "dash";
    case '_': return "underscore";
    case '?': return "question mark";
    case '=': return "equals";
    case '&': return "and";
    case '#': return "hash";
    case '~': return "tilde";
    case '%': return "percent";
    case '+': return "plus";
    default: return nullptr;
  }
}

}  // namespace

Normalizer::Normalizer(const char* line, size_t len, WarnFunction warn, void* user,
                       WordOracle* oracle, WordSink* sink)
    : scanner_(line, len, warn, user),
      line_(line),
      len_(len),
      warn_(warn),
      user_(user),
      oracle_(oracle),
      sink_(sink) {}

const Token* Normalizer::Peek(int k) {
  while (count_ <= k && !scanner_done_) {
    if (scanner_.Next(&window_[(start_ + count_) % kWindow])) {
      ++count_;
    } else {
      scanner_done_ = true;
    }
  }
  return k < count_ ? &window_[(start_ + k) % kWindow] : nullptr;
}

void Normalizer::Consume(int k) {
  if (k > count_) k = count_;
  start_ = (start_ + k) % kWindow;
  count_ -= k;
}

bool Normalizer::Attached(int k) {
  const Token* t = Peek(k);
  return t != nullptr && !t->space_before;
}

bool Normalizer::Spaced(int k) {
  const Token* t = Peek(k);
  return t != nullptr && t->space_before;
}

void Normalizer::Say(const char* words) {
  while (*words) {
    size_t n = 0;
    while (words[n] && words[n] != ' ') ++n;
    // A single letter in a reading ("a m", "p m") is that letter's name.
    if (n) sink_->Word(words, n, n == 1 ? WordSource::kLetter : WordSource::kNormalizer);
    words += n;
    while (*words == ' ') ++words;
  }
}

void Normalizer::SpellLetters(const char* s, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (!IsLetter(s[i])) continue;
    const char lower = Lower(s[i]);
    sink_->Word(&lower, 1, WordSource::kLetter);
  }
}

void Normalizer::Run() {
  while (const Token* t = Peek(0)) {
    const Token token = *t;
    int used = 1;
    const bool was_integer = last_was_integer_;
    last_was_integer_ = false;
    switch (token.kind) {
      case TokenKind::kPunct: used = ReadPunct(token); break;
      case TokenKind::kSymbol: used = ReadSymbol(token); break;
      case TokenKind::kWord: used = ReadWord(token); break;
      case TokenKind::kUrl:
        sink_->BeginItem(token.begin, token.end);
        ReadUrl(token);
        break;
      case TokenKind::kNumber:
        last_was_integer_ = was_integer;  // ReadNumber looks at it, then sets it
        used = ReadNumber(token);
        break;
    }
    if (used < 1) used = 1;
    if (const Token* last = Peek(used - 1)) sink_->ExtendItem(last->end);
    Consume(used);
  }
}

int Normalizer::ReadPunct(const Token& t) {
  if (t.joiner) return 1;  // well-known: the parts are separate words, no break
  // '90s: a decade.
  if (t.Is("'") && Attached(1) && Peek(1)->kind == TokenKind::kNumber && Peek(1)->len == 2 &&
      Attached(2) && Peek(2)->kind == TokenKind::kWord && Peek(2)->Is("s")) {
    sink_->BeginItem(t.begin, Peek(2)->end);
    const uint32_t tens =
        static_cast<uint32_t>((Peek(1)->text[0] - '0') * 10 + (Peek(1)->text[1] - '0'));
    SayNumber(tens, NumberForm::kPlural, sink_);
    return 3;
  }
  // (555) 123-4567: a phone number, digit by digit.
  if (t.Is("(") && Attached(1) && Peek(1)->kind == TokenKind::kNumber && Peek(1)->len == 3 &&
      Attached(2) && Peek(2)->Is(")") && Spaced(3) && Peek(3)->kind == TokenKind::kNumber &&
      Peek(3)->len == 8 && Peek(3)->text[3] == '-') {
    sink_->BeginItem(t.begin, Peek(3)->end);
    SayDigits(Peek(1)->text, Peek(1)->len, false, sink_);
    SayDigits(Peek(3)->text, Peek(3)->len, false, sink_);
    return 4;
  }
  // "/" between two words: slash.
  if (t.Is("/") && !t.space_before && Attached(1) && Peek(1)->kind == TokenKind::kWord) {
    sink_->BeginItem(t.begin, t.end);
    Say("slash");
    return 1;
  }
  sink_->BeginItem(t.begin, t.end);
  const char* mark = t.Is("'") ? "\"" : t.len == 3 ? "..." : nullptr;
  char one[2] = {t.text[0], 0};
  sink_->Break(mark ? mark : one, t.space_before);
  return 1;
}

int Normalizer::ReadSymbol(const Token& t) {
  if (const Currency* c = FindCurrency(t)) {
    (void)c;
    if (Attached(1) && Peek(1)->kind == TokenKind::kNumber) return ReadMoney(0);
  }
  if (t.Is("#") && Attached(1) && Peek(1)->kind == TokenKind::kNumber) {
    sink_->BeginItem(t.begin, t.end);
    Say("number");
    return 1;  // the number reads next
  }
  struct Reading {
    const char* symbol;
    const char* words;
  };
  static const Reading kReadings[] = {{"&", "and"},
                                      {"+", "plus"},
                                      {"@", "at"},
                                      {"=", "equals"},
                                      {"%", "percent"},
                                      {"<", "less than"},
                                      {">", "greater than"},
                                      {"#", "hash"},
                                      {"\xC2\xB0", "degrees"},
                                      {"\xC3\x97", "times"},
                                      {"\xC2\xA2", "cents"},
                                      {"$", "dollars"},
                                      {"\xC2\xA3", "pounds"},
                                      {"\xE2\x82\xAC", "euros"},
                                      {"\xC2\xA5", "yen"}};
  sink_->BeginItem(t.begin, t.end);
  for (const Reading& r : kReadings) {
    if (t.Is(r.symbol)) {
      Say(r.words);
      return 1;
    }
  }
  return 1;
}

int Normalizer::ReadWord(const Token& t) {
  const bool period = Attached(1) && Peek(1)->kind == TokenKind::kPunct && Peek(1)->Is(".");
  const int after = period ? 2 : 1;
  const bool number_next = Spaced(after) && Peek(after)->kind == TokenKind::kNumber;
  // A month and a day: May 3, May 3rd, Dec. 25.
  if (const int month = MonthNumber(t)) {
    const Token* day = Peek(after);
    if (number_next && day->len <= 2 && (t.len > 3 || period || month == 5)) {
      uint32_t d = 0;
      for (int i = 0; i < day->len; ++i) d = d * 10 + static_cast<uint32_t>(day->text[i] - '0');
      if (d >= 1 && d <= 31 && day->text[0] != '-') {
        int used = after + 1;
        const Token* suffix = Peek(used);
        if (suffix && !suffix->space_before && suffix->kind == TokenKind::kWord &&
            (suffix->IsCaseless("st") || suffix->IsCaseless("nd") || suffix->IsCaseless("rd") ||
             suffix->IsCaseless("th"))) {
          ++used;
        }
        sink_->BeginItem(t.begin, Peek(used - 1)->end);
        Say(MonthName(month));
        SayNumber(d, NumberForm::kOrdinal, sink_);
        return used;
      }
    }
  }
  // A month's abbreviation on its own ("Feb. was cold").
  if (period && MonthNumber(t) && t.len <= 4) {
    sink_->BeginItem(t.begin, Peek(1)->end);
    Say(MonthName(MonthNumber(t)));
    return 2;
  }
  if (const Abbreviation* a = FindAbbreviation(t, period, number_next)) {
    // St.: saint before a capitalised word, street after one.
    const char* reading = a->reading;
    if (strcmp(a->written, "st") == 0) {
      const Token* next = Peek(after);
      const bool capital_next = next && next->kind == TokenKind::kWord && IsUpper(next->text[0]);
      if (!capital_next) reading = "street";
    }
    sink_->BeginItem(t.begin, period ? Peek(1)->end : t.end);
    Say(reading);
    return after;
  }
  sink_->BeginItem(t.begin, t.end);
  // Dotted initials (U.S.) and all-capital words the dictionary does not say as a word.
  bool dotted = false, all_caps = t.len >= 2, letters = true;
  size_t n_letters = 0;
  for (int i = 0; i < t.len; ++i) {
    if (t.text[i] == '.')
      dotted = true;
    else if (IsLetter(t.text[i]))
      ++n_letters;
    else
      letters = false;
    if (IsLetter(t.text[i]) && !IsUpper(t.text[i])) all_caps = false;
  }
  if (dotted && letters) {
    SpellLetters(t.text, t.len);
    return 1;
  }
  char lower[kMaxTokenText];
  for (int i = 0; i < t.len; ++i) lower[i] = Lower(t.text[i]);
  if (all_caps && letters && n_letters <= 5 && !t.continued &&
      oracle_->ReadsAsLetters(lower, t.len)) {
    SpellLetters(t.text, t.len);
    return 1;
  }
  // Periods (dotted runs mixed with apostrophes, "ww'w.S.") split the token into words;
  // leading or trailing apostrophes are not part of a word.
  int start = 0;
  while (start < t.len) {
    int end = start;
    while (end < t.len && lower[end] != '.') ++end;
    int b = start, e = end;
    while (b < e && lower[b] == '\'') ++b;
    while (e > b && lower[e - 1] == '\'' && !(e - b > 1 && lower[e - 2] == 's')) --e;
    if (e > b) sink_->Word(lower + b, static_cast<size_t>(e - b), WordSource::kText);
    start = end + 1;
  }
  return 1;
}

void Normalizer::ReadUrl(const Token& t) {
  // Read from the line itself: a URL may be longer than a token's text.
  size_t i = t.begin;
  const size_t end = t.end;
  while (i < end) {
    const char c = line_[i];
    if (IsLetter(c)) {
      char word[kMaxTokenText];
      size_t n = 0;
      while (i < end && IsLetter(line_[i]) && n < sizeof word) word[n++] = Lower(line_[i++]);
      if (oracle_->Listed(word, n)) {
        sink_->Word(word, n, WordSource::kNormalizer);
      } else {
        SpellLetters(word, n);
      }
    } else if (c >= '0' && c <= '9') {
      size_t n = 0;
      while (i + n < end && line_[i + n] >= '0' && line_[i + n] <= '9') ++n;
      SayDigits(line_ + i, n, false, sink_);
      i += n;
    } else {
      if (const char* reading = UrlMarkReading(c)) Say(reading);
      ++i;  // other bytes (non-ASCII in a URL) are not read
    }
  }
}

}  // namespace text
}  // namespace edgenmt
