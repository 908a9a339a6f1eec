#include "sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace edgenmt::converter {

void Sha256::ContextDeleter::operator()(evp_md_ctx_st* context) const { EVP_MD_CTX_free(context); }

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
  if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("sha256: libcrypto could not start a digest");
  }
}

void Sha256::Update(const void* data, size_t size) {
  if (size != 0 && EVP_DigestUpdate(context_.get(), data, size) != 1) {
    throw std::runtime_error("sha256: libcrypto digest update failed");
  }
}

std::array<uint8_t, 32> Sha256::Finish() {
  std::array<uint8_t, 32> digest{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context_.get(), digest.data(), &length) != 1 || length != digest.size()) {
    throw std::runtime_error("sha256: libcrypto digest final failed");
  }
  return digest;
}

std::string Sha256Hex(const void* data, size_t size) {
  Sha256 sha;
  sha.Update(data, size);
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (uint8_t b : sha.Finish()) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  return hex;
}

}  // namespace edgenmt::converter
