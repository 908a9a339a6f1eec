// Phonemizer::Phonemize: the normalizer's words collected a phrase at a time, given phonemes
// (user lexicon, lexicon with heteronym rules, model) and written in the chosen format.
#include <string.h>

#include "arpabet_ipa.h"
#include "bounded_text.h"
#include "edgenmt/phonemizer.h"
#include "heteronym_rules.h"
#include "normalizer.h"
#include "phonemizer_state.h"
#include "reading_tables.h"

namespace edgenmt {
namespace {

using text::PhoneCode;

// Phoneme text without stress digits, for comparing a dictionary entry with spelled letters.
bool SameWithoutStress(const PhoneCode* a, int na, const PhoneCode* b, int nb) {
  if (na != nb) return false;
  for (int i = 0; i < na; ++i) {
    if (text::PhoneBase(a[i]) != text::PhoneBase(b[i])) return false;
  }
  return true;
}

class PhraseReader final : public text::WordSink, public text::WordOracle {
 public:
  PhraseReader(Phonemizer::State* state, Translator* translator, PhonemeFormat format,
               const PhonemizerOutput& output, const char* line)
      : state_(state), lookup_(state, translator), format_(format), output_(output), line_(line) {}

  void BeginLine() {
    if (format_ == PhonemeFormat::kJson) Write("{\"tokens\":[");
  }
  void EndLine() {
    Flush();
    if (format_ == PhonemeFormat::kJson) Write("]}");
    Write("\n");
  }

  // WordSink
  void BeginItem(uint32_t begin, uint32_t end) override {
    if (num_items_ > 0) {
      PhraseItem& last = state_->items[num_items_ - 1];
      if (last.num_words == 0 && last.mark[0] == '\0') {  // nothing was read from it
        last.begin = begin;
        last.end = end;
        return;
      }
    }
    if (num_items_ == kPhraseItems) Flush();
    PhraseItem& item = state_->items[num_items_++];
    item.begin = begin;
    item.end = end;
    item.first_word = static_cast<uint16_t>(num_words_);
    item.num_words = 0;
    item.mark[0] = '\0';
    item.space_before = true;
  }
  void ExtendItem(uint32_t end) override {
    if (num_items_ > 0 && state_->items[num_items_ - 1].end < end) {
      state_->items[num_items_ - 1].end = end;
    }
  }
  void Word(const char* text, size_t n, text::WordSource source) override {
    if (num_items_ == 0) BeginItem(0, 0);
    if (num_words_ == kPhraseWords) {
      // Full: write what is here; the current item goes on in the next phrase.
      const PhraseItem current = state_->items[num_items_ - 1];
      Flush();
      state_->items[0] = current;
      state_->items[0].first_word = 0;
      state_->items[0].num_words = 0;
      num_items_ = 1;
    }
    PhraseWord& word = state_->words[num_words_++];
    const size_t len = n < static_cast<size_t>(kMaxWordChars) ? n : kMaxWordChars;
    memcpy(word.text, text, len);
    word.len = static_cast<uint8_t>(len);
    word.source = source;
    word.num_phones = 0;
    word.item = static_cast<uint16_t>(num_items_ - 1);
    state_->items[num_items_ - 1].num_words++;
  }
  void Break(const char* mark, bool space_before) override {
    if (num_items_ == 0) BeginItem(0, 0);
    PhraseItem& item = state_->items[num_items_ - 1];
    size_t n = strlen(mark);
    if (n > 3) n = 3;
    memcpy(item.mark, mark, n);
    item.mark[n] = '\0';
    item.space_before = space_before;
    Flush();
  }

  // WordOracle
  bool ReadsAsLetters(const char* lower, size_t n) override {
    // A word the lexicon lacks is not a dictionary word, unless the file keeps only the model's
    // misses: then the model says the other dictionary words as listed.
    const bool ask_model = !state_->lexicon_complete && state_->lexicon.num_buckets != 0;
    WordOrigin origin;
    PhoneCode phones[kMaxWordPhones];
    const char* error = "";
    const int count =
        lookup_.FirstPronunciation(lower, n, ask_model, phones, kMaxWordPhones, &origin, &error);
    if (count < 0) return true;  // not listed (or the model failed): spelled
    PhoneCode letters[kMaxWordPhones];
    int num_letters = 0;
    for (size_t i = 0; i < n && num_letters + 8 <= kMaxWordPhones; ++i) {
      num_letters += text::LetterNamePhones(lower[i], letters + num_letters);
    }
    return SameWithoutStress(phones, count, letters, num_letters);
  }
  bool Listed(const char* lower, size_t n) override {
    WordOrigin origin;
    return lookup_.Find(lower, n, &origin).found();
  }

  static void Warn(void* self, const char* message) {
    const PhraseReader* reader = static_cast<PhraseReader*>(self);
    if (reader->output_.warn) reader->output_.warn(reader->output_.user, message);
  }

 private:
  void Write(const char* s) { Write(s, strlen(s)); }
  void Write(const char* s, size_t n) {
    if (n) output_.write(output_.user, s, n);
  }
  void WriteJsonString(const char* s, size_t n);
  void Resolve(int i);
  void WriteWord(const PhraseWord& word);
  void WriteItem(const PhraseItem& item);
  void Flush();

  Phonemizer::State* state_;
  WordLookup lookup_;
  PhonemeFormat format_;
  PhonemizerOutput output_;
  const char* line_;
  int num_words_ = 0;
  int num_items_ = 0;
  enum class Last { kNone, kWord, kBreak, kOpening } last_ = Last::kNone;
  bool json_first_ = true;
};

void PhraseReader::Resolve(int i) {
  PhraseWord& word = state_->words[i];
  word.origin =
      word.source == text::WordSource::kText ? WordOrigin::kModel : WordOrigin::kNormalizer;
  if (word.source == text::WordSource::kLetter) {
    word.num_phones = static_cast<uint8_t>(text::LetterNamePhones(word.text[0], word.phones));
    return;
  }
  WordOrigin found = WordOrigin::kLexicon;
  const text::LexiconEntry entry = lookup_.Find(word.text, word.len, &found);
  if (entry.found()) {
    int choice = 0;
    text::WordText self{word.text, word.len}, previous{nullptr, 0}, next{nullptr, 0};
    if (i > 0) previous = {state_->words[i - 1].text, state_->words[i - 1].len};
    if (i + 1 < num_words_) next = {state_->words[i + 1].text, state_->words[i + 1].len};
    if (const char* wanted = text::HeteronymPronunciation(self, previous, next)) {
      for (int k = 0; k < entry.count(); ++k) {
        char buf[3 * kMaxWordPhones + 1];
        const text::PronunciationView p = entry.At(k);
        const size_t n = text::FormatArpabet(p.phones, p.count, true, buf, sizeof buf - 1);
        if (n == strlen(wanted) && memcmp(buf, wanted, n) == 0) {
          choice = k;
          break;
        }
      }
    }
    const text::PronunciationView p = entry.At(choice);
    const int count = p.count < kMaxWordPhones ? p.count : kMaxWordPhones;
    memcpy(word.phones, p.phones, static_cast<size_t>(count));
    word.num_phones = static_cast<uint8_t>(count);
    if (word.source == text::WordSource::kText) word.origin = found;
    return;
  }
  const char* error = "";
  const int count = lookup_.FromModel(word.text, word.len, word.phones, kMaxWordPhones, &error);
  if (count < 0) {
    char message[200];
    text::BoundedText(message, sizeof message)
        .Append("no phonemes for '")
        .Append(word.text, word.len)
        .Append("': ")
        .Append(error);
    Warn(this, message);
    word.num_phones = 0;
    return;
  }
  word.num_phones = static_cast<uint8_t>(count);
}

void PhraseReader::WriteJsonString(const char* s, size_t n) {
  static const char kHex[] = "0123456789abcdef";
  Write("\"");
  size_t i = 0;
  while (i < n) {
    const uint8_t c = static_cast<uint8_t>(s[i]);
    if (c == '"' || c == '\\') {
      const char esc[2] = {'\\', static_cast<char>(c)};
      Write(esc, 2);
      ++i;
    } else if (c < 0x20 || c == 0x7F) {
      const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
      Write(esc, 6);
      ++i;
    } else if (c < 0x80) {
      Write(s + i, 1);
      ++i;
    } else {
      // Copy a well-formed sequence; an invalid byte becomes U+FFFD.
      size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
      bool ok = len >= 2 && i + len <= n;
      for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<uint8_t>(s[i + k]) & 0xC0) == 0x80;
      if (ok) {
        Write(s + i, len);
        i += len;
      } else {
        Write("\\ufffd");
        ++i;
      }
    }
  }
  Write("\"");
}

void PhraseReader::WriteWord(const PhraseWord& word) {
  char buf[8 * kMaxWordPhones];
  if (format_ == PhonemeFormat::kArpabet) {
    if (last_ == Last::kWord)
      Write(" | ");
    else if (last_ != Last::kNone)
      Write(" ");
    Write(buf, text::FormatArpabet(word.phones, word.num_phones, true, buf, sizeof buf));
  } else {
    if (last_ == Last::kWord || last_ == Last::kBreak) Write(" ");
    const size_t n = text::WriteIpaWord(word.phones, word.num_phones, buf, sizeof buf);
    Write(buf, n < sizeof buf ? n : sizeof buf);
  }
  last_ = Last::kWord;
}

void PhraseReader::WriteItem(const PhraseItem& item) {
  if (format_ == PhonemeFormat::kJson) {
    if (!json_first_) Write(",");
    json_first_ = false;
    Write("{\"text\":");
    WriteJsonString(line_ + item.begin, item.end - item.begin);
    char span[48];
    text::BoundedText(span, sizeof span)
        .Append(",\"span\":[")
        .Number(item.begin)
        .Append(",")
        .Number(item.end)
        .Append("]");
    Write(span);
    if (item.num_words > 0) {
      Write(",\"words\":[");
      for (int w = 0; w < item.num_words; ++w) {
        const PhraseWord& word = state_->words[item.first_word + w];
        char buf[8 * kMaxWordPhones];
        if (w > 0) Write(",");
        Write("{\"word\":");
        WriteJsonString(word.text, word.len);
        Write(",\"origin\":\"");
        Write(WordOriginName(word.origin));
        Write("\",\"phonemes\":");
        WriteJsonString(buf,
                        text::FormatArpabet(word.phones, word.num_phones, true, buf, sizeof buf));
        Write(",\"ipa\":");
        const size_t n = text::WriteIpaWord(word.phones, word.num_phones, buf, sizeof buf);
        WriteJsonString(buf, n < sizeof buf ? n : sizeof buf);
        Write("}");
      }
      Write("]");
    }
    if (item.mark[0]) {
      Write(",\"break\":");
      WriteJsonString(item.mark, strlen(item.mark));
    }
    Write("}");
    return;
  }
  for (int w = 0; w < item.num_words; ++w) WriteWord(state_->words[item.first_word + w]);
  if (item.mark[0] == '\0') return;
  const bool opening = item.mark[0] == '(' || item.mark[0] == '[' || item.mark[0] == '{' ||
                       (item.mark[0] == '"' && item.space_before);
  if (format_ == PhonemeFormat::kArpabet) {
    if (last_ != Last::kNone) Write(" ");
    Write(item.mark);
    last_ = Last::kBreak;
    return;
  }
  // Opening marks and free-standing dashes stand apart; closing marks follow their word.
  if ((opening || (item.mark[0] == '-' && item.space_before)) && last_ != Last::kNone) {
    Write(" ");
  } else if (!opening && item.space_before && last_ == Last::kBreak) {
    Write(" ");
  }
  Write(item.mark);
  last_ = opening ? Last::kOpening : Last::kBreak;
}

void PhraseReader::Flush() {
  for (int i = 0; i < num_words_; ++i) Resolve(i);
  for (int i = 0; i < num_items_; ++i) {
    const PhraseItem& item = state_->items[i];
    if (item.num_words == 0 && item.mark[0] == '\0') continue;
    WriteItem(item);
  }
  num_words_ = 0;
  num_items_ = 0;
}

}  // namespace

Status Phonemizer::Phonemize(const char* utf8, size_t len, PhonemeFormat format,
                             const PhonemizerOutput& output) {
  if (!initialized_) return Fail(Status::kNotInitialized, "Init has not succeeded");
  if (output.write == nullptr || (utf8 == nullptr && len > 0) ||
      static_cast<uint8_t>(format) > static_cast<uint8_t>(PhonemeFormat::kJson)) {
    return Fail(Status::kInvalidArgument, "null write callback or text, or unknown format");
  }
  if (len > 0xFFFFFFFFu) return Fail(Status::kInvalidArgument, "line longer than 4 GiB");
  PhraseReader reader(state_, &translator_, format, output, utf8 ? utf8 : "");
  text::Normalizer normalizer(utf8 ? utf8 : "", len, &PhraseReader::Warn, &reader, &reader,
                              &reader);
  reader.BeginLine();
  normalizer.Run();
  reader.EndLine();
  return Status::kOk;
}

}  // namespace edgenmt
