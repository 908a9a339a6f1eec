// SHA-256 for the provenance record of converted models, computed by OpenSSL's libcrypto (EVP).
#ifndef EDGENMT_CONVERTER_SHA256_H_
#define EDGENMT_CONVERTER_SHA256_H_

#include <stddef.h>
#include <stdint.h>

#include <array>
#include <memory>
#include <string>

struct evp_md_ctx_st;  // EVP_MD_CTX, kept out of this header

namespace edgenmt::converter {

// Incremental hashing; throws std::runtime_error if libcrypto fails (out of memory).
class Sha256 {
 public:
  Sha256();
  void Update(const void* data, size_t size);
  std::array<uint8_t, 32> Finish();  // call once

 private:
  struct ContextDeleter {
    void operator()(evp_md_ctx_st* context) const;
  };
  std::unique_ptr<evp_md_ctx_st, ContextDeleter> context_;
};

// Lower-case hex digest of [data, data + size).
std::string Sha256Hex(const void* data, size_t size);

}  // namespace edgenmt::converter

#endif  // EDGENMT_CONVERTER_SHA256_H_
