// libFuzzer target over the phonemizer's text path: any bytes as one line through the scanner
// (UTF-8 decoding, folding, URL runs), the normalizer (numbers, money, dates, units,
// abbreviations, initialisms) and the IPA writer, with a stand-in dictionary. It must never crash,
// hang or read out of bounds, and every word it emits must be lowercase letters and apostrophes
// (what the lexicon and the model accept). Seeds: tests/fuzz/corpus/phonemize_text/.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arpabet.h"
#include "arpabet_ipa.h"
#include "normalizer.h"

namespace {

using namespace edgenmt::text;

void Check(bool ok) {
  if (!ok) abort();
}

class Sink final : public WordSink, public WordOracle {
 public:
  explicit Sink(size_t line_len) : line_len_(line_len) {}
  void BeginItem(uint32_t begin, uint32_t end) override { Check(begin <= end && end <= line_len_); }
  void ExtendItem(uint32_t end) override { Check(end <= line_len_); }
  void Word(const char* text, size_t n, WordSource) override {
    Check(n >= 1);
    for (size_t i = 0; i < n; ++i) {
      Check((text[i] >= 'a' && text[i] <= 'z') || text[i] == '\'');
    }
    ++words;
  }
  void Break(const char* mark, bool) override { Check(strlen(mark) >= 1 && strlen(mark) <= 3); }
  bool ReadsAsLetters(const char* lower, size_t n) override {
    return n % 2 == 0 && lower[0] != 'n';
  }
  bool Listed(const char* lower, size_t n) override { return n > 3 && lower[0] < 'm'; }
  size_t words = 0;

 private:
  size_t line_len_;
};

void IgnoreWarning(void*, const char* message) { Check(message != nullptr && message[0] != 0); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* line = reinterpret_cast<const char*>(data);
  Sink sink(size);
  Normalizer normalizer(line, size, &IgnoreWarning, nullptr, &sink, &sink);
  normalizer.Run();
  // Any bytes as phoneme codes: only valid codes reach the IPA writer (as in the phonemizer).
  PhoneCode phones[64];
  int count = 0;
  for (size_t i = 0; i < size && count < 64; ++i) {
    const PhoneCode c = data[i];
    if (PhoneBase(c) < kArpabetBases &&
        (PhoneStress(c) == kNoStress || ArpabetIsVowel(PhoneBase(c)))) {
      phones[count++] = c;
    }
  }
  char out[512];
  const size_t need = WriteIpaWord(phones, count, out, sizeof out);
  Check(need <= sizeof out);
  char small[3];
  WriteIpaWord(phones, count, small, sizeof small);
  return 0;
}
