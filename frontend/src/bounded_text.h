// Writes text into a fixed caller buffer, always NUL-terminated, silently truncated: error
// details and warnings without snprintf or the heap.
#ifndef EDGENMT_FRONTEND_BOUNDED_TEXT_H_
#define EDGENMT_FRONTEND_BOUNDED_TEXT_H_

#include <stddef.h>
#include <stdint.h>

namespace edgenmt {
namespace text {

class BoundedText {
 public:
  BoundedText(char* buffer, size_t capacity) : buffer_(buffer), capacity_(capacity) {
    if (buffer_ && capacity_) buffer_[0] = '\0';
  }
  BoundedText& Append(const char* s) {
    while (s && *s) Char(*s++);
    return *this;
  }
  BoundedText& Append(const char* s, size_t n) {
    for (size_t i = 0; i < n; ++i) Char(s[i]);
    return *this;
  }
  BoundedText& Number(int64_t v) {
    char digits[24];
    int n = 0;
    uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    do {
      digits[n++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u);
    if (v < 0) Char('-');
    while (n) Char(digits[--n]);
    return *this;
  }
  // "U+1F600"
  BoundedText& CodePoint(uint32_t cp) {
    static const char kHex[] = "0123456789ABCDEF";
    Append("U+");
    int shift = 12;  // at least four digits, as Unicode writes them
    while (shift < 28 && (cp >> (shift + 4)) != 0) shift += 4;
    for (; shift >= 0; shift -= 4) Char(kHex[(cp >> shift) & 0xF]);
    return *this;
  }
  BoundedText& Char(char c) {
    if (buffer_ && length_ + 1 < capacity_) {
      buffer_[length_++] = c;
      buffer_[length_] = '\0';
    }
    return *this;
  }
  size_t length() const { return length_; }
  const char* c_str() const { return buffer_; }

 private:
  char* buffer_;
  size_t capacity_;
  size_t length_ = 0;
};

}  // namespace text
}  // namespace edgenmt

#endif  // EDGENMT_FRONTEND_BOUNDED_TEXT_H_
