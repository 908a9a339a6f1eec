// SHA-256 (FIPS 180-4), for the provenance record of converted models.
#ifndef EDGENMT_CONVERTER_SHA256_H_
#define EDGENMT_CONVERTER_SHA256_H_

#include <stddef.h>
#include <stdint.h>

#include <array>
#include <string>

namespace edgenmt::converter {

class Sha256 {
 public:
  Sha256();
  void Update(const void* data, size_t size);
  std::array<uint8_t, 32> Finish();  // call once

 private:
  void Block(const uint8_t* block);
  uint32_t state_[8];
  uint8_t buffer_[64];
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

// Lower-case hex digest of [data, data + size).
std::string Sha256Hex(const void* data, size_t size);

}  // namespace edgenmt::converter

#endif  // EDGENMT_CONVERTER_SHA256_H_
