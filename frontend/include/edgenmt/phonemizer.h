// English text in, phonemes out: the speech front end over an edgenmt G2P model.
//
//   Phonemizer phonemizer;                        // no heap; a view over the file + the arena
//   PhonemizerLimits limits;                      // what the arena is sized for
//   size_t bytes = 0;
//   Phonemizer::RequiredArenaBytes(file, file_size, limits, &bytes);   // exact
//   alignas(16) static uint8_t arena[kBytes];
//   phonemizer.Init(file, file_size, limits, arena, sizeof arena);
//   PhonemizerOutput out{WriteBytes, PrintWarning, &context};
//   phonemizer.Phonemize("Dr. Smith paid $3.50.", 21, PhonemeFormat::kIpa, out);
//
// A line is split into tokens, read aloud by the rules of docs/TEXT_NORMALIZATION.md (numbers,
// money, dates, abbreviations...), and each word is looked up: the user lexicon, then the
// lexicon inside the file (CMUdict with stress), then the file's model for the rest. Output is
// streamed through PhonemizerOutput::write while the line is read, so a line of any length needs
// no more memory than a short one. docs/PHONEMIZER.md describes the formats.
//
// Memory: the file (a phonemizer .enmt: schema/phonemizer.fbs) is read in place and never copied;
// it must start at a 64-byte boundary (flash, mmap) and outlive the Phonemizer. Init takes every
// buffer it needs from the caller's arena (16-byte aligned): the model's session, the phrase
// being read, and the user lexicon's table when limits allow one; nothing is allocated after
// (or during) Init. One Phonemizer is not thread-safe; separate ones over the same file may run
// concurrently.
//
// Units: sizes in bytes; spans are byte offsets into the input line.
#ifndef EDGENMT_PHONEMIZER_H_
#define EDGENMT_PHONEMIZER_H_

#include <stddef.h>
#include <stdint.h>

#include "edgenmt/kernel_backend.h"
#include "edgenmt/model.h"
#include "edgenmt/status.h"
#include "edgenmt/translator.h"

namespace edgenmt {

constexpr uint32_t kPhonemizerFormatVersion = 2;

enum class PhonemeFormat : uint8_t {
  kArpabet = 0,  // "HH AH0 L OW1 | W ER1 L D ." : words split by " | ", breaks as their mark
  kIpa = 1,      // "həlˈoʊ wˈɜːld." : eSpeak NG's en-us symbols and stress marks
  kJson = 2,     // one object a line: each token's span, words, origins and phonemes
};

struct PhonemizerLimits {
  // false: only the user lexicon and the model (held-out evaluation, "--no-lexicon").
  bool use_lexicon = true;
  // The user lexicon the arena is sized for (LoadUserLexicon): at most this many words and this
  // many bytes of CMUdict-format text. 0 and 0: none.
  uint32_t user_lexicon_max_words = 0;
  uint32_t user_lexicon_max_bytes = 0;
  KernelBackend backend = DefaultKernelBackend();
};

// Where Phonemize writes. write: output bytes (UTF-8), called many times a line, the last call
// of a line ending with '\n'. warn: a NUL-terminated message about a skipped character or a
// truncated word (may be null). Both are valid only during the call.
struct PhonemizerOutput {
  void (*write)(void* user, const char* bytes, size_t n) = nullptr;
  void (*warn)(void* user, const char* message) = nullptr;
  void* user = nullptr;
};

// LoadUserLexicon's report of a bad line (1-based line number, a NUL-terminated reason).
using LexiconLineErrorFunction = void (*)(void* user, uint32_t line, const char* message);

// Where a word's phonemes came from (JSON "origin").
enum class WordOrigin : uint8_t {
  kLexicon = 0,  // the file's dictionary
  kUserLexicon = 1,
  kNormalizer = 2,  // a word a reading rule produced, or a letter's name
  kModel = 3,
};
const char* WordOriginName(WordOrigin origin);  // "lexicon", "user_lexicon", ...

class Phonemizer {
 public:
  Phonemizer() = default;
  Phonemizer(const Phonemizer&) = delete;
  Phonemizer& operator=(const Phonemizer&) = delete;

  // Exact arena bytes Init needs for this file and these limits. Errors as Init.
  static Status RequiredArenaBytes(const void* file, size_t size, const PhonemizerLimits& limits,
                                   size_t* out_bytes, char* detail = nullptr,
                                   size_t detail_size = 0);

  // Verifies the file (FlatBuffers structure, identifier "ENPH", format version, the nested
  // model through Model::Load, a target vocabulary of ARPAbet phonemes, every lexicon entry and
  // bucket) and plans the arena. Errors: kInvalidArgument (null pointers, misaligned file or
  // arena), kModelMalformed (not a phonemizer file, a bad lexicon), kModelVersionUnsupported,
  // kModelVocabularyInvalid (targets that are not phonemes), the model's own errors,
  // kArenaTooSmall (required_arena_bytes() then says how much).
  Status Init(const void* file, size_t size, const PhonemizerLimits& limits, void* arena,
              size_t arena_bytes);

  // Parses a user lexicon in CMUdict's text format ("WORD  PH ON1 ES", alternates "WORD(1)",
  // ";;;" comments, words case-insensitive) into the arena space the limits reserved; its words
  // override the file's lexicon. Every bad line (unknown phoneme, no phonemes, a word too long,
  // an alternate away from its word) is reported through on_error (may be null) and the call
  // then returns kUserLexiconInvalid with the first one in error_detail(); more words or bytes
  // than the limits give kLimitExceeded. Replaces a previous user lexicon; the text need not
  // outlive the call.
  Status LoadUserLexicon(const char* text, size_t size, LexiconLineErrorFunction on_error,
                         void* user);

  // Reads one line (UTF-8, without its '\n'; may be empty or any length) and writes its
  // phonemes, ending with '\n'. Bad text is never an error: unreadable characters are skipped
  // with a warning. Errors: kNotInitialized, kInvalidArgument (null write, null text with
  // len > 0, unknown format); a model failure on a word is reported as a warning and that word
  // is left without phonemes.
  Status Phonemize(const char* utf8, size_t len, PhonemeFormat format,
                   const PhonemizerOutput& output);

  // Phonemes of one word as the pipeline gives them (user lexicon, lexicon, model; no reading
  // rules, no heteronym context): ARPAbet text written to out (NUL-terminated, truncated to
  // out_size). `word`: letters and apostrophes, any case.
  Status PhonemizeWord(const char* word, size_t len, char* out, size_t out_size,
                       WordOrigin* origin);

  bool initialized() const { return initialized_; }
  const Model& model() const { return model_; }
  size_t arena_bytes_used() const { return arena_bytes_used_; }
  size_t required_arena_bytes() const { return required_arena_bytes_; }
  uint32_t lexicon_words() const;  // words in the file's lexicon
  bool lexicon_complete() const;   // the file holds every dictionary word
  bool model_has_stress() const { return model_has_stress_; }
  const char* error_detail() const { return error_detail_; }

  struct State;  // runtime state in the arena (frontend/src/phonemizer_state.h)

 private:
  Status Fail(Status status, const char* message);

  Model model_;
  Translator translator_;
  State* state_ = nullptr;
  const void* lexicon_ = nullptr;  // the file's Lexicon table
  bool initialized_ = false;
  bool model_has_stress_ = false;
  size_t arena_bytes_used_ = 0;
  size_t required_arena_bytes_ = 0;
  char error_detail_[160] = {0};
};

}  // namespace edgenmt

#endif  // EDGENMT_PHONEMIZER_H_
