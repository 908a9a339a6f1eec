// Model::Load: accepts a good file, and refuses every kind of broken file with the right
// status and a detail naming the culprit, without reading outside the buffer (run under ASan).
#include <math.h>
#include <string.h>

#include <functional>
#include <string>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/model.h"
#include "edgenmt/schema/edgenmt_generated.h"
#include "edgenmt/internal/tensor_layout.h"
#include "gtest/gtest.h"
#include "model_writer.h"
#include "tiny_checkpoint.h"
#include "model_load_support.h"

namespace edgenmt {
namespace {

using namespace ::edgenmt::model_load_testing;  // NOLINT(build/namespaces): the shared test helpers

TEST(ModelLoad, AcceptsAGoodFileAndExposesEverything) {
  const std::vector<uint8_t> bytes = converter::BuildModelFile(GoodContents());
  AlignedBuffer buffer(bytes);
  Model model;
  ASSERT_EQ(model.Load(buffer.data(), buffer.size()), Status::kOk) << model.error_detail();
  EXPECT_TRUE(model.loaded());
  EXPECT_EQ(model.format_version(), kFormatVersion);
  EXPECT_EQ(model.buffer(), buffer.data());
  EXPECT_EQ(model.buffer_size(), bytes.size());
  EXPECT_EQ(model.config().rnn.dec_hidden, testing::TinyConfig().rnn.dec_hidden);
  EXPECT_EQ(std::string(model.provenance().created), "2024-01-01");
  EXPECT_EQ(std::string(model.provenance().checkpoint_sha256).size(), 64u);
  EXPECT_EQ(model.decoding_defaults().beam, converter::kDefaultBeam);
  EXPECT_EQ(model.arena_plan().beam, converter::kDefaultBeam);

  const auto& tensors = GoodContents().tensors;
  ASSERT_EQ(model.num_tensors(), static_cast<int32_t>(tensors.size()));
  for (int32_t i = 0; i < model.num_tensors(); ++i) {
    TensorView view{};
    ASSERT_EQ(model.TensorAt(i, &view), Status::kOk);
    EXPECT_EQ(std::string(view.name), tensors[static_cast<size_t>(i)].name);
    EXPECT_EQ(view.bytes, tensors[static_cast<size_t>(i)].data.size());
    EXPECT_EQ(static_cast<size_t>(view.element_count()) * DTypeSize(view.dtype), view.bytes);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(view.data) % kModelBufferAlignment, 0u);
    const uint8_t* p = static_cast<const uint8_t*>(view.data);
    EXPECT_TRUE(p >= buffer.data() && p + view.bytes <= buffer.data() + buffer.size());
  }
  TensorView view{};
  EXPECT_EQ(model.TensorAt(-1, &view), Status::kModelTensorMissing);
  EXPECT_EQ(model.TensorAt(model.num_tensors(), &view), Status::kModelTensorMissing);
  EXPECT_EQ(model.FindTensor("no.such.tensor", &view), Status::kModelTensorMissing);
  EXPECT_EQ(model.FindTensor(nullptr, &view), Status::kInvalidArgument);
  EXPECT_EQ(model.src_vocab().Token(-1).size, 0u);
  EXPECT_EQ(model.src_vocab().Token(model.src_vocab().size).size, 0u);
  EXPECT_EQ(model.src_vocab().Find("</s>", 4), 3);
}

TEST(ModelLoad, AccessorsOnAnUnloadedModelAreSafe) {
  Model model;
  TensorView view{};
  EXPECT_FALSE(model.loaded());
  EXPECT_EQ(model.num_tensors(), 0);
  EXPECT_EQ(model.TensorAt(0, &view), Status::kNotInitialized);
  EXPECT_EQ(model.FindTensor("generator.bias", &view), Status::kNotInitialized);
  EXPECT_STREQ(model.provenance().source, "");
  EXPECT_EQ(model.src_vocab().Find("a", 1), -1);
  EXPECT_EQ(model.src_vocab().Token(0).size, 0u);
}

TEST(ModelLoad, RejectsNullEmptyAndMisalignedBuffers) {
  const std::vector<uint8_t> bytes = converter::BuildModelFile(GoodContents());
  Model model;
  EXPECT_EQ(model.Load(nullptr, bytes.size()), Status::kInvalidArgument);
  AlignedBuffer good(bytes);
  EXPECT_EQ(model.Load(good.data(), 0), Status::kInvalidArgument);
  EXPECT_NE(std::string(model.error_detail()).find("empty"), std::string::npos);
  for (size_t offset : {1, 4, 8, 32}) {
    AlignedBuffer shifted(bytes, offset);
    EXPECT_EQ(model.Load(shifted.data(), shifted.size()), Status::kInvalidArgument) << offset;
    EXPECT_NE(std::string(model.error_detail()).find("aligned"), std::string::npos);
    EXPECT_FALSE(model.loaded());
  }
}

TEST(ModelLoad, RejectsABadIdentifier) {
  std::vector<uint8_t> bytes = converter::BuildModelFile(GoodContents());
  bytes[4] = 'X';
  EXPECT_LOAD_FAILS(LoadBytes(bytes), Status::kModelMalformed, "identifier");
  EXPECT_LOAD_FAILS(LoadBytes(std::vector<uint8_t>(64, 0)), Status::kModelMalformed, "identifier");
}

TEST(ModelLoad, RejectsEveryTruncation) {
  const std::vector<uint8_t> bytes = converter::BuildModelFile(GoodContents());
  for (size_t k = 0; k < 16; ++k) {
    const size_t size = bytes.size() * k / 16;
    const std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + static_cast<long>(size));
    AlignedBuffer buffer(truncated);
    Model model;
    const Status status = model.Load(size == 0 ? buffer.data() : buffer.data(), size);
    EXPECT_NE(status, Status::kOk) << "truncated to " << size << " of " << bytes.size();
    EXPECT_FALSE(model.loaded());
  }
  // And a few bytes short of the last byte any table or tensor uses (the file may end in
  // alignment padding, which is harmless to lose).
  size_t used_end = 0;
  for (const auto* b : *schema::GetModel(bytes.data())->buffers()) {
    used_end = std::max(used_end,
                        static_cast<size_t>(b->data()->data() - bytes.data()) + b->data()->size());
  }
  ASSERT_GT(used_end, 64u);
  for (size_t cut : {1, 4, 63, 64}) {
    const std::vector<uint8_t> truncated(bytes.begin(),
                                         bytes.begin() + static_cast<long>(used_end - cut));
    EXPECT_NE(LoadBytes(truncated).status, Status::kOk) << cut;
  }
}

TEST(ModelLoad, SurvivesCorruptedBytes) {
  // Flip each byte of the table area (FlatBuffers puts the tensor data, written first, at the
  // end): Load may accept (a changed weight) or refuse, but must stay inside the buffer and
  // never report a loaded model whose accessors misbehave.
  const std::vector<uint8_t> bytes = converter::BuildModelFile(GoodContents());
  const size_t limit = std::min<size_t>(bytes.size(), 4096);
  int refused = 0;
  for (size_t i = 0; i < limit; ++i) {
    std::vector<uint8_t> corrupt = bytes;
    corrupt[i] ^= 0xA5;
    AlignedBuffer buffer(corrupt);
    Model model;
    if (model.Load(buffer.data(), buffer.size()) != Status::kOk) {
      ++refused;
      continue;
    }
    for (int32_t t = 0; t < model.num_tensors(); ++t) {
      TensorView view{};
      ASSERT_EQ(model.TensorAt(t, &view), Status::kOk);
      const uint8_t* p = static_cast<const uint8_t*>(view.data);
      ASSERT_TRUE(p >= buffer.data() && p + view.bytes <= buffer.data() + buffer.size());
    }
    for (int32_t id = 0; id < model.src_vocab().size; ++id) (void)model.src_vocab().Token(id);
  }
  EXPECT_GT(refused, 0);
}

// Format 1 kept the RNN's options in Config's flat fields (schema/edgenmt.fbs); such a file
// still loads, into the same ModelConfig as the format 2 file of the same contents.
TEST(ModelLoad, FormatOneFilesStillLoadTheirRnnOptions) {
  ModelFileContents v1 = GoodContents();
  v1.format_version = 1;
  const std::vector<uint8_t> bytes1 = converter::BuildModelFile(v1);
  const std::vector<uint8_t> bytes2 = converter::BuildModelFile(GoodContents());
  ASSERT_NE(bytes1, bytes2);
  AlignedBuffer buffer1(bytes1), buffer2(bytes2);
  Model model1, model2;
  ASSERT_EQ(model1.Load(buffer1.data(), buffer1.size()), Status::kOk) << model1.error_detail();
  ASSERT_EQ(model2.Load(buffer2.data(), buffer2.size()), Status::kOk) << model2.error_detail();
  EXPECT_EQ(model1.format_version(), 1u);
  EXPECT_EQ(model2.format_version(), kFormatVersion);
  const RnnConfig& a = model1.config().rnn;
  const RnnConfig& b = model2.config().rnn;
  const RnnConfig& want = GoodContents().config.rnn;
  for (const RnnConfig* r : {&a, &b}) {
    EXPECT_EQ(r->cell, want.cell);
    EXPECT_EQ(r->src_embed, want.src_embed);
    EXPECT_EQ(r->tgt_embed, want.tgt_embed);
    EXPECT_EQ(r->enc_hidden, want.enc_hidden);
    EXPECT_EQ(r->bidirectional, want.bidirectional);
    EXPECT_EQ(r->reverse_source, want.reverse_source);
    EXPECT_EQ(r->dec_hidden, want.dec_hidden);
    EXPECT_EQ(r->bridge, want.bridge);
    EXPECT_EQ(r->input_feeding, want.input_feeding);
    EXPECT_EQ(r->attention, want.attention);
    EXPECT_EQ(r->score, want.score);
    EXPECT_EQ(r->attn_hidden, want.attn_hidden);
    EXPECT_EQ(r->window, want.window);
  }
  EXPECT_EQ(model1.num_tensors(), model2.num_tensors());
}

TEST(ModelLoad, RejectsFutureAndAncientVersions) {
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { c.format_version = kFormatVersion + 1; }),
      Status::kModelVersionUnsupported, "file version 3, runtime reads 1..2");
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) { c.format_version = 0; }),
                    Status::kModelVersionUnsupported, "file version 0");
}

TEST(ModelLoad, RejectsMisalignedTensorData) {
  // With 4-byte alignment some tensor lands off a 64-byte boundary; a leading odd-sized tensor
  // shifts the rest. Try shifts until at least one tensor is misaligned.
  bool tested = false;
  for (int extra = 1; extra <= 16 && !tested; ++extra) {
    ModelFileContents c = GoodContents();
    c.data_alignment = 4;
    c.tensors.back().data.resize(c.tensors.back().data.size() + 4 * static_cast<size_t>(extra));
    c.tensors.back().shape.back() += extra;  // keep bytes == shape (checked before alignment)
    const std::vector<uint8_t> bytes = converter::BuildModelFile(c);
    const auto* root = schema::GetModel(bytes.data());
    bool misaligned = false;
    for (const auto* b : *root->buffers()) {
      misaligned |=
          static_cast<size_t>(b->data()->data() - bytes.data()) % kModelBufferAlignment != 0;
    }
    if (!misaligned) continue;
    tested = true;
    const LoadResult r = LoadBytes(bytes);
    EXPECT_EQ(r.status, Status::kModelTensorInvalid) << r.detail;
    EXPECT_NE(r.detail.find("aligned"), std::string::npos) << r.detail;
  }
  EXPECT_TRUE(tested);
}

TEST(ModelLoad, RejectsAbsurdShapes) {
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) {
                      Tensor(c, "generator.weight").shape = {1 << 30, 1 << 30};
                    }),
                    Status::kModelTensorInvalid, "generator.weight");
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) {
                      Tensor(c, "generator.weight").shape = {65536, 65536, 65536, 65536};
                    }),
                    Status::kModelTensorInvalid, "generator.weight");
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { Tensor(c, "generator.bias").shape = {0}; }),
      Status::kModelTensorInvalid, "generator.bias");
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { Tensor(c, "generator.bias").shape = {-9}; }),
      Status::kModelTensorInvalid, "generator.bias");
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { Tensor(c, "generator.bias").shape = {}; }),
      Status::kModelTensorInvalid, "rank");
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) {
                      Tensor(c, "generator.bias").shape = {1, 1, 1, 1, 9};
                    }),
                    Status::kModelTensorInvalid, "rank");
}

TEST(ModelLoad, RejectsBufferSizeMismatch) {
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) {
        Tensor(c, "tgt_embed.weight").data.resize(Tensor(c, "tgt_embed.weight").data.size() - 4);
      }),
      Status::kModelTensorInvalid, "tgt_embed.weight");
}

TEST(ModelLoad, RejectsShapesThatDisagreeWithTheConfig) {
  // Same bytes, transposed: only the config comparison can catch it.
  const LoadResult r = LoadMutated([](ModelFileContents& c) {
    auto& shape = Tensor(c, "attn.linear_in.weight").shape;
    std::swap(shape[0], shape[1]);
  });
  EXPECT_EQ(r.status, Status::kModelTensorInvalid) << r.detail;
  EXPECT_NE(r.detail.find("attn.linear_in.weight: shape [8, 10], the config needs [10, 8]"),
            std::string::npos)
      << r.detail;
  // A config change the tensors no longer match.
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) { c.config.rnn.tgt_embed += 1; }),
                    Status::kModelTensorInvalid, "tgt_embed.weight");
}

TEST(ModelLoad, RejectsMissingExtraAndDuplicateTensors) {
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { c.tensors.erase(c.tensors.begin() + 3); }),
      Status::kModelTensorMissing, GoodContents().tensors[3].name);
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) {
                      TensorRecord extra = c.tensors.back();
                      extra.name = "attn.v.weight";
                      c.tensors.push_back(extra);
                    }),
                    Status::kModelTensorInvalid, "attn.v.weight");
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { c.tensors.push_back(c.tensors.front()); }),
      Status::kModelTensorInvalid, "twice");
}

TEST(ModelLoad, RejectsInvalidConfigs) {
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) { c.config.rnn.score = ScoreType::kDot; }),
                    Status::kModelConfigInvalid, "dot");
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) { c.config.enc_layers = 0; }),
                    Status::kModelConfigInvalid, "enc_layers");
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) { c.config.rnn.dec_hidden = 1 << 21; }),
                    Status::kModelConfigInvalid, "dec_hidden");
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { c.config.rnn.cell = static_cast<CellType>(7); }),
      Status::kModelConfigInvalid, "cell");
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { c.config.rnn.attention = AttentionType::kNone; }),
      Status::kModelConfigInvalid, "input_feeding");
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { c.decoding.nbest = c.decoding.beam + 1; }),
      Status::kModelConfigInvalid, "decoding.nbest: ");
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) { c.decoding.alpha = -1; }),
                    Status::kModelConfigInvalid, "decoding.alpha: must be finite and >= 0");
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { c.decoding.min_len = c.decoding.max_len + 1; }),
      Status::kModelConfigInvalid, "decoding.min_len: ");
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) { c.arena_plan.max_src_len = 1000; }),
                    Status::kModelConfigInvalid, "arena_plan.max_src_len");
}

TEST(ModelLoad, RejectsBadVocabularies) {
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) { c.src_vocab.tokens.pop_back(); }),
                    Status::kModelVocabularyInvalid, "src_vocab");
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { c.tgt_vocab.tokens[6] = c.tgt_vocab.tokens[5]; }),
      Status::kModelVocabularyInvalid, "duplicate");
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) { c.tgt_vocab.tokens[6] = ""; }),
                    Status::kModelVocabularyInvalid, "empty");
  EXPECT_LOAD_FAILS(LoadMutated([](ModelFileContents& c) { c.src_vocab.eos_id = 99; }),
                    Status::kModelVocabularyInvalid, "eos_id");
  EXPECT_LOAD_FAILS(
      LoadMutated([](ModelFileContents& c) { c.tgt_vocab.bos_id = c.tgt_vocab.eos_id; }),
      Status::kModelVocabularyInvalid, "tgt_vocab.eos_id == tgt_vocab.bos_id");
}

}  // namespace
}  // namespace edgenmt
