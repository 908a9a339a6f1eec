// Source tokenization (char and word modes), see edgenmt/tokenizer.h.
#include "edgenmt/tokenizer.h"

namespace edgenmt {
namespace {

bool IsAsciiSpace(uint8_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool IsContinuation(uint8_t c) { return (c & 0xC0) == 0x80; }

// Collects tokens: writes ids while there is room, counts all of them.
struct TokenSink {
  VocabularyView vocab;
  int32_t* ids;
  int32_t max_ids;
  int32_t count;
  int32_t unknown;

  void Add(const char* data, uint32_t size) {
    int32_t id = vocab.Find(data, size);
    if (id < 0) {
      id = vocab.unk_id;
      ++unknown;
    }
    if (count < max_ids) ids[count] = id;
    ++count;
  }
};

}  // namespace

int32_t DecodeUtf8(const uint8_t* s, size_t len, uint32_t* code_point) {
  const uint8_t b0 = s[0];
  if (b0 < 0x80) {
    *code_point = b0;
    return 1;
  }
  int32_t n = 0;
  uint32_t cp = 0;
  uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    cp = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // UTF-16 surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    cp = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;  // continuation byte, overlong C0/C1, or F5..FF
  }
  if (len < static_cast<size_t>(n)) return 0;
  if (s[1] < lo || s[1] > hi) return 0;
  cp = (cp << 6) | (s[1] & 0x3F);
  for (int32_t i = 2; i < n; ++i) {
    if (!IsContinuation(s[i])) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  *code_point = cp;
  return n;
}

Status TokenizeSource(const Model& model, const char* utf8, size_t len, int32_t* ids,
                      int32_t max_ids, int32_t* num_ids, int32_t* num_unknown,
                      int32_t* num_tokens_seen) {
  if ((utf8 == nullptr && len > 0) || ids == nullptr || num_ids == nullptr || max_ids < 1 ||
      !model.loaded()) {
    return Status::kInvalidArgument;
  }
  *num_ids = 0;
  if (num_unknown != nullptr) *num_unknown = 0;
  if (num_tokens_seen != nullptr) *num_tokens_seen = 0;
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(utf8);
  // Whole-line UTF-8 validation first, so a malformed line is rejected in both modes.
  for (size_t i = 0; i < len;) {
    uint32_t cp = 0;
    const int32_t n = DecodeUtf8(bytes + i, len - i, &cp);
    if (n == 0) return Status::kSourceInvalidUtf8;
    i += static_cast<size_t>(n);
  }
  size_t begin = 0, end = len;
  while (begin < end && IsAsciiSpace(bytes[begin])) ++begin;
  while (end > begin && IsAsciiSpace(bytes[end - 1])) --end;

  TokenSink sink{model.src_vocab(), ids, max_ids, 0, 0};
  if (model.config().tokenizer == TokenizerType::kChar) {
    for (size_t i = begin; i < end;) {
      uint32_t cp = 0;
      const int32_t n = DecodeUtf8(bytes + i, end - i, &cp);
      if (n == 1 && cp >= 'A' && cp <= 'Z') {
        const char lower = static_cast<char>(cp - 'A' + 'a');
        sink.Add(&lower, 1);
      } else {
        sink.Add(utf8 + i, static_cast<uint32_t>(n));
      }
      i += static_cast<size_t>(n);
    }
  } else {
    for (size_t i = begin; i < end;) {
      while (i < end && IsAsciiSpace(bytes[i])) ++i;
      const size_t word_begin = i;
      while (i < end && !IsAsciiSpace(bytes[i])) ++i;
      if (i > word_begin) sink.Add(utf8 + word_begin, static_cast<uint32_t>(i - word_begin));
    }
  }
  if (num_unknown != nullptr) *num_unknown = sink.unknown;
  if (num_tokens_seen != nullptr) *num_tokens_seen = sink.count;
  if (sink.count == 0) return Status::kSourceEmpty;
  if (sink.count > max_ids) {
    *num_ids = max_ids;
    return Status::kSourceTooLong;
  }
  *num_ids = sink.count;
  return Status::kOk;
}

}  // namespace edgenmt
