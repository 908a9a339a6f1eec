#include "text_scanner.h"

#include <string.h>

#include "bounded_text.h"

namespace edgenmt {
namespace text {
namespace {

constexpr uint32_t kInvalid = 0xFFFFFFFFu;

// Base letters of U+00C0..U+00FF and U+0100..U+017F ('*': not a letter or two letters).
constexpr char kLatin1Letters[] =
    "AAAAAA*CEEEEIIIIDNOOOOO*OUUUUY**aaaaaa*ceeeeiiiidnooooo*ouuuuy*y";
constexpr char kLatinExtendedALetters[] =
    "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiIiJjKkkLlLlLlLlLlNnNnNnnNnOoOoOoOoRrRrRr"
    "SsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs";
static_assert(sizeof(kLatin1Letters) == 65, "64 letters");
static_assert(sizeof(kLatinExtendedALetters) == 129, "128 letters");

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Decodes one UTF-8 sequence at s[0, n); returns its length, or 0 when invalid (overlong,
// surrogate, above U+10FFFF, truncated).
size_t DecodeUtf8(const uint8_t* s, size_t n, uint32_t* cp) {
  const uint8_t b = s[0];
  if (b < 0x80) {
    *cp = b;
    return 1;
  }
  size_t len;
  uint32_t min;
  if ((b & 0xE0) == 0xC0) {
    len = 2;
    *cp = b & 0x1F;
    min = 0x80;
  } else if ((b & 0xF0) == 0xE0) {
    len = 3;
    *cp = b & 0x0F;
    min = 0x800;
  } else if ((b & 0xF8) == 0xF0) {
    len = 4;
    *cp = b & 0x07;
    min = 0x10000;
  } else
    return 0;
  if (len > n) return 0;
  for (size_t i = 1; i < len; ++i) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    *cp = (*cp << 6) | (s[i] & 0x3F);
  }
  if (*cp < min || *cp > 0x10FFFF || (*cp >= 0xD800 && *cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

bool Token::Is(const char* s) const {
  const size_t n = strlen(s);
  return n == len && memcmp(text, s, n) == 0;
}

bool Token::IsCaseless(const char* s) const {
  const size_t n = strlen(s);
  if (n != len) return false;
  for (size_t i = 0; i < n; ++i) {
    char a = text[i], b = s[i];
    if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
    if (b >= 'A' && b <= 'Z') b = static_cast<char>(b - 'A' + 'a');
    if (a != b) return false;
  }
  return true;
}

TextScanner::TextScanner(const char* line, size_t len, WarnFunction warn, void* user)
    : line_(line), len_(len), warn_(warn), user_(user) {}

TextScanner::Char TextScanner::At(size_t pos) const {
  Char c{Class::kSkip, kInvalid, 1, {0, 0, 0}, nullptr};
  if (pos >= len_) {
    c.cls = Class::kSpace;
    c.cp = 0;
    return c;
  }
  uint32_t cp = 0;
  const size_t n = DecodeUtf8(reinterpret_cast<const uint8_t*>(line_) + pos, len_ - pos, &cp);
  if (n == 0) return c;  // an invalid byte: skipped alone
  c.cp = cp;
  c.bytes = static_cast<uint8_t>(n);
  auto punct = [&c](char a, char b = 0, char d = 0) {
    c.cls = Class::kPunct;
    c.ascii[0] = a;
    c.ascii[1] = b;
    c.ascii[2] = d;
  };
  auto symbol = [&c](const char* s) {
    c.cls = Class::kSymbol;
    c.utf8_symbol = s;
  };
  if (cp < 0x80) {
    const char a = static_cast<char>(cp);
    if (IsAsciiLetter(a)) {
      c.cls = Class::kLetter;
      c.ascii[0] = a;
      return c;
    }
    if (a >= '0' && a <= '9') {
      c.cls = Class::kDigit;
      c.ascii[0] = a;
      return c;
    }
    if (a == ' ' || a == '\t' || a == '\n' || a == '\r' || a == '\v' || a == '\f') {
      c.cls = Class::kSpace;
      return c;
    }
    if (a == '\'' || a == '`') {
      c.cls = Class::kApostrophe;
      c.ascii[0] = '\'';
      return c;
    }
    if (strchr(".,;:!?()[]{}\"-/", a) && a != 0) {
      punct(a);
      return c;
    }
    switch (a) {
      case '$': symbol("$"); return c;
      case '%': symbol("%"); return c;
      case '&': symbol("&"); return c;
      case '+': symbol("+"); return c;
      case '@': symbol("@"); return c;
      case '=': symbol("="); return c;
      case '#': symbol("#"); return c;
      case '<': symbol("<"); return c;
      case '>': symbol(">"); return c;
      default: return c;  // controls, * ^ ~ | \ _: no reading
    }
  }
  if (cp >= 0xC0 && cp <= 0xFF) {
    const char l = kLatin1Letters[cp - 0xC0];
    if (l != '*') {
      c.cls = Class::kLetter;
      c.ascii[0] = l;
      return c;
    }
    switch (cp) {
      case 0xC6:
        c.cls = Class::kLetter;
        c.ascii[0] = 'A';
        c.ascii[1] = 'E';
        return c;
      case 0xE6:
        c.cls = Class::kLetter;
        c.ascii[0] = 'a';
        c.ascii[1] = 'e';
        return c;
      case 0xDE:
        c.cls = Class::kLetter;
        c.ascii[0] = 'T';
        c.ascii[1] = 'H';
        return c;
      case 0xFE:
        c.cls = Class::kLetter;
        c.ascii[0] = 't';
        c.ascii[1] = 'h';
        return c;
      case 0xDF:
        c.cls = Class::kLetter;
        c.ascii[0] = 's';
        c.ascii[1] = 's';
        return c;
      case 0xD7: symbol("\xC3\x97"); return c;  // ×
      default: return c;                        // ÷
    }
  }
  if (cp >= 0x100 && cp <= 0x17F) {
    c.cls = Class::kLetter;
    if (cp == 0x152) {
      c.ascii[0] = 'O';
      c.ascii[1] = 'E';
      return c;
    }
    if (cp == 0x153) {
      c.ascii[0] = 'o';
      c.ascii[1] = 'e';
      return c;
    }
    c.ascii[0] = kLatinExtendedALetters[cp - 0x100];
    return c;
  }
  switch (cp) {
    case 0xA0:
    case 0x2000:
    case 0x2001:
    case 0x2002:
    case 0x2003:
    case 0x2004:
    case 0x2005:
    case 0x2006:
    case 0x2007:
    case 0x2008:
    case 0x2009:
    case 0x200A:
    case 0x202F:
    case 0x3000: c.cls = Class::kSpace; return c;
    case 0x2018:
    case 0x2019:
    case 0x02BC:
    case 0x2032:
      c.cls = Class::kApostrophe;
      c.ascii[0] = '\'';
      return c;
    case 0x201C:
    case 0x201D:
    case 0x201E:
    case 0xAB:
    case 0xBB: punct('"'); return c;
    case 0x2010:
    case 0x2011:
    case 0x2012:
    case 0x2013:
    case 0x2014:
    case 0x2015:
    case 0x2212: punct('-'); return c;
    case 0x2026: punct('.', '.', '.'); return c;
    case 0xA3: symbol("\xC2\xA3"); return c;        // £
    case 0x20AC: symbol("\xE2\x82\xAC"); return c;  // €
    case 0xA5: symbol("\xC2\xA5"); return c;        // ¥
    case 0xA2: symbol("\xC2\xA2"); return c;        // ¢
    case 0xB0: symbol("\xC2\xB0"); return c;        // °
    default: return c;  // emoji, other scripts, controls U+0080..U+009F: no reading
  }
}

void TextScanner::SkipRun() {
  size_t skip_begin = 0, skipped = 0;
  uint32_t first_cp = 0;
  auto flush = [&]() {
    if (skipped == 0) return;
    if (warn_) {
      char message[128];
      BoundedText out(message, sizeof message);
      out.Append("skipped ")
          .Number(static_cast<int64_t>(skipped))
          .Append(skipped == 1 ? " character (" : " characters (first: ");
      if (first_cp == kInvalid) {
        out.Append("invalid UTF-8 byte 0x");
        const uint8_t b = static_cast<uint8_t>(line_[skip_begin]);
        out.Char("0123456789ABCDEF"[b >> 4]).Char("0123456789ABCDEF"[b & 15]);
      } else {
        out.CodePoint(first_cp).Append(first_cp < 0x20 || (first_cp >= 0x7F && first_cp < 0xA0)
                                           ? ", a control character"
                                           : ", no reading");
      }
      out.Append(") at byte ").Number(static_cast<int64_t>(skip_begin));
      warn_(user_, message);
    }
    skipped = 0;
  };
  while (pos_ < len_) {
    const Char c = At(pos_);
    if (c.cls == Class::kSpace) {
      flush();
      space_before_ = true;
      pos_ += c.bytes;
    } else if (c.cls == Class::kSkip) {
      if (skipped == 0) {
        skip_begin = pos_;
        first_cp = c.cp;
      }
      ++skipped;
      pos_ += c.bytes;
    } else {
      break;
    }
  }
  flush();
}

void TextScanner::StartRun() {
  // The run (up to the next space) is looked at once: URL-like runs are read as one token.
  size_t end = pos_;
  bool has_scheme = false, has_at = false, dot_after_at = false;
  while (end < len_) {
    const Char c = At(end);
    if (c.cls == Class::kSpace) break;
    if (c.cp == '@') has_at = true;
    if (c.cp == '.' && has_at) dot_after_at = true;
    if (c.cp == ':' && end + 2 < len_ && line_[end + 1] == '/' && line_[end + 2] == '/') {
      has_scheme = true;
    }
    end += c.bytes;
  }
  const bool www = len_ - pos_ >= 4 && (line_[pos_] == 'w' || line_[pos_] == 'W') &&
                   strncmp(line_ + pos_ + 1, "ww.", 3) == 0 && end - pos_ > 4;
  url_end_ = 0;
  if (!(has_scheme || www || (has_at && dot_after_at))) return;
  // Trailing sentence punctuation is not part of the address.
  while (end > pos_ && strchr(".,;:!?)\"'", line_[end - 1])) --end;
  if (end > pos_ + 3 && (At(pos_).cls == Class::kLetter || At(pos_).cls == Class::kDigit)) {
    url_end_ = end;
  }
}

bool TextScanner::NumberStartsAt(size_t pos, bool space_before) const {
  const Char c = At(pos);
  if (c.cls == Class::kDigit) return true;
  if (!space_before || pos + c.bytes >= len_) return false;
  const Char next = At(pos + c.bytes);
  if (next.cls != Class::kDigit) return false;
  return (c.cls == Class::kPunct && (c.ascii[0] == '-' || c.ascii[0] == '.') && c.ascii[1] == 0);
}

void TextScanner::ScanWord(Token* out) {
  out->kind = TokenKind::kWord;
  int run = 0;  // letters since the last inner period
  while (pos_ < len_ && out->len + 2 < kMaxTokenText) {
    const Char c = At(pos_);
    if (c.cls == Class::kLetter) {
      for (int i = 0; i < 2 && c.ascii[i]; ++i) out->text[out->len++] = c.ascii[i];
      ++run;
      pos_ += c.bytes;
      continue;
    }
    const Char next = At(pos_ + c.bytes);
    if (c.cls == Class::kApostrophe && next.cls == Class::kLetter) {
      out->text[out->len++] = '\'';
      run = 0;
      pos_ += c.bytes;
      continue;
    }
    // Dotted initials: a single letter, a period, a single letter ("U.S.", "e.g.", "a.m.").
    if (c.cls == Class::kPunct && c.ascii[0] == '.' && c.ascii[1] == 0 && run == 1) {
      const size_t after = pos_ + 1 + next.bytes;
      const bool dotted_next =
          next.cls == Class::kLetter && after < len_ + 1 && (after >= len_ || At(after).cp == '.');
      const bool closes = out->len >= 3 && out->text[out->len - 2] == '.';
      if (dotted_next || closes) {
        out->text[out->len++] = '.';
        run = 0;
        pos_ += 1;
        if (!dotted_next) break;
        continue;
      }
    }
    break;
  }
  if (pos_ < len_ && At(pos_).cls == Class::kLetter) out->continued = true;
}

void TextScanner::ScanNumber(Token* out) {
  out->kind = TokenKind::kNumber;
  const Char first = At(pos_);
  if (first.cls == Class::kPunct) {  // a sign or a leading decimal point
    out->text[out->len++] = first.ascii[0];
    pos_ += first.bytes;
  }
  while (pos_ < len_ && out->len + 1 < kMaxTokenText) {
    const Char c = At(pos_);
    if (c.cls == Class::kDigit) {
      out->text[out->len++] = c.ascii[0];
      pos_ += 1;
      continue;
    }
    const bool separator =
        (c.cls == Class::kPunct && c.ascii[1] == 0 && strchr(",.:/-", c.ascii[0]));
    if (separator && pos_ + c.bytes < len_ && At(pos_ + c.bytes).cls == Class::kDigit) {
      out->text[out->len++] = c.ascii[0];
      pos_ += c.bytes;
      continue;
    }
    break;
  }
  // A digit run longer than a token: every piece, the last too, is marked (read digit by digit).
  const bool more = pos_ < len_ && At(pos_).cls == Class::kDigit;
  out->continued = more || long_number_;
  long_number_ = more;
}

bool TextScanner::Next(Token* out) {
  SkipRun();
  if (pos_ >= len_) return false;
  if (space_before_) StartRun();
  *out = Token();
  out->space_before = space_before_;
  out->begin = static_cast<uint32_t>(pos_);
  space_before_ = false;
  if (url_end_ > pos_) {
    out->kind = TokenKind::kUrl;
    const size_t n = url_end_ - pos_;
    out->len = static_cast<uint8_t>(n < kMaxTokenText ? n : kMaxTokenText);
    memcpy(out->text, line_ + pos_, out->len);
    pos_ = url_end_;
    url_end_ = 0;
    out->end = static_cast<uint32_t>(pos_);
    return true;
  }
  const Char c = At(pos_);
  if (c.cls == Class::kLetter) {
    ScanWord(out);
  } else if (NumberStartsAt(pos_, out->space_before)) {
    ScanNumber(out);
  } else if (c.cls == Class::kSymbol) {
    out->kind = TokenKind::kSymbol;
    out->len = static_cast<uint8_t>(strlen(c.utf8_symbol));
    memcpy(out->text, c.utf8_symbol, out->len);
    pos_ += c.bytes;
  } else {
    out->kind = TokenKind::kPunct;
    const char mark = c.cls == Class::kApostrophe ? '\'' : c.ascii[0];
    if (c.cls == Class::kPunct && c.ascii[1] == '.') {
      memcpy(out->text, "...", 3);
      out->len = 3;
      pos_ += c.bytes;
    } else {
      out->text[0] = mark;
      out->len = 1;
      const size_t start = pos_;
      pos_ += c.bytes;
      // Runs of the same mark are one token ("--", "...", "!!").
      while (pos_ < len_) {
        const Char more = At(pos_);
        if (more.cls != c.cls || more.ascii[0] != c.ascii[0] || more.ascii[1] != 0) break;
        pos_ += more.bytes;
        if (mark == '.' && out->len < 3) out->text[out->len++] = '.';
      }
      if (mark == '.' && out->len == 2) out->len = 1;
      if (mark == '-' && pos_ - start == c.bytes && start > 0 && pos_ < len_) {
        out->joiner = At(pos_).cls == Class::kLetter && !out->space_before &&
                      At(start - 1).cls == Class::kLetter;
      }
    }
  }
  out->end = static_cast<uint32_t>(pos_);
  return true;
}

}  // namespace text
}  // namespace edgenmt
