// Model verification against hostile files (issue 5, part 1): every golden checkpoint of
// tests/data/golden/, converted in memory, then truncated at every sixteenth of its length,
// corrupted by seeded random byte flips, and patched byte by byte (identifier, version, absurd
// dims, config/shape disagreement, misaligned tensor data, special ids out of range, NaN and
// negative scales). Every broken file must give a non-ok Status with a non-empty error_detail;
// a file that still verifies must translate or refuse cleanly. Nothing may crash or read
// outside the buffer: the buffers poison their rounding slack, so the ASan build
// (build/host-asan, part of `make test`) reports any read past the end.
//
// Patches are applied to the serialized bytes through the generated FlatBuffers accessors
// (GetAddressOf), not through the builder: they model what a damaged or crafted file holds,
// including values the converter would never write.
#include <math.h>
#include <string.h>

#include <functional>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "convert.h"
#include "edgenmt/model.h"
#include "edgenmt/translator.h"
#include "gtest/gtest.h"
#include "model_writer.h"
#include "robustness_support.h"

namespace edgenmt {
namespace {

using namespace ::edgenmt::robustness;  // NOLINT(build/namespaces): the shared test helpers

// ---- 1. Truncation, flips, identifier, empty --------------------------------------------------

TEST(RobustnessModel, GoldenFilesLoadAndTranslate) {
  for (const NamedFile& f : SweepFiles()) {
    EXPECT_EQ(LoadAndUse(f.bytes, f.name).status, Status::kOk) << f.name;
  }
  if (GoldenFiles().empty()) GTEST_SKIP() << "no golden checkpoints; only the tiny model ran";
}

TEST(RobustnessModel, EveryTruncationAtASixteenthIsRefused) {
  for (const NamedFile& f : SweepFiles()) {
    for (size_t k = 0; k < 16; ++k) {
      const size_t size = f.bytes.size() * k / 16;
      const Outcome o =
          LoadAndUse(f.bytes.data(), size, f.name + " truncated to " + std::to_string(k) + "/16");
      EXPECT_NE(o.status, Status::kOk) << f.name << " truncated to " << size << " bytes loaded";
      if (k == 0) EXPECT_REFUSED(o, Status::kInvalidArgument, "empty");
    }
  }
}

TEST(RobustnessModel, SeededRandomByteFlipsNeverCrash) {
  // Per file and seed: 1..8 flips, half anywhere in the file, half in its first 4 KiB (where the
  // builder puts the root and the small tables; tensor data, written first, sits at the end).
  constexpr uint32_t kSeeds = 150;
  std::map<std::string, int> by_status;
  int loaded = 0, refused = 0;
  for (const NamedFile& f : SweepFiles()) {
    for (uint32_t seed = 1; seed <= kSeeds; ++seed) {
      std::mt19937 rng(seed);
      std::vector<uint8_t> corrupt = f.bytes;
      const int flips = 1 + static_cast<int>(rng() % 8);
      for (int i = 0; i < flips; ++i) {
        const size_t span = (i % 2 == 0) ? corrupt.size() : std::min<size_t>(corrupt.size(), 4096);
        corrupt[rng() % span] ^= static_cast<uint8_t>(1 + rng() % 255);
      }
      const Outcome o = LoadAndUse(corrupt, f.name + " seed " + std::to_string(seed));
      ++by_status[StatusName(o.status)];
      (o.status == Status::kOk ? loaded : refused)++;
      if (HasFatalFailure()) return;
    }
  }
  std::string histogram;
  for (const auto& [name, count] : by_status) histogram += name + "=" + std::to_string(count) + " ";
  RecordProperty("outcomes", histogram);
  printf("byte flips: %d refused, %d loaded (changed weights); %s\n", refused, loaded,
         histogram.c_str());
  EXPECT_GT(refused, 0);
}

TEST(RobustnessModel, BadIdentifierIsMalformed) {
  for (const NamedFile& f : SweepFiles()) {
    for (size_t i = 4; i < 8; ++i) {
      std::vector<uint8_t> bytes = f.bytes;
      bytes[i] ^= 0x20;
      EXPECT_REFUSED(LoadAndUse(bytes, f.name), Status::kModelMalformed, "identifier");
    }
  }
}

TEST(RobustnessModel, EmptyAndTinyFilesAreRefused) {
  const uint8_t header[8] = {8, 0, 0, 0, 'E', 'N', 'M', 'T'};
  EXPECT_REFUSED(LoadAndUse(header, 0, "empty"), Status::kInvalidArgument, "empty");
  for (size_t size = 1; size <= sizeof header; ++size) {
    const Outcome o = LoadAndUse(header, size, "header only, " + std::to_string(size) + " bytes");
    EXPECT_EQ(o.status, Status::kModelMalformed) << size << ": " << o.detail;
  }
  const std::vector<uint8_t> zeros(4096, 0);
  EXPECT_REFUSED(LoadAndUse(zeros, "zeros"), Status::kModelMalformed, "identifier");
  // A root offset pointing past the end, and one pointing at itself.
  std::vector<uint8_t> bad_root(64, 0);
  memcpy(bad_root.data() + 4, "ENMT", 4);
  Poke<uint32_t>(&bad_root, 0, 0xFFFFFFF0u);
  EXPECT_EQ(LoadAndUse(bad_root, "root past end").status, Status::kModelMalformed);
  Poke<uint32_t>(&bad_root, 0, 0);  // the root table overlaps the header: version 0 at best
  EXPECT_NE(LoadAndUse(bad_root, "root at 0").status, Status::kOk);
}

TEST(RobustnessModel, MisalignedModelBufferIsAnArgumentError) {
  const NamedFile f = SweepFiles().front();
  for (size_t offset : {1, 2, 4, 8, 16, 32, 48, 63}) {
    EXPECT_REFUSED(
        LoadAndUse(f.bytes.data(), f.bytes.size(), "offset " + std::to_string(offset), offset),
        Status::kInvalidArgument, "aligned");
  }
}

// ---- 2. Version, dims, config, alignment, vocabularies, scales --------------------------------

TEST(RobustnessModel, FutureAndZeroVersionsAreRefusedByVersion) {
  for (const NamedFile& f : SweepFiles()) {
    const size_t at = FieldOffset(f.bytes, Root(f.bytes), fb::Model::VT_FORMAT_VERSION);
    for (uint32_t version : {kFormatVersion + 1, 0xFFFFFFFFu, 0u, 1000u}) {
      std::vector<uint8_t> bytes = f.bytes;
      Poke<uint32_t>(&bytes, at, version);
      EXPECT_REFUSED(LoadAndUse(bytes, f.name + " version " + std::to_string(version)),
                     Status::kModelVersionUnsupported, "file version " + std::to_string(version));
    }
  }
}

TEST(RobustnessModel, AbsurdTensorDimsAreRefusedByName) {
  for (const NamedFile& f : SweepFiles()) {
    // A Transformer's output matrix may be tgt_embed.weight (tied): its first FFN matrix instead.
    const char* matrix = f.transformer ? "decoder.0.linear1.weight" : "generator.weight";
    for (const char* name : {matrix, "src_embed.weight", "generator.bias"}) {
      const fb::Tensor* t = TensorNamed(f.bytes, name);
      ASSERT_NE(t, nullptr);
      for (uint32_t axis = 0; axis < t->shape()->size(); ++axis) {
        for (int32_t dim : {0, -1, INT32_MIN, INT32_MAX, kMaxModelDim + 1, 1 << 30}) {
          std::vector<uint8_t> bytes = f.bytes;
          Poke<int32_t>(&bytes, ElementOffset(bytes, TensorNamed(bytes, name)->shape(), axis), dim);
          EXPECT_REFUSED(LoadAndUse(bytes, f.name + " " + name), Status::kModelTensorInvalid, name);
        }
      }
    }
    // Every dim at the cap: the element count overflows 32 bits and must not wrap.
    const fb::Tensor* w = TensorNamed(f.bytes, matrix);
    std::vector<uint8_t> bytes = f.bytes;
    for (uint32_t axis = 0; axis < w->shape()->size(); ++axis)
      Poke<int32_t>(&bytes, ElementOffset(bytes, TensorNamed(bytes, matrix)->shape(), axis),
                    kMaxModelDim);
    EXPECT_REFUSED(LoadAndUse(bytes, f.name + " huge"), Status::kModelTensorInvalid, matrix);
    // A shape vector whose length prefix claims more elements than the file holds.
    bytes = f.bytes;
    const size_t length_at = ElementOffset(f.bytes, w->shape(), 0) - sizeof(uint32_t);
    Poke<uint32_t>(&bytes, length_at, 0x3FFFFFFFu);
    EXPECT_EQ(LoadAndUse(bytes, f.name + " shape length").status, Status::kModelMalformed);
    Poke<uint32_t>(&bytes, length_at, 7);  // rank 7 > kMaxTensorRank, still inside the file
    EXPECT_NE(LoadAndUse(bytes, f.name + " rank 7").status, Status::kOk);
  }
}

TEST(RobustnessModel, AbsurdConfigValuesAreRefused) {
  struct Case {
    flatbuffers::voffset_t field;      // in Config
    flatbuffers::voffset_t rnn_field;  // in Config.rnn (0: a common field)
    const char* name;
  };
  const Case cases[] = {
      {fb::Config::VT_SRC_VOCAB_SIZE, 0, "src_vocab_size"},
      {fb::Config::VT_TGT_VOCAB_SIZE, 0, "tgt_vocab_size"},
      {fb::Config::VT_SRC_EMBED, fb::RnnConfig::VT_SRC_EMBED, "src_embed"},
      {fb::Config::VT_TGT_EMBED, fb::RnnConfig::VT_TGT_EMBED, "tgt_embed"},
      {fb::Config::VT_ENC_HIDDEN, fb::RnnConfig::VT_ENC_HIDDEN, "enc_hidden"},
      {fb::Config::VT_ENC_LAYERS, 0, "enc_layers"},
      {fb::Config::VT_DEC_LAYERS, 0, "dec_layers"},
      {fb::Config::VT_DEC_HIDDEN, fb::RnnConfig::VT_DEC_HIDDEN, "dec_hidden"},
      {fb::Config::VT_MAX_SRC_LEN, 0, "max_src_len"},
  };
  for (const NamedFile& f : SweepFiles()) {
    for (const Case& c : cases) {
      // A Transformer has no RNN part (its own fields are checked by transformer_model_test).
      if (f.transformer && c.rnn_field != 0) continue;
      for (int32_t value : {0, -7, INT32_MIN, INT32_MAX, kMaxModelDim + 1}) {
        const std::vector<uint8_t> bytes =
            c.rnn_field != 0 ? WithRnnConfigInt(f.bytes, c.rnn_field, c.field, value)
                             : WithConfigInt(f.bytes, c.field, value);
        const Outcome o = LoadAndUse(bytes, f.name + " " + c.name + "=" + std::to_string(value));
        EXPECT_EQ(o.status, Status::kModelConfigInvalid)
            << c.name << "=" << value << ": " << o.detail;
        EXPECT_NE(o.detail.find(c.name), std::string::npos) << o.detail;
      }
    }
    // Enums outside their range (stored as bytes): the RNN's in Config.rnn (a Transformer
    // has none; its flat format-1 fields are not read), the common ones in Config.
    const fb::Config* config = Root(f.bytes)->config();
    const fb::RnnConfig* rnn = f.transformer ? nullptr : config->rnn();
    const uint8_t* enums[] = {
        rnn != nullptr ? AddressOf(rnn, fb::RnnConfig::VT_CELL) : nullptr,
        rnn != nullptr ? AddressOf(rnn, fb::RnnConfig::VT_ATTENTION) : nullptr,
        rnn != nullptr ? AddressOf(rnn, fb::RnnConfig::VT_SCORE) : nullptr,
        AddressOf(config, fb::Config::VT_TOKENIZER),
        AddressOf(config, fb::Config::VT_SCHEME),
    };
    for (const uint8_t* at : enums) {
      if (at == nullptr) continue;  // default value, not stored: nothing to patch
      std::vector<uint8_t> bytes = f.bytes;
      Poke<uint8_t>(&bytes, static_cast<size_t>(at - f.bytes.data()), 0x7F);
      EXPECT_EQ(LoadAndUse(bytes, f.name + " enum").status, Status::kModelConfigInvalid)
          << f.name << " enum at " << (at - f.bytes.data());
    }
  }
}

TEST(RobustnessModel, ConfigThatDisagreesWithTheTensorsIsRefused) {
  for (const NamedFile& f : SweepFiles()) {
    const fb::Config* config = Root(f.bytes)->config();
    // One more embedding column than the tensors have: the embedding tensor is named (an RNN's
    // embedding sizes; a Transformer's is d_model, in its own table).
    if (!f.transformer) {
      const fb::RnnConfig* rnn = config->rnn();
      const int32_t src_embed = rnn != nullptr ? rnn->src_embed() : config->src_embed();
      const int32_t tgt_embed = rnn != nullptr ? rnn->tgt_embed() : config->tgt_embed();
      EXPECT_REFUSED(LoadAndUse(WithRnnConfigInt(f.bytes, fb::RnnConfig::VT_SRC_EMBED,
                                                 fb::Config::VT_SRC_EMBED, src_embed + 1),
                                f.name + " src_embed+1"),
                     Status::kModelTensorInvalid, "src_embed.weight");
      EXPECT_REFUSED(LoadAndUse(WithRnnConfigInt(f.bytes, fb::RnnConfig::VT_TGT_EMBED,
                                                 fb::Config::VT_TGT_EMBED, tgt_embed - 1),
                                f.name + " tgt_embed-1"),
                     Status::kModelTensorInvalid, "tgt_embed.weight");
    }
    // More layers than tensors: the first missing tensor of the new layer (bridge.N.* or
    // decoder.layers.N.*) is named.
    if (config->dec_layers() < kMaxModelLayers) {
      EXPECT_REFUSED(
          LoadAndUse(WithConfigInt(f.bytes, fb::Config::VT_DEC_LAYERS, config->dec_layers() + 1),
                     f.name + " dec_layers+1"),
          Status::kModelTensorMissing, "." + std::to_string(config->dec_layers()) + ".");
    }
    // Vocabulary sizes are checked against the token lists.
    EXPECT_REFUSED(LoadAndUse(WithConfigInt(f.bytes, fb::Config::VT_TGT_VOCAB_SIZE,
                                            config->tgt_vocab_size() + 1),
                              f.name + " tgt_vocab_size+1"),
                   Status::kModelVocabularyInvalid, "tgt_vocab");
    // A smaller max_src_len than the location score width / arena plan.
    if (config->max_src_len() > 1) {
      const Outcome o =
          LoadAndUse(WithConfigInt(f.bytes, fb::Config::VT_MAX_SRC_LEN, config->max_src_len() - 1),
                     f.name + " max_src_len-1");
      EXPECT_NE(o.status, Status::kOk) << o.detail;
    }
  }
}

TEST(RobustnessModel, MisalignedTensorDataIsRefusedByName) {
  // Move generator.bias's data 16 bytes further into its own buffer (new length prefix written
  // there, shape shrunk by 4 floats so the size still matches): only the alignment check is
  // left to catch it.
  for (const NamedFile& f : SweepFiles()) {
    std::vector<uint8_t> bytes = f.bytes;
    const fb::Tensor* t = TensorNamed(bytes, "generator.bias");
    ASSERT_NE(t, nullptr);
    const int32_t n = t->shape()->Get(0);
    ASSERT_GT(n, 4);
    const fb::Buffer* buffer = Root(bytes)->buffers()->Get(t->buffer());
    const size_t field_at = FieldOffset(bytes, buffer, fb::Buffer::VT_DATA);
    const uint32_t relative = Peek<uint32_t>(bytes, field_at);
    const size_t length_at = field_at + relative;
    ASSERT_EQ(Peek<uint32_t>(bytes, length_at), static_cast<uint32_t>(n) * 4);
    Poke<uint32_t>(&bytes, length_at + 16, static_cast<uint32_t>(n - 4) * 4);
    Poke<uint32_t>(&bytes, field_at, relative + 16);
    Poke<int32_t>(&bytes, ElementOffset(bytes, TensorNamed(bytes, "generator.bias")->shape(), 0),
                  n - 4);
    const Outcome o = LoadAndUse(bytes, f.name);
    EXPECT_EQ(o.status, Status::kModelTensorInvalid) << o.detail;
    EXPECT_NE(o.detail.find("generator.bias"), std::string::npos) << o.detail;
    EXPECT_NE(o.detail.find("aligned"), std::string::npos) << o.detail;
  }
}

TEST(RobustnessModel, SpecialIdsOutOfRangeAreRefused) {
  struct Id {
    flatbuffers::voffset_t field;
    const char* name;
  };
  const Id ids[] = {{fb::Vocabulary::VT_PAD_ID, "pad_id"},
                    {fb::Vocabulary::VT_UNK_ID, "unk_id"},
                    {fb::Vocabulary::VT_BOS_ID, "bos_id"},
                    {fb::Vocabulary::VT_EOS_ID, "eos_id"}};
  for (const NamedFile& f : SweepFiles()) {
    for (const bool source : {true, false}) {
      const fb::Vocabulary* vocab =
          source ? Root(f.bytes)->src_vocab() : Root(f.bytes)->tgt_vocab();
      const int32_t size = static_cast<int32_t>(vocab->tokens()->size());
      const std::string which = source ? "src_vocab" : "tgt_vocab";
      for (const Id& id : ids) {
        const uint8_t* p = AddressOf(vocab, id.field);
        if (p == nullptr) continue;  // pad_id 0 is the default and not stored
        for (int32_t value : {size, size + 100, -1, INT32_MIN, INT32_MAX}) {
          std::vector<uint8_t> bytes = f.bytes;
          Poke<int32_t>(&bytes, static_cast<size_t>(p - f.bytes.data()), value);
          EXPECT_REFUSED(LoadAndUse(bytes, f.name + " " + which + "." + id.name),
                         Status::kModelVocabularyInvalid, which + "." + id.name);
        }
      }
      // sorted_ids pointing outside the vocabulary, or twice at one id.
      std::vector<uint8_t> bytes = f.bytes;
      Poke<int32_t>(&bytes, ElementOffset(f.bytes, vocab->sorted_ids(), 0), size);
      EXPECT_REFUSED(LoadAndUse(bytes, f.name + " sorted_ids"), Status::kModelVocabularyInvalid,
                     "sorted_ids");
      bytes = f.bytes;
      Poke<int32_t>(&bytes, ElementOffset(f.bytes, vocab->sorted_ids(), 1),
                    vocab->sorted_ids()->Get(0));
      EXPECT_EQ(LoadAndUse(bytes, f.name + " sorted_ids dup").status,
                Status::kModelVocabularyInvalid);
    }
  }
}

}  // namespace
}  // namespace edgenmt
