// Tokenizer (char and word modes), UTF-8 validation and detokenization.
#include <string.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "edgenmt/tokenizer.h"
#include "runtime_test_util.h"

namespace edgenmt {
namespace {

// TinyTokens: ids 0..3 specials, then "a".."z" (ids 4..29), then "w26", "w27", ...
std::unique_ptr<testing::LoadedModel> TinyModel(TokenizerType tokenizer) {
  ModelConfig config = testing::TinyConfig();
  config.src_vocab_size = 34;
  config.tgt_vocab_size = 33;
  config.tokenizer = tokenizer;
  return testing::MakeRandomModel(config);
}

std::vector<int32_t> Tokenize(const Model& model, const std::string& text, Status* status,
                              int32_t* unknown = nullptr, int32_t max_ids = 16) {
  std::vector<int32_t> ids(static_cast<size_t>(max_ids), -7);
  int32_t count = -1, unk = -1;
  *status = TokenizeSource(model, text.data(), text.size(), ids.data(), max_ids, &count, &unk);
  if (unknown != nullptr) *unknown = unk;
  ids.resize(count < 0 ? 0 : static_cast<size_t>(count));
  return ids;
}

TEST(TokenizerTest, CharModeLowercasesAsciiAndMapsUnknown) {
  auto loaded = TinyModel(TokenizerType::kChar);
  ASSERT_NE(loaded, nullptr);
  const Model& model = loaded->model;
  Status status;
  int32_t unknown = 0;
  EXPECT_EQ(Tokenize(model, "abZ", &status, &unknown), (std::vector<int32_t>{4, 5, 29}));
  EXPECT_EQ(status, Status::kOk);
  EXPECT_EQ(unknown, 0);
  // Leading/trailing whitespace dropped; inner space and non-ASCII are tokens (here unknown).
  EXPECT_EQ(Tokenize(model, "  a b\xc3\xa9\r\n", &status, &unknown),
            (std::vector<int32_t>{4, 1, 5, 1}));
  EXPECT_EQ(status, Status::kOk);
  EXPECT_EQ(unknown, 2);
  // Only ASCII is lowercased: 'É' stays unknown even though 'é' would be a different token.
  EXPECT_EQ(Tokenize(model, "\xc3\x89", &status, &unknown), (std::vector<int32_t>{1}));
}

TEST(TokenizerTest, EmptyAndTooLong) {
  auto loaded = TinyModel(TokenizerType::kChar);
  ASSERT_NE(loaded, nullptr);
  Status status;
  Tokenize(loaded->model, "", &status);
  EXPECT_EQ(status, Status::kSourceEmpty);
  Tokenize(loaded->model, " \t \n", &status);
  EXPECT_EQ(status, Status::kSourceEmpty);
  std::vector<int32_t> ids(4);
  int32_t count = 0, unknown = 0, seen = 0;
  EXPECT_EQ(TokenizeSource(loaded->model, "abcdef", 6, ids.data(), 4, &count, &unknown, &seen),
            Status::kSourceTooLong);
  EXPECT_EQ(count, 4);
  EXPECT_EQ(seen, 6);
  EXPECT_EQ(TokenizeSource(loaded->model, "abcd", 4, ids.data(), 4, &count, nullptr), Status::kOk);
  EXPECT_EQ(TokenizeSource(loaded->model, "abcd", 4, nullptr, 4, &count, nullptr),
            Status::kInvalidArgument);
  EXPECT_EQ(TokenizeSource(loaded->model, "abcd", 4, ids.data(), 0, &count, nullptr),
            Status::kInvalidArgument);
}

TEST(TokenizerTest, RejectsMalformedUtf8) {
  auto loaded = TinyModel(TokenizerType::kChar);
  ASSERT_NE(loaded, nullptr);
  const char* bad[] = {
      "\x80",              // lone continuation
      "a\xc3",             // truncated 2-byte
      "\xc0\xaf",          // overlong '/'
      "\xc1\xbf",          // overlong
      "\xe0\x80\xaf",      // overlong 3-byte
      "\xed\xa0\x80",      // UTF-16 surrogate
      "\xe2\x82",          // truncated 3-byte
      "\xf0\x8f\xbf\xbf",  // overlong 4-byte
      "\xf4\x90\x80\x80",  // above U+10FFFF
      "\xf5\x80\x80\x80",  // invalid lead
      "\xff",
      "\xe2\x28\xa1",  // bad continuation
  };
  for (const char* text : bad) {
    Status status;
    Tokenize(loaded->model, text, &status);
    EXPECT_EQ(status, Status::kSourceInvalidUtf8) << "input " << ::testing::PrintToString(text);
  }
  // Valid edge cases.
  uint32_t cp = 0;
  EXPECT_EQ(DecodeUtf8(reinterpret_cast<const uint8_t*>("\xf4\x8f\xbf\xbf"), 4, &cp), 4);
  EXPECT_EQ(cp, 0x10FFFFu);
  EXPECT_EQ(DecodeUtf8(reinterpret_cast<const uint8_t*>("\xe2\x82\xac"), 3, &cp), 3);
  EXPECT_EQ(cp, 0x20ACu);
  EXPECT_EQ(DecodeUtf8(reinterpret_cast<const uint8_t*>("\xc2\x80"), 2, &cp), 2);
  EXPECT_EQ(cp, 0x80u);
  EXPECT_EQ(DecodeUtf8(reinterpret_cast<const uint8_t*>("\xef\xbf\xbf"), 3, &cp), 3);
  EXPECT_EQ(cp, 0xFFFFu);
}

TEST(TokenizerTest, WordModeSplitsOnAsciiWhitespace) {
  auto loaded = TinyModel(TokenizerType::kWord);
  ASSERT_NE(loaded, nullptr);
  Status status;
  int32_t unknown = 0;
  // "w27" is id 31; "A" is not lowercased in word mode and is unknown; "zz" unknown.
  EXPECT_EQ(Tokenize(loaded->model, " a\tb  w27\nzz A ", &status, &unknown),
            (std::vector<int32_t>{4, 5, 31, 1, 1}));
  EXPECT_EQ(status, Status::kOk);
  EXPECT_EQ(unknown, 2);
  Tokenize(loaded->model, "a \xc3", &status);
  EXPECT_EQ(status, Status::kSourceInvalidUtf8);
  Tokenize(loaded->model, "\n\n", &status);
  EXPECT_EQ(status, Status::kSourceEmpty);
}

TEST(DetokenizerTest, JoinsWithSpacesAndChecksSizes) {
  auto loaded = TinyModel(TokenizerType::kChar);
  ASSERT_NE(loaded, nullptr);
  const Model& model = loaded->model;
  const int32_t ids[4] = {4, 30, 5, 3};  // "a w26 b </s>"
  char out[32];
  size_t length = 0;
  ASSERT_EQ(DetokenizeTarget(model, ids, 4, out, sizeof out, &length), Status::kOk);
  EXPECT_STREQ(out, "a w26 b </s>");
  EXPECT_EQ(length, 12u);
  ASSERT_EQ(DetokenizeTarget(model, ids, 0, out, sizeof out, &length), Status::kOk);
  EXPECT_STREQ(out, "");
  EXPECT_EQ(length, 0u);
  // Exactly enough room (12 + NUL), then one byte short.
  EXPECT_EQ(DetokenizeTarget(model, ids, 4, out, 13, &length), Status::kOk);
  EXPECT_EQ(DetokenizeTarget(model, ids, 4, out, 12, &length), Status::kInvalidArgument);
  EXPECT_STREQ(out, "");
  const int32_t bad[1] = {33};
  EXPECT_EQ(DetokenizeTarget(model, bad, 1, out, sizeof out, &length), Status::kInvalidArgument);
  // Longest target token is "<pad>" (5 bytes): count * 6 + 1.
  EXPECT_EQ(MaxDetokenizedBytes(model, 3), 19u);
}

}  // namespace
}  // namespace edgenmt
