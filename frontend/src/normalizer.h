// Reads a line's tokens aloud as words (docs/TEXT_NORMALIZATION.md): numbers, money, dates,
// times, units, abbreviations, symbols, initialisms and URLs become words; punctuation becomes
// phrase breaks. Table-driven, deterministic, no heap; a small window of tokens is all it keeps.
#ifndef EDGENMT_FRONTEND_NORMALIZER_H_
#define EDGENMT_FRONTEND_NORMALIZER_H_

#include <stddef.h>
#include <stdint.h>

#include "text_scanner.h"
#include "word_sink.h"

namespace edgenmt {
namespace text {

// What the normalizer may ask of the dictionary (the phonemizer answers from its lexicons and
// model).
class WordOracle {
 public:
  // An all-capital word (lowercased here): true when it is read letter by letter (the dictionary
  // does not list it, or lists it as its letters' names, like "fbi").
  virtual bool ReadsAsLetters(const char* lower, size_t n) = 0;
  // True when the dictionary lists the word (URL parts read as words).
  virtual bool Listed(const char* lower, size_t n) = 0;

 protected:
  ~WordOracle() = default;
};

class Normalizer {
 public:
  // line[0, len) stays valid during Run.
  Normalizer(const char* line, size_t len, WarnFunction warn, void* user, WordOracle* oracle,
             WordSink* sink);
  void Run();

 private:
  static constexpr int kWindow = 8;
  const Token* Peek(int k);  // null past the end of the line
  void Consume(int k);
  // Each reads the item at the window's start and returns the tokens it used (>= 1).
  int ReadPunct(const Token& t);
  int ReadSymbol(const Token& t);
  int ReadWord(const Token& t);
  int ReadNumber(const Token& t);
  int ReadMoney(int currency_index);
  void ReadUrl(const Token& t);
  void SpellLetters(const char* s, size_t n);
  void Say(const char* words);  // space-separated static words, as kNormalizer
  void SayPlain(const char* digits, size_t n, bool allow_year);  // a number without suffixes
  int ReadUnitAfter(int k, bool singular);  // a unit at window index k: tokens used (0: none)
  bool Attached(int k);                     // token k exists and follows k-1 without a space
  bool Spaced(int k);                       // token k exists and follows k-1 after a space

  TextScanner scanner_;
  const char* line_;
  size_t len_;
  WarnFunction warn_;
  void* user_;
  WordOracle* oracle_;
  WordSink* sink_;
  Token window_[kWindow];
  int start_ = 0;
  int count_ = 0;
  bool scanner_done_ = false;
  bool last_was_integer_ = false;  // "1 1/2": one and a half
};

}  // namespace text
}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_NORMALIZER_H_
