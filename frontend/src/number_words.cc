#include "number_words.h"

#include <string.h>

namespace edgenmt {
namespace text {
namespace {

constexpr const char* kOnes[20] = {"zero",    "one",     "two",       "three",    "four",
                                   "five",    "six",     "seven",     "eight",    "nine",
                                   "ten",     "eleven",  "twelve",    "thirteen", "fourteen",
                                   "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
constexpr const char* kTens[10] = {"",      "",      "twenty",  "thirty", "forty",
                                   "fifty", "sixty", "seventy", "eighty", "ninety"};
constexpr const char* kScales[5] = {"", "thousand", "million", "billion", "trillion"};

// Collects the words of one number so the last can take an ordinal or plural ending.
class Words {
 public:
  void Add(const char* w) {
    if (count_ < kMax) words_[count_++] = w;
  }
  void Emit(NumberForm form, WordSink* sink) const {
    for (int i = 0; i < count_; ++i) {
      const char* w = words_[i];
      if (i + 1 < count_ || form == NumberForm::kCardinal) {
        sink->Word(w, strlen(w), WordSource::kNormalizer);
        continue;
      }
      char buf[24];
      const size_t n = Inflect(w, form, buf);
      sink->Word(buf, n, WordSource::kNormalizer);
    }
  }

 private:
  static size_t Inflect(const char* w, NumberForm form, char* buf) {
    if (form == NumberForm::kOrdinalPlural) {
      const size_t m = Inflect(w, NumberForm::kOrdinal, buf);
      buf[m] = 's';
      return m + 1;
    }
    struct Irregular {
      const char* word;
      const char* ordinal;
    };
    static const Irregular kIrregular[] = {
        {"one", "first"},    {"two", "second"}, {"three", "third"},   {"five", "fifth"},
        {"eight", "eighth"}, {"nine", "ninth"}, {"twelve", "twelfth"}};
    const size_t n = strlen(w);
    if (form == NumberForm::kOrdinal) {
      for (const Irregular& r : kIrregular) {
        if (strcmp(w, r.word) == 0) {
          strcpy(buf, r.ordinal);
          return strlen(buf);
        }
      }
    } else if (strcmp(w, "six") == 0) {
      strcpy(buf, "sixes");
      return 5;
    }
    memcpy(buf, w, n);
    size_t m = n;
    if (w[n - 1] == 'y') {
      memcpy(buf + n - 1, form == NumberForm::kOrdinal ? "ieth" : "ies", 4);
      m = n - 1 + (form == NumberForm::kOrdinal ? 4 : 3);
    } else {
      buf[m++] = form == NumberForm::kOrdinal ? 't' : 's';
      if (form == NumberForm::kOrdinal) buf[m++] = 'h';
    }
    return m;
  }

  static constexpr int kMax = 40;
  const char* words_[kMax];
  int count_ = 0;
};

void BelowThousand(uint32_t n, Words* out) {
  if (n >= 100) {
    out->Add(kOnes[n / 100]);
    out->Add("hundred");
    n %= 100;
    if (n == 0) return;
  }
  if (n < 20) {
    out->Add(kOnes[n]);
    return;
  }
  out->Add(kTens[n / 10]);
  if (n % 10) out->Add(kOnes[n % 10]);
}

void Cardinal(uint64_t n, Words* out) {
  if (n == 0) {
    out->Add("zero");
    return;
  }
  uint32_t groups[5] = {0, 0, 0, 0, 0};
  for (int i = 0; i < 5 && n; ++i, n /= 1000) groups[i] = static_cast<uint32_t>(n % 1000);
  for (int i = 4; i >= 0; --i) {
    if (groups[i] == 0) continue;
    BelowThousand(groups[i], out);
    if (i > 0) out->Add(kScales[i]);
  }
}

}  // namespace

void SayNumber(uint64_t n, NumberForm form, WordSink* sink) {
  Words words;
  Cardinal(n > kMaxCardinal ? kMaxCardinal : n, &words);
  words.Emit(form, sink);
}

void SayYear(uint32_t year, NumberForm form, WordSink* sink) {
  Words words;
  const uint32_t high = year / 100, low = year % 100;
  if (year >= 2000 && year <= 2009) {
    Cardinal(year, &words);  // two thousand five
  } else if (low == 0) {
    if (year % 1000 == 0) {
      Cardinal(year, &words);  // one thousand
    } else {
      BelowThousand(high, &words);  // nineteen hundred
      words.Add("hundred");
    }
  } else {
    BelowThousand(high, &words);
    if (low < 10) words.Add("oh");  // nineteen oh five
    BelowThousand(low, &words);
  }
  words.Emit(form, sink);
}

void SayDigits(const char* digits, size_t n, bool oh, WordSink* sink) {
  for (size_t i = 0; i < n; ++i) {
    const char c = digits[i];
    if (c < '0' || c > '9') continue;
    const char* w = (c == '0' && oh) ? "oh" : kOnes[c - '0'];
    sink->Word(w, strlen(w), WordSource::kNormalizer);
  }
}

void SayTwoDigitGroup(uint32_t n, WordSink* sink) {
  if (n < 10) sink->Word("oh", 2, WordSource::kNormalizer);
  SayNumber(n, NumberForm::kCardinal, sink);
}

}  // namespace text
}  // namespace edgenmt
