// Phonemizer::LoadUserLexicon: CMUdict-format text parsed into the arena's lexicon table.
#include <string.h>

#include "bounded_text.h"
#include "edgenmt/phonemizer.h"
#include "phonemizer_state.h"
#include "user_lexicon.h"

namespace edgenmt {
namespace {

using text::BoundedText;
using text::LexiconBuilder;
using text::PhoneCode;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Checks one line; on success fills word/phones. Returns the reason of a bad line, or null.
const char* ParseLine(const char* line, size_t n, char* word, size_t* word_len,
                      text::PhoneCode* phones, int* count) {
  size_t i = 0;
  while (i < n && IsSpace(line[i])) ++i;
  const size_t word_begin = i;
  while (i < n && !IsSpace(line[i])) ++i;
  size_t wn = i - word_begin;
  const char* w = line + word_begin;
  // WORD(2): an alternate of WORD.
  if (wn >= 3 && w[wn - 1] == ')') {
    size_t open = wn - 1;
    while (open > 0 && w[open - 1] >= '0' && w[open - 1] <= '9') --open;
    if (open > 0 && w[open - 1] == '(' && open < wn - 1) wn = open - 1;
  }
  if (wn == 0) return "no word";
  if (wn >= static_cast<size_t>(kMaxWordChars)) return "word longer than 63 bytes";
  for (size_t k = 0; k < wn; ++k) {
    char c = w[k];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (!((c >= 'a' && c <= 'z') || c == '\'')) {
      return "the word may hold only letters and apostrophes (other words are never looked up)";
    }
    word[k] = c;
  }
  *word_len = wn;
  int m = 0;
  while (i < n) {
    while (i < n && IsSpace(line[i])) ++i;
    if (i >= n) break;
    const size_t b = i;
    while (i < n && !IsSpace(line[i])) ++i;
    if (m == kMaxWordPhones) return "more than 96 phonemes";
    if (!text::ParseArpabetPhone(line + b, i - b, &phones[m])) {
      return "unknown phoneme (CMUdict's 39 ARPAbet phonemes, stress digits 0-2 on vowels)";
    }
    ++m;
  }
  if (m == 0) return "no phonemes";
  *count = m;
  return nullptr;
}

}  // namespace

namespace text {

UserLexiconResult ParseUserLexicon(const char* text, size_t size, uint32_t max_words,
                                   LexiconBuilder* builder, LexiconLineErrorFunction on_error,
                                   void* user, char* detail, size_t detail_size) {
  uint32_t line_number = 0, bad = 0;
  size_t pos = 0;
  while (pos < size) {
    const char* line = text + pos;
    const char* newline = static_cast<const char*>(memchr(line, '\n', size - pos));
    const size_t n = newline ? static_cast<size_t>(newline - line) : size - pos;
    pos += n + 1;
    ++line_number;
    size_t first = 0;
    while (first < n && IsSpace(line[first])) ++first;
    if (first == n || (n - first >= 3 && memcmp(line + first, ";;;", 3) == 0) ||
        line[first] == '#') {
      continue;
    }
    char word[kMaxWordChars];
    size_t word_len = 0;
    PhoneCode phones[kMaxWordPhones];
    int count = 0;
    const char* why = ParseLine(line, n, word, &word_len, phones, &count);
    if (why == nullptr) {
      if (builder->num_words() >= max_words && !builder->table().Find(word, word_len).found()) {
        BoundedText(detail, detail_size)
            .Append("user lexicon line ")
            .Number(line_number)
            .Append(": more than ")
            .Number(max_words)
            .Append(" words (the limit)");
        return UserLexiconResult::kLimitExceeded;
      }
      switch (builder->Add(word, word_len, phones, count)) {
        case LexiconBuilder::Result::kAdded: break;
        case LexiconBuilder::Result::kAlternateNotAfterWord:
          why = "an alternate pronunciation must follow its word's other lines";
          break;
        case LexiconBuilder::Result::kTooLong:
          why = "too many pronunciations for one word (255)";
          break;
        case LexiconBuilder::Result::kPoolFull:
        case LexiconBuilder::Result::kTableFull:
          BoundedText(detail, detail_size)
              .Append("user lexicon line ")
              .Number(line_number)
              .Append(": the arena's user lexicon space is full");
          return UserLexiconResult::kLimitExceeded;
      }
    }
    if (why != nullptr) {
      if (bad == 0) {
        BoundedText(detail, detail_size)
            .Append("user lexicon line ")
            .Number(line_number)
            .Append(": ")
            .Append(why);
      }
      ++bad;
      if (on_error) on_error(user, line_number, why);
    }
  }
  return bad > 0 ? UserLexiconResult::kBadLines : UserLexiconResult::kOk;
}

}  // namespace text

Status Phonemizer::LoadUserLexicon(const char* text, size_t size, LexiconLineErrorFunction on_error,
                                   void* user) {
  if (!initialized_) return Fail(Status::kNotInitialized, "Init has not succeeded");
  if (text == nullptr && size > 0) return Fail(Status::kInvalidArgument, "null text");
  if (state_->user_num_slots == 0) {
    return Fail(Status::kLimitExceeded,
                "no user lexicon space: set PhonemizerLimits.user_lexicon_max_* before Init");
  }
  if (size > state_->user_max_bytes) {
    text::BoundedText(error_detail_, sizeof error_detail_)
        .Append("user lexicon is ")
        .Number(static_cast<int64_t>(size))
        .Append(" bytes; the limits allow ")
        .Number(state_->user_max_bytes);
    return Status::kLimitExceeded;
  }
  state_->user_loaded = false;
  state_->user.Init(state_->user_slots, state_->user_num_slots, state_->user_pool,
                    state_->user_max_bytes);
  switch (text::ParseUserLexicon(text, size, state_->user_max_words, &state_->user, on_error, user,
                                 error_detail_, sizeof error_detail_)) {
    case text::UserLexiconResult::kOk: break;
    case text::UserLexiconResult::kBadLines: return Status::kUserLexiconInvalid;
    case text::UserLexiconResult::kLimitExceeded: return Status::kLimitExceeded;
  }
  state_->user_loaded = true;
  return Status::kOk;
}

}  // namespace edgenmt
