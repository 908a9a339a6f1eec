#include "error_detail.h"

namespace edgenmt {
namespace {

// Appends `text` to buffer[*length] keeping room for the NUL; truncates silently.
void AppendText(char* buffer, size_t capacity, size_t* length, const char* text) {
  if (text == nullptr) text = "(null)";
  while (*text != '\0' && *length + 1 < capacity) buffer[(*length)++] = *text++;
  buffer[*length] = '\0';
}

void AppendUnsigned(char* buffer, size_t capacity, size_t* length, uint64_t value) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  char text[24];
  for (int i = 0; i < n; ++i) text[i] = digits[n - 1 - i];
  text[n] = '\0';
  AppendText(buffer, capacity, length, text);
}

void AppendSigned(char* buffer, size_t capacity, size_t* length, int64_t value) {
  if (value < 0) {
    AppendText(buffer, capacity, length, "-");
    AppendUnsigned(buffer, capacity, length, static_cast<uint64_t>(-(value + 1)) + 1);
  } else {
    AppendUnsigned(buffer, capacity, length, static_cast<uint64_t>(value));
  }
}

}  // namespace

void ErrorDetail::AppendText(const char* text) {
  ::edgenmt::AppendText(text_, kCapacity, &length_, text);
}
void ErrorDetail::AppendSigned(int64_t value) {
  ::edgenmt::AppendSigned(text_, kCapacity, &length_, value);
}
void ErrorDetail::AppendUnsigned(uint64_t value) {
  ::edgenmt::AppendUnsigned(text_, kCapacity, &length_, value);
}

void NameBuilder::Append(const char* text) {
  ::edgenmt::AppendText(text_, kCapacity, &length_, text);
}
void NameBuilder::Append(int32_t value) {
  ::edgenmt::AppendSigned(text_, kCapacity, &length_, value);
}

}  // namespace edgenmt
