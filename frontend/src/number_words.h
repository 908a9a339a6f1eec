// Numbers as English words (docs/TEXT_NORMALIZATION.md "Numbers"): cardinals below 10^15,
// ordinals, years, decades and digit strings, written to a WordSink as kNormalizer words.
#ifndef EDGENMT_FRONTEND_NUMBER_WORDS_H_
#define EDGENMT_FRONTEND_NUMBER_WORDS_H_

#include <stddef.h>
#include <stdint.h>

#include "word_sink.h"

namespace edgenmt {
namespace text {

constexpr uint64_t kMaxCardinal = 999999999999999ull;  // 10^15 - 1

enum class NumberForm : uint8_t {
  kCardinal,       // twenty one
  kOrdinal,        // twenty first
  kPlural,         // twenty ones / nineties / hundreds (decades)
  kOrdinalPlural,  // thirds / eighths / thirty seconds (fractions' denominators)
};

// n <= kMaxCardinal.
void SayNumber(uint64_t n, NumberForm form, WordSink* sink);
// 1000..2099 the way years are read: ten sixty six, nineteen oh five, two thousand five,
// twenty twenty four. form kPlural gives the decade (nineteen nineties).
void SayYear(uint32_t year, NumberForm form, WordSink* sink);
// Each digit of digits[0, n) (other bytes are ignored): zero one two; `oh` reads 0 as "oh".
void SayDigits(const char* digits, size_t n, bool oh, WordSink* sink);
// A two-digit group after a number (times, years): 5 -> "oh five", 0 -> "hundred"/"o'clock"
// is the caller's; here 1..99 only: "oh" + digit below 10.
void SayTwoDigitGroup(uint32_t n, WordSink* sink);

}  // namespace text
}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_NUMBER_WORDS_H_
