// Phonemizer: verifying the file, planning the arena, the user lexicon and the word lookup
// chain. Reading a line is phrase_reader.cc's.
#include <string.h>

#include <new>

#include "bounded_text.h"
#include "edgenmt/phonemizer.h"
#include "edgenmt/schema/phonemizer_generated.h"
#include "phonemizer_state.h"

namespace edgenmt {
namespace {

namespace fbp = ::edgenmt::fb::phonemizer;

constexpr size_t kAlign = 16;
size_t AlignUp(size_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }

// Where each part of the arena goes, from the file and the limits.
struct ArenaLayout {
  size_t user_slots = 0, user_pool = 0, translator = 0, total = 0;
  uint32_t user_num_slots = 0;
  size_t translator_bytes = 0;
};

// Verifies the container and loads the nested model into *model.
Status OpenFile(const void* file, size_t size, Model* model, const fbp::Phonemizer** root,
                char* detail, size_t detail_size) {
  text::BoundedText out(detail, detail_size);
  if (file == nullptr) {
    out.Append("null file");
    return Status::kInvalidArgument;
  }
  if (reinterpret_cast<uintptr_t>(file) % kModelBufferAlignment != 0) {
    out.Append("phonemizer file is not ").Number(kModelBufferAlignment).Append("-byte aligned");
    return Status::kInvalidArgument;
  }
  const uint8_t* bytes = static_cast<const uint8_t*>(file);
  if (size < 8 || size > 0x7FFFFFFFu || !fbp::PhonemizerBufferHasIdentifier(bytes)) {
    out.Append("not a phonemizer file (identifier ENPH missing)");
    return Status::kModelMalformed;
  }
  flatbuffers::Verifier verifier(bytes, size);
  if (!fbp::VerifyPhonemizerBuffer(verifier)) {
    out.Append("phonemizer file failed FlatBuffers verification (truncated or corrupt)");
    return Status::kModelMalformed;
  }
  *root = fbp::GetPhonemizer(bytes);
  if ((*root)->format_version() != kPhonemizerFormatVersion) {
    out.Append("phonemizer format version ")
        .Number((*root)->format_version())
        .Append(" (this runtime reads ")
        .Number(kPhonemizerFormatVersion)
        .Append(")");
    return Status::kModelVersionUnsupported;
  }
  const Status status = model->Load((*root)->model()->data(), (*root)->model()->size());
  if (status != Status::kOk) {
    out.Append("model: ").Append(model->error_detail());
    return status;
  }
  return Status::kOk;
}

SessionLimits TranslatorLimits(const PhonemizerLimits& limits) {
  SessionLimits session;
  session.max_beam = 1;
  session.max_nbest = 1;
  session.backend = limits.backend;
  return session;
}

Status Plan(const Model& model, const PhonemizerLimits& limits, ArenaLayout* layout, char* detail,
            size_t detail_size) {
  size_t translator_bytes = 0;
  const Status status =
      RequiredArenaBytes(model, TranslatorLimits(limits), &translator_bytes, detail, detail_size);
  if (status != Status::kOk) return status;
  size_t off = AlignUp(sizeof(Phonemizer::State));
  if (limits.user_lexicon_max_words > 0 || limits.user_lexicon_max_bytes > 0) {
    if (limits.user_lexicon_max_words > (1u << 24) || limits.user_lexicon_max_bytes > (1u << 30)) {
      text::BoundedText(detail, detail_size).Append("user lexicon limits too large");
      return Status::kLimitExceeded;
    }
    layout->user_num_slots = text::LexiconSlotsFor(limits.user_lexicon_max_words);
    layout->user_slots = off;
    off = AlignUp(off + 4ull * layout->user_num_slots);
    layout->user_pool = off;
    off = AlignUp(off + limits.user_lexicon_max_bytes);
  }
  layout->translator = off;
  layout->translator_bytes = translator_bytes;
  layout->total = off + translator_bytes;
  return Status::kOk;
}

}  // namespace

const char* WordOriginName(WordOrigin origin) {
  switch (origin) {
    case WordOrigin::kLexicon: return "lexicon";
    case WordOrigin::kUserLexicon: return "user_lexicon";
    case WordOrigin::kNormalizer: return "normalizer";
    case WordOrigin::kModel: return "model";
  }
  return "unknown";
}

Status Phonemizer::Fail(Status status, const char* message) {
  text::BoundedText(error_detail_, sizeof error_detail_).Append(message);
  return status;
}

Status Phonemizer::RequiredArenaBytes(const void* file, size_t size, const PhonemizerLimits& limits,
                                      size_t* out_bytes, char* detail, size_t detail_size) {
  if (out_bytes == nullptr) return Status::kInvalidArgument;
  Model model;
  const fbp::Phonemizer* root = nullptr;
  EDGENMT_RETURN_IF_ERROR(OpenFile(file, size, &model, &root, detail, detail_size));
  ArenaLayout layout;
  EDGENMT_RETURN_IF_ERROR(Plan(model, limits, &layout, detail, detail_size));
  *out_bytes = layout.total;
  return Status::kOk;
}

Status Phonemizer::Init(const void* file, size_t size, const PhonemizerLimits& limits, void* arena,
                        size_t arena_bytes) {
  initialized_ = false;
  state_ = nullptr;
  error_detail_[0] = '\0';
  const fbp::Phonemizer* root = nullptr;
  Status status = OpenFile(file, size, &model_, &root, error_detail_, sizeof error_detail_);
  if (status != Status::kOk) return status;
  // The model's targets must be phonemes.
  const VocabularyView targets = model_.tgt_vocab();
  if (targets.size > 256) return Fail(Status::kModelVocabularyInvalid, "more than 256 targets");
  text::PhoneCode target_phone[256];
  bool stress = false;
  for (int32_t id = 0; id < targets.size; ++id) {
    target_phone[id] = 0xFF;
    if (id == targets.pad_id || id == targets.unk_id || id == targets.bos_id ||
        id == targets.eos_id) {
      continue;
    }
    const TokenView token = targets.Token(id);
    if (!text::ParseArpabetPhone(token.data, token.size, &target_phone[id])) {
      text::BoundedText(error_detail_, sizeof error_detail_)
          .Append("target token ")
          .Number(id)
          .Append(" '")
          .Append(token.data, token.size < 16 ? token.size : 16)
          .Append("' is not an ARPAbet phoneme");
      return Status::kModelVocabularyInvalid;
    }
    stress = stress || text::PhoneStress(target_phone[id]) != text::kNoStress;
  }
  // The lexicon: every bucket and entry checked once, here.
  const fbp::Lexicon* lexicon = root->lexicon();
  if (lexicon->buckets() == nullptr || lexicon->buckets()->size() < 2) {
    return Fail(Status::kModelMalformed, "lexicon: no bucket directory");
  }
  text::BucketedLexicon table;
  table.buckets = lexicon->buckets()->data();
  table.num_buckets = lexicon->buckets()->size() - 1;
  table.entries = lexicon->entries()->data();
  table.entries_size = lexicon->entries()->size();
  if (!text::VerifyBucketedLexicon(table, lexicon->num_words(), error_detail_,
                                   sizeof error_detail_)) {
    return Status::kModelMalformed;
  }
  ArenaLayout layout;
  status = Plan(model_, limits, &layout, error_detail_, sizeof error_detail_);
  if (status != Status::kOk) return status;
  required_arena_bytes_ = layout.total;
  if (arena == nullptr || reinterpret_cast<uintptr_t>(arena) % kAlign != 0) {
    return Fail(Status::kInvalidArgument, "arena is null or not 16-byte aligned");
  }
  if (arena_bytes < layout.total) {
    text::BoundedText(error_detail_, sizeof error_detail_)
        .Append("arena too small: ")
        .Number(static_cast<int64_t>(layout.total))
        .Append(" bytes needed, ")
        .Number(static_cast<int64_t>(arena_bytes))
        .Append(" given");
    return Status::kArenaTooSmall;
  }
  uint8_t* base = static_cast<uint8_t*>(arena);
  status = translator_.Init(&model_, base + layout.translator, layout.translator_bytes,
                            TranslatorLimits(limits));
  if (status != Status::kOk) {
    text::BoundedText(error_detail_, sizeof error_detail_)
        .Append("model session: ")
        .Append(translator_.error_detail());
    return status;
  }
  state_ = new (base) State();
  if (limits.use_lexicon) state_->lexicon = table;
  state_->lexicon_complete = lexicon->complete();
  state_->lexicon_words = lexicon->num_words();
  memcpy(state_->target_phone, target_phone, sizeof target_phone);
  state_->user_num_slots = layout.user_num_slots;
  state_->user_slots =
      layout.user_num_slots ? reinterpret_cast<uint32_t*>(base + layout.user_slots) : nullptr;
  state_->user_pool = layout.user_num_slots ? base + layout.user_pool : nullptr;
  state_->user_max_words = limits.user_lexicon_max_words;
  state_->user_max_bytes = limits.user_lexicon_max_bytes;
  state_->max_src_len = model_.config().max_src_len;
  state_->options = TranslateOptions::FromModel(model_);
  state_->options.beam = 1;
  state_->options.nbest = 1;
  state_->options.return_attention = false;
  lexicon_ = lexicon;
  model_has_stress_ = stress;
  arena_bytes_used_ = layout.total;
  initialized_ = true;
  return Status::kOk;
}

uint32_t Phonemizer::lexicon_words() const { return state_ ? state_->lexicon_words : 0; }
bool Phonemizer::lexicon_complete() const { return state_ && state_->lexicon_complete; }

text::LexiconEntry WordLookup::Find(const char* word, size_t n, WordOrigin* origin) const {
  if (state_->user_loaded) {
    const text::LexiconEntry entry = state_->user.table().Find(word, n);
    if (entry.found()) {
      *origin = WordOrigin::kUserLexicon;
      return entry;
    }
  }
  const text::LexiconEntry entry = state_->lexicon.Find(word, n);
  if (entry.found()) *origin = WordOrigin::kLexicon;
  return entry;
}

int WordLookup::FromModel(const char* word, size_t n, text::PhoneCode* out, int cap,
                          const char** error) const {
  int count = 0;
  const size_t piece = state_->max_src_len > 0 ? static_cast<size_t>(state_->max_src_len) : n;
  for (size_t start = 0; start < n; start += piece) {
    const size_t len = n - start < piece ? n - start : piece;
    TranslationResult result;
    const Status status = translator_->Translate(word + start, len, state_->options, &result);
    if (status != Status::kOk) {
      *error = translator_->error_detail();
      return -1;
    }
    const Hypothesis& best = result.hypotheses[0];
    for (int32_t i = 0; i < best.length && count < cap; ++i) {
      const int32_t id = best.ids[i];
      if (id < 0 || id > 255 || state_->target_phone[id] == 0xFF) continue;
      out[count++] = state_->target_phone[id];
    }
  }
  return count;
}

int WordLookup::FirstPronunciation(const char* word, size_t n, bool ask_model, text::PhoneCode* out,
                                   int cap, WordOrigin* origin, const char** error) const {
  const text::LexiconEntry entry = Find(word, n, origin);
  if (entry.found()) {
    const text::PronunciationView first = entry.At(0);
    const int count = first.count < cap ? first.count : cap;
    memcpy(out, first.phones, static_cast<size_t>(count));
    return count;
  }
  if (!ask_model) return kNotListed;
  *origin = WordOrigin::kModel;
  return FromModel(word, n, out, cap, error);
}

Status Phonemizer::PhonemizeWord(const char* word, size_t len, char* out, size_t out_size,
                                 WordOrigin* origin) {
  if (!initialized_) return Fail(Status::kNotInitialized, "Init has not succeeded");
  if (word == nullptr || out == nullptr || out_size == 0 || len == 0 || len >= kMaxWordChars) {
    return Fail(Status::kInvalidArgument, "word must be 1..63 bytes, out non-empty");
  }
  char lower[kMaxWordChars];
  for (size_t i = 0; i < len; ++i) {
    char c = word[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (!((c >= 'a' && c <= 'z') || c == '\'')) {
      return Fail(Status::kInvalidArgument, "word: letters and apostrophes only");
    }
    lower[i] = c;
  }
  WordOrigin found_origin = WordOrigin::kModel;
  text::PhoneCode phones[kMaxWordPhones];
  const char* error = "";
  const int count =
      WordLookup(state_, &translator_)
          .FirstPronunciation(lower, len, true, phones, kMaxWordPhones, &found_origin, &error);
  if (count < 0) return Fail(Status::kInternal, error);
  const size_t n = text::FormatArpabet(phones, count, true, out, out_size - 1);
  out[n < out_size - 1 ? n : out_size - 1] = '\0';
  if (origin) *origin = found_origin;
  return Status::kOk;
}

}  // namespace edgenmt
