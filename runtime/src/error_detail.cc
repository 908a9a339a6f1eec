#include "error_detail.h"

namespace edgenmt {
namespace {

// Appends `text` to buffer[*length] keeping room for the NUL; truncates silently.
void AppendText(char* buffer, size_t capacity, size_t* length, const char* text) {
  if (capacity == 0) return;
  if (text == nullptr) text = "(null)";
  while (*text != '\0' && *length + 1 < capacity) buffer[(*length)++] = *text++;
  buffer[*length] = '\0';
}

// Digits written in place, then reversed (no temporary buffer: this runs deep in Init's stack).
void AppendUnsigned(char* buffer, size_t capacity, size_t* length, uint64_t value) {
  if (capacity == 0) return;
  const size_t begin = *length;
  do {
    if (*length + 1 >= capacity) break;
    buffer[(*length)++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  for (size_t i = begin, j = *length; i + 1 < j; ++i, --j) {
    const char t = buffer[i];
    buffer[i] = buffer[j - 1];
    buffer[j - 1] = t;
  }
  buffer[*length] = '\0';
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
  ::edgenmt::AppendText(text_, capacity_, &length_, text);
}
void ErrorDetail::AppendSigned(int64_t value) {
  ::edgenmt::AppendSigned(text_, capacity_, &length_, value);
}
void ErrorDetail::AppendUnsigned(uint64_t value) {
  ::edgenmt::AppendUnsigned(text_, capacity_, &length_, value);
}

void NameBuilder::Append(const char* text) {
  ::edgenmt::AppendText(text_, kCapacity, &length_, text);
}
void NameBuilder::Append(int32_t value) {
  ::edgenmt::AppendSigned(text_, kCapacity, &length_, value);
}

void WriteTensorName(char* name, size_t capacity, const char* prefix, int32_t layer,
                     const char* suffix, const char* part) {
  size_t length = 0;
  if (capacity > 0) name[0] = '\0';
  ::edgenmt::AppendText(name, capacity, &length, prefix);
  if (layer >= 0) ::edgenmt::AppendSigned(name, capacity, &length, layer);
  ::edgenmt::AppendText(name, capacity, &length, suffix);
  ::edgenmt::AppendText(name, capacity, &length, part);
}

}  // namespace edgenmt
