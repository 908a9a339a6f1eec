// Target detokenization: vocabulary strings joined by single spaces (edgenmt/tokenizer.h).
#include <string.h>

#include "edgenmt/internal/arena.h"
#include "edgenmt/tokenizer.h"

namespace edgenmt {

size_t MaxDetokenizedBytes(const Model& model, int32_t count) {
  const VocabularyView vocab = model.tgt_vocab();
  size_t longest = 0;
  for (int32_t id = 0; id < vocab.size; ++id) {
    const TokenView token = vocab.Token(id);
    longest = token.size > longest ? token.size : longest;
  }
  if (count < 0) count = 0;
  // SIZE_MAX when it does not fit (32-bit targets): the caller's allocation then fails.
  const size_t bytes = Arena::CheckedSizeProduct(static_cast<size_t>(count), longest + 1);
  return bytes == SIZE_MAX ? SIZE_MAX : bytes + 1;
}

Status DetokenizeTarget(const Model& model, const int32_t* ids, int32_t count, char* out,
                        size_t out_size, size_t* out_len) {
  if (out == nullptr || out_size == 0 || (ids == nullptr && count > 0) || count < 0 ||
      !model.loaded()) {
    return Status::kInvalidArgument;
  }
  out[0] = '\0';
  if (out_len != nullptr) *out_len = 0;
  const VocabularyView vocab = model.tgt_vocab();
  size_t length = 0;
  for (int32_t i = 0; i < count; ++i) {
    if (ids[i] < 0 || ids[i] >= vocab.size) {
      out[0] = '\0';
      return Status::kInvalidArgument;
    }
    const TokenView token = vocab.Token(ids[i]);
    const size_t needed = (i > 0 ? 1 : 0) + static_cast<size_t>(token.size);
    if (needed > out_size - 1 - length) {  // keep room for the NUL
      out[0] = '\0';
      return Status::kInvalidArgument;
    }
    if (i > 0) out[length++] = ' ';
    memcpy(out + length, token.data, token.size);
    length += token.size;
  }
  out[length] = '\0';
  if (out_len != nullptr) *out_len = length;
  return Status::kOk;
}

}  // namespace edgenmt
