// Where the normalizer's words go (the phonemizer's phrase buffer, or a test's list).
#ifndef EDGENMT_FRONTEND_WORD_SINK_H_
#define EDGENMT_FRONTEND_WORD_SINK_H_

#include <stddef.h>
#include <stdint.h>

namespace edgenmt {
namespace text {

// Where a word came from, which decides how it is looked up and what JSON calls its origin.
enum class WordSource : uint8_t {
  kText,        // written in the text: user lexicon, lexicon, then the model
  kNormalizer,  // produced by a reading rule (numbers, abbreviations, symbols)
  kLetter,      // a letter spelled out: its letter name
};

class WordSink {
 public:
  // A group of words read from the tokens spanning line bytes [begin, end).
  // An item that gets no word and no break before the next BeginItem is dropped.
  virtual void BeginItem(uint32_t begin, uint32_t end) = 0;
  // The current item also covers the line up to `end` (tokens a rule consumed after it).
  virtual void ExtendItem(uint32_t end) = 0;
  // text: lowercase ASCII letters and ', n >= 1; copied before returning.
  virtual void Word(const char* text, size_t n, WordSource source) = 0;
  // A phrase break (punctuation kept in the output); mark: ASCII, NUL-terminated.
  virtual void Break(const char* mark, bool space_before) = 0;

 protected:
  ~WordSink() = default;
};

}  // namespace text
}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_WORD_SINK_H_
