// SHA-256 against the FIPS 180-4 / NIST test vectors.
#include "sha256.h"

#include <string>

#include "gtest/gtest.h"

namespace edgenmt::converter {
namespace {

std::string Hex(const std::string& text) { return Sha256Hex(text.data(), text.size()); }

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalEqualsOneShot) {
  std::string text;
  for (int i = 0; i < 300; ++i) text.push_back(static_cast<char>(i * 7));
  for (size_t split : {0, 1, 55, 56, 63, 64, 65, 128, 299}) {
    Sha256 sha;
    sha.Update(text.data(), split);
    sha.Update(text.data() + split, text.size() - split);
    std::string hex;
    for (uint8_t b : sha.Finish()) {
      static const char kHex[] = "0123456789abcdef";
      hex += kHex[b >> 4];
      hex += kHex[b & 15];
    }
    EXPECT_EQ(hex, Hex(text)) << split;
  }
}

}  // namespace
}  // namespace edgenmt::converter
