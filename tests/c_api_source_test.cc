// The C API additions for bindings (edgenmt.h: enmt_get_source, enmt_model_token,
// enmt_model_has_attention) against the C++ API: the tokenized source and its <unk> count of
// the last translation, vocabulary tokens by id, and whether attention may be requested.
#include <string>

#include "edgenmt/edgenmt.h"
#include "edgenmt/translator.h"
#include "gtest/gtest.h"
#include "runtime_test_util.h"

namespace edgenmt {
namespace {

std::string Golden(const char* name) {
  return std::string(EDGENMT_TEST_DATA_DIR) + "/golden/" + name;
}

TEST(CApiSourceTest, SourceTokensAttentionFlagAndErrors) {
  for (const char* name : {"local_p_general", "none"}) {
    auto loaded = testing::LoadCheckpointDir(Golden(name));
    ASSERT_NE(loaded, nullptr);
    alignas(16) unsigned char storage[ENMT_MODEL_STORAGE_BYTES_MAX];
    enmt_model* model = nullptr;
    ASSERT_EQ(enmt_model_load(storage, sizeof storage, loaded->model.buffer(),
                              loaded->model.buffer_size(), &model),
              ENMT_OK);
    const bool attention = loaded->model.config().rnn.attention != AttentionType::kNone;
    EXPECT_EQ(enmt_model_has_attention(model), attention ? 1 : 0) << name;
    EXPECT_EQ(enmt_model_has_attention(nullptr), 0);

    // Tokens by id equal the C++ vocabulary views; out-of-range ids and sides are refused.
    for (int32_t side : {0, 1}) {
      const VocabularyView vocab =
          side == 0 ? loaded->model.src_vocab() : loaded->model.tgt_vocab();
      for (int32_t id = 0; id < vocab.size; ++id) {
        const char* text = nullptr;
        size_t length = 0;
        ASSERT_EQ(enmt_model_token(model, side, id, &text, &length), ENMT_OK);
        const TokenView token = vocab.Token(id);
        EXPECT_EQ(std::string(text, length), std::string(token.data, token.size));
      }
      const char* text = nullptr;
      size_t length = 0;
      EXPECT_EQ(enmt_model_token(model, side, vocab.size, &text, &length), ENMT_INVALID_ARGUMENT);
      EXPECT_EQ(enmt_model_token(model, side, -1, &text, &length), ENMT_INVALID_ARGUMENT);
    }
    const char* text = nullptr;
    size_t length = 0;
    EXPECT_EQ(enmt_model_token(model, 2, 0, &text, &length), ENMT_INVALID_ARGUMENT);

    enmt_limits limits;
    enmt_limits_default(model, &limits);
    size_t bytes = 0;
    ASSERT_EQ(enmt_required_arena_bytes(model, &limits, &bytes), ENMT_OK);
    testing::AlignedArena arena(bytes);
    enmt_translator* translator = nullptr;
    ASSERT_EQ(enmt_translator_init(model, arena.data(), bytes, &limits, &translator), ENMT_OK);
    const int32_t* ids = nullptr;
    int32_t len = 0, unknown = 0;
    EXPECT_EQ(enmt_get_source(translator, &ids, &len, &unknown),
              ENMT_NOT_INITIALIZED);  // no result yet

    enmt_options options;
    enmt_options_default(model, &options);
    int32_t count = 0;
    const std::string source =
        "ab\xc3\xa9"
        "c";  // é is not in the vocabulary
    ASSERT_EQ(enmt_translate(translator, source.data(), source.size(), &options, &count), ENMT_OK);
    ASSERT_EQ(enmt_get_source(translator, &ids, &len, &unknown), ENMT_OK);
    ASSERT_EQ(len, 4);
    EXPECT_EQ(unknown, 1);
    const VocabularyView src = loaded->model.src_vocab();
    for (int32_t i = 0; i < len; ++i) {
      const TokenView token = src.Token(ids[i]);
      EXPECT_EQ(std::string(token.data, token.size), i == 2 ? "<unk>" : std::string(1, "abXc"[i]));
    }
    // A failed translation leaves no source to read.
    EXPECT_EQ(enmt_translate(translator, "", 0, &options, &count), ENMT_SOURCE_EMPTY);
    EXPECT_EQ(enmt_get_source(translator, &ids, &len, &unknown), ENMT_NOT_INITIALIZED);
    EXPECT_EQ(enmt_get_source(nullptr, &ids, &len, &unknown), ENMT_INVALID_ARGUMENT);
  }
}

}  // namespace
}  // namespace edgenmt
