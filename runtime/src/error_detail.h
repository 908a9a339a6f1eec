// A fixed-size, NUL-terminated error message built without stdio or heap.
//
// Usage: return detail->Fail(Status::kModelTensorInvalid, "tensor ", name, " has rank ", r);
// Arguments may be C strings or integers of any width.
//
// ErrorDetail writes into a buffer it does not own (a Translator's or Model's error text, so
// entry points keep no message buffer on their stack); OwnedErrorDetail carries its own.
#ifndef EDGENMT_ERROR_DETAIL_H_
#define EDGENMT_ERROR_DETAIL_H_

#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "edgenmt/status.h"

namespace edgenmt {

class ErrorDetail {
 public:
  static constexpr size_t kCapacity = 160;

  // buffer: [capacity] bytes, outlives this object; capacity 0 (or a null buffer) drops text.
  ErrorDetail(char* buffer, size_t capacity)
      : text_(buffer), capacity_(buffer != nullptr ? capacity : 0) {
    Clear();
  }
  ErrorDetail(const ErrorDetail&) = delete;
  ErrorDetail& operator=(const ErrorDetail&) = delete;

  void Clear() {
    length_ = 0;
    if (capacity_ > 0) text_[0] = '\0';
  }
  const char* c_str() const { return capacity_ > 0 ? text_ : ""; }

  // Replaces the text with the concatenation of `parts` and returns `status`.
  template <typename... Parts>
  Status Fail(Status status, const Parts&... parts) {
    Clear();
    (Append(parts), ...);
    return status;
  }

  void Append(const char* text) { AppendText(text); }
  void Append(char* text) { AppendText(text); }
  // Any integer type (int, size_t, int64_t...): printed in decimal.
  template <typename T, typename = std::enable_if_t<std::is_integral<T>::value>>
  void Append(T value) {
    if (std::is_signed<T>::value) {
      AppendSigned(static_cast<int64_t>(value));
    } else {
      AppendUnsigned(static_cast<uint64_t>(value));
    }
  }

 private:
  void AppendText(const char* text);
  void AppendSigned(int64_t value);
  void AppendUnsigned(uint64_t value);

  char* text_;
  size_t capacity_;
  size_t length_ = 0;
};

class OwnedErrorDetail : public ErrorDetail {
 public:
  OwnedErrorDetail() : ErrorDetail(storage_, kCapacity) {}

 private:
  char storage_[kCapacity] = {0};
};

// A tensor name assembled from parts ("decoder.layers.", 2, ".weight_ih"), bounded, no stdio.
class NameBuilder {
 public:
  static constexpr size_t kCapacity = 64;  // kMaxTensorNameLength
  template <typename... Parts>
  explicit NameBuilder(const Parts&... parts) {
    text_[0] = '\0';
    (Append(parts), ...);
  }
  const char* c_str() const { return text_; }

 private:
  void Append(const char* text);
  void Append(int32_t value);

  char text_[kCapacity];
  size_t length_ = 0;
};

// Writes prefix + layer (decimal; omitted when < 0) + suffix + part into name[capacity]
// (bounded, NUL-terminated): NameBuilder's text, written into the caller's buffer so that a
// frame deep in Init that already holds a name (an ExpectedTensor) holds no second one.
void WriteTensorName(char* name, size_t capacity, const char* prefix, int32_t layer,
                     const char* suffix, const char* part);

}  // namespace edgenmt

#endif  // EDGENMT_ERROR_DETAIL_H_
