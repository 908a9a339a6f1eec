// Splits one line of UTF-8 text into tokens (docs/TEXT_NORMALIZATION.md "Lines, sentences,
// tokens"): words, numbers, punctuation, symbols and URL-like runs, each with its byte span in
// the line. Letters with diacritics are folded to ASCII here; bytes that are not valid UTF-8,
// control characters and characters without a reading are skipped with a warning (one per run
// of them). Linear in the line's length, no memory beyond the Token it fills.
#ifndef EDGENMT_FRONTEND_TEXT_SCANNER_H_
#define EDGENMT_FRONTEND_TEXT_SCANNER_H_

#include <stddef.h>
#include <stdint.h>

namespace edgenmt {
namespace text {

enum class TokenKind : uint8_t { kWord, kNumber, kPunct, kSymbol, kUrl };

// Longest token text; longer letter or digit runs continue in the next token (continued).
constexpr int kMaxTokenText = 64;

struct Token {
  TokenKind kind = TokenKind::kWord;
  bool space_before = true;  // whitespace or the line start right before it
  bool joiner = false;       // kPunct "-" between two letters ("well-known"): no break
  bool continued = false;    // a piece of a word or number run longer than kMaxTokenText
  uint32_t begin = 0;        // byte span [begin, end) in the line
  uint32_t end = 0;
  uint8_t len = 0;
  // kWord: ASCII letters (case kept) with inner ' and the periods of dotted initials ("U.S.");
  // kNumber: an optional '-', digits and the separators , . : / - between digits;
  // kPunct: . , ; : ! ? ( ) [ ] { } " ' - ... ; kSymbol: its UTF-8 ("$", "£", "°");
  // kUrl: the run's first bytes (read the span for all of it). Not NUL-terminated.
  char text[kMaxTokenText];

  bool Is(const char* s) const;          // text equals s exactly
  bool IsCaseless(const char* s) const;  // ASCII case-insensitive
};

using WarnFunction = void (*)(void* user, const char* message);

class TextScanner {
 public:
  // line[0, len) must stay valid while scanning; warn may be null.
  TextScanner(const char* line, size_t len, WarnFunction warn, void* user);
  // Fills *out with the next token; false at the end of the line.
  bool Next(Token* out);

 private:
  enum class Class : uint8_t { kSpace, kLetter, kDigit, kApostrophe, kPunct, kSymbol, kSkip };
  struct Char {
    Class cls;
    uint32_t cp;              // code point (0xFFFFFFFF: an invalid byte)
    uint8_t bytes;            // its UTF-8 length in the line
    char ascii[3];            // kLetter: 1-2 folded letters; kPunct: the canonical mark
    const char* utf8_symbol;  // kSymbol: canonical spelling
  };
  Char At(size_t pos) const;
  void SkipRun();   // spaces and characters without a reading; warns about the latter
  void StartRun();  // at a run's first character: finds the run's end and URL extent
  void ScanWord(Token* out);
  void ScanNumber(Token* out);
  bool NumberStartsAt(size_t pos, bool space_before) const;

  const char* line_;
  size_t len_;
  size_t pos_ = 0;
  bool space_before_ = true;
  size_t url_end_ = 0;        // > pos_: a URL-like run ends there
  bool long_number_ = false;  // the last number token stopped inside a digit run
  WarnFunction warn_;
  void* user_;
};

}  // namespace text
}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_TEXT_SCANNER_H_
