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
#include <stdlib.h>
#include <string.h>

#include <sanitizer/asan_interface.h>

#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/model.h"
#include "edgenmt/schema/edgenmt_generated.h"
#include "edgenmt/translator.h"
#include "gtest/gtest.h"
#include "model_writer.h"
#include "tiny_checkpoint.h"

namespace edgenmt {
namespace {

namespace fb = ::edgenmt::schema;

// ---- Model files --------------------------------------------------------------------------

struct NamedFile {
  std::string name;
  std::vector<uint8_t> bytes;
  bool transformer = false;  // model_type transformer: the RNN's config fields are not read
};

converter::ConvertOptions Options() {
  converter::ConvertOptions options;
  options.created = "2024-01-01";
  return options;
}

// Every golden checkpoint, converted in memory exactly as edgenmt-convert would.
const std::vector<NamedFile>& GoldenFiles() {
  static const std::vector<NamedFile> files = [] {
    std::vector<NamedFile> out;
    const std::filesystem::path golden = std::filesystem::path(EDGENMT_TEST_DATA_DIR) / "golden";
    std::vector<std::filesystem::path> dirs;
    if (std::filesystem::exists(golden)) {
      for (const auto& entry : std::filesystem::directory_iterator(golden)) {
        if (std::filesystem::exists(entry.path() / "config.json")) dirs.push_back(entry.path());
      }
    }
    std::sort(dirs.begin(), dirs.end());
    for (const auto& dir : dirs) {
      const converter::Checkpoint ckpt = converter::LoadCheckpoint(dir.string());
      out.push_back({dir.filename().string(),
                     converter::BuildModelFile(converter::MakeModelFileContents(ckpt, Options())),
                     ckpt.config.model_type == ModelType::kTransformer});
    }
    return out;
  }();
  return files;
}

// The tiny model (tests/tiny_checkpoint.h) as ModelFileContents, for builder-made variants.
const converter::ModelFileContents& TinyContents() {
  static const converter::ModelFileContents contents = [] {
    converter::Checkpoint ckpt;
    ckpt.dir = "tiny";
    ckpt.config = testing::TinyConfig();
    ckpt.src_tokens = testing::TinyTokens(ckpt.config.src_vocab_size);
    ckpt.tgt_tokens = testing::TinyTokens(ckpt.config.tgt_vocab_size);
    ckpt.tensors = testing::TinyTensors(ckpt.config);
    return converter::MakeModelFileContents(ckpt, Options());
  }();
  return contents;
}

// The files every sweep runs over: the goldens (real trained shapes) or, if the directory is
// missing, the tiny model so the suite still means something.
std::vector<NamedFile> SweepFiles() {
  std::vector<NamedFile> files = GoldenFiles();
  files.push_back({"tiny", converter::BuildModelFile(TinyContents()), false});
  return files;
}

// A 64-byte aligned copy whose allocation slack (up to the next multiple of 64) is poisoned, so
// under ASan a read at or past `size` is reported like a read past an exact-size allocation.
class PoisonedCopy {
 public:
  PoisonedCopy(const uint8_t* bytes, size_t size, size_t offset = 0)
      : rounded_((size + offset + 63) / 64 * 64 + 64),
        storage_(static_cast<uint8_t*>(aligned_alloc(kModelBufferAlignment, rounded_))),
        data_(storage_ + offset),
        size_(size) {
    if (size > 0) memcpy(data_, bytes, size);
    ASAN_POISON_MEMORY_REGION(data_ + size_, rounded_ - offset - size_);
  }
  explicit PoisonedCopy(const std::vector<uint8_t>& bytes, size_t offset = 0)
      : PoisonedCopy(bytes.data(), bytes.size(), offset) {}
  ~PoisonedCopy() {
    ASAN_UNPOISON_MEMORY_REGION(storage_, rounded_);
    free(storage_);
  }
  PoisonedCopy(const PoisonedCopy&) = delete;
  PoisonedCopy& operator=(const PoisonedCopy&) = delete;
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  size_t rounded_;
  uint8_t* storage_;
  uint8_t* data_;
  size_t size_;
};

// ---- Using a model the way the runtime's callers do ------------------------------------------

// Everything a caller can reach on a loaded model, checked to stay inside the buffer, then a
// Translator sized by RequiredArenaBytes (capped limits) translating a short source.
void UseLoadedModel(const Model& model, const uint8_t* buffer, size_t size, const std::string& where) {
  SCOPED_TRACE(where);
  for (int32_t i = 0; i < model.num_tensors(); ++i) {
    TensorView view{};
    ASSERT_EQ(model.TensorAt(i, &view), Status::kOk);
    const uint8_t* p = static_cast<const uint8_t*>(view.data);
    ASSERT_TRUE(p >= buffer && view.bytes <= size && static_cast<size_t>(p - buffer) <= size - view.bytes)
        << view.name;
    ASSERT_EQ(static_cast<size_t>(view.element_count()) * DTypeSize(view.dtype), view.bytes);
    for (int32_t k = 0; k < view.num_scales; ++k) ASSERT_TRUE(isfinite(view.scales[k]) && view.scales[k] > 0);
  }
  for (const VocabularyView& vocab : {model.src_vocab(), model.tgt_vocab()}) {
    for (int32_t id = 0; id < vocab.size; ++id) {
      const TokenView token = vocab.Token(id);
      ASSERT_EQ(vocab.Find(token.data, token.size), id);
    }
  }
  const Provenance provenance = model.provenance();
  EXPECT_LT(strlen(provenance.source) + strlen(provenance.created), size);

  SessionLimits limits;
  limits.max_src_len = std::min(model.config().max_src_len, 8);
  limits.max_beam = 3;
  limits.max_nbest = 2;
  limits.max_tgt_len = 10;
  size_t bytes = 0;
  const Status plan = RequiredArenaBytes(model, limits, &bytes);
  if (plan != Status::kOk || bytes > (size_t{64} << 20)) return;  // e.g. an int8 scheme
  std::vector<uint8_t> storage(bytes + 16);
  uint8_t* arena = storage.data() + (16 - reinterpret_cast<uintptr_t>(storage.data()) % 16) % 16;
  Translator translator;
  ASSERT_EQ(translator.Init(&model, arena, bytes, limits), Status::kOk) << translator.error_detail();
  TranslateOptions options;
  options.beam = 3;
  options.nbest = 2;
  options.max_len = 10;
  options.alpha = 0.6f;
  options.beta = model.config().rnn.attention == AttentionType::kNone ? 0.0f : 0.2f;
  TranslationResult result;
  const Status status = translator.Translate("hello", 5, options, &result);
  if (status == Status::kOk) {
    ASSERT_GE(result.num_hypotheses, 1);
    for (int32_t h = 0; h < result.num_hypotheses; ++h) {
      EXPECT_EQ(strlen(result.hypotheses[h].text), result.hypotheses[h].text_length);
      EXPECT_LE(result.hypotheses[h].length, options.max_len);
    }
  } else {
    EXPECT_STRNE(translator.error_detail(), "") << StatusName(status);
  }
}

struct Outcome {
  Status status;
  std::string detail;
};

// Loads `bytes[0, size)`; a refusal must leave an unloaded model and a detail, an acceptance
// must give a usable model.
Outcome LoadAndUse(const uint8_t* bytes, size_t size, const std::string& where, size_t offset = 0) {
  PoisonedCopy copy(bytes, size, offset);
  Model model;
  const Status status = model.Load(copy.data(), copy.size());
  const Outcome outcome{status, model.error_detail()};
  if (status == Status::kOk) {
    EXPECT_TRUE(model.loaded()) << where;
    UseLoadedModel(model, copy.data(), copy.size(), where);
  } else {
    EXPECT_FALSE(model.loaded()) << where;
    EXPECT_EQ(model.num_tensors(), 0) << where;
    EXPECT_FALSE(outcome.detail.empty()) << where << ": " << StatusName(status) << " without a detail";
    EXPECT_STRNE(StatusName(status), "") << where;
  }
  return outcome;
}

Outcome LoadAndUse(const std::vector<uint8_t>& bytes, const std::string& where) {
  return LoadAndUse(bytes.data(), bytes.size(), where);
}

#define EXPECT_REFUSED(outcome, want_status, want_text)                                        \
  do {                                                                                         \
    const Outcome o_ = (outcome);                                                              \
    EXPECT_EQ(o_.status, want_status) << StatusName(o_.status) << ": " << o_.detail;           \
    EXPECT_NE(o_.detail.find(want_text), std::string::npos) << "detail: " << o_.detail;        \
  } while (0)

// ---- Byte patches through the generated accessors ---------------------------------------------

// Where a field of a generated table is stored, or null when absent (defaults are not stored).
// Generated tables derive privately from flatbuffers::Table at the same address.
template <typename T>
const uint8_t* AddressOf(const T* table, flatbuffers::voffset_t field) {
  return reinterpret_cast<const flatbuffers::Table*>(table)->GetAddressOf(field);
}

// Offset of a scalar field of `table` inside `bytes`; fails the test if the field is absent.
template <typename T>
size_t FieldOffset(const std::vector<uint8_t>& bytes, const T* table, flatbuffers::voffset_t field) {
  const uint8_t* p = AddressOf(table, field);
  EXPECT_NE(p, nullptr) << "field not stored";
  return p == nullptr ? 0 : static_cast<size_t>(p - bytes.data());
}

template <typename T>
void Poke(std::vector<uint8_t>* bytes, size_t offset, T value) {
  ASSERT_LE(offset + sizeof(T), bytes->size());
  memcpy(bytes->data() + offset, &value, sizeof(T));
}

template <typename T>
T Peek(const std::vector<uint8_t>& bytes, size_t offset) {
  T value;
  memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

const fb::Model* Root(const std::vector<uint8_t>& bytes) { return fb::GetModel(bytes.data()); }

const fb::Tensor* TensorNamed(const std::vector<uint8_t>& bytes, const std::string& name) {
  for (const fb::Tensor* t : *Root(bytes)->tensors()) {
    if (t->name()->str() == name) return t;
  }
  ADD_FAILURE() << "no tensor " << name;
  return nullptr;
}

// Offset of element `i` of a vector inside `bytes`.
template <typename V>
size_t ElementOffset(const std::vector<uint8_t>& bytes, const V* vector, uint32_t i) {
  return static_cast<size_t>(reinterpret_cast<const uint8_t*>(vector->Data()) - bytes.data()) +
         i * sizeof(typename V::return_type);
}

// A copy of `bytes` with one int32 config field set to `value`.
std::vector<uint8_t> WithConfigInt(const std::vector<uint8_t>& bytes, flatbuffers::voffset_t field,
                                   int32_t value) {
  std::vector<uint8_t> out = bytes;
  Poke<int32_t>(&out, FieldOffset(out, Root(out)->config(), field), value);
  return out;
}

// The same for one of the RNN's options: in Config.rnn (format 2) or, in a format 1 file,
// Config's flat field of that name.
std::vector<uint8_t> WithRnnConfigInt(const std::vector<uint8_t>& bytes, flatbuffers::voffset_t rnn_field,
                                      flatbuffers::voffset_t flat_field, int32_t value) {
  std::vector<uint8_t> out = bytes;
  const fb::Config* config = Root(out)->config();
  if (config->rnn() != nullptr) {
    Poke<int32_t>(&out, FieldOffset(out, config->rnn(), rnn_field), value);
  } else {
    Poke<int32_t>(&out, FieldOffset(out, config, flat_field), value);
  }
  return out;
}

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
      const Outcome o = LoadAndUse(f.bytes.data(), size,
                                   f.name + " truncated to " + std::to_string(k) + "/16");
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
  printf("byte flips: %d refused, %d loaded (changed weights); %s\n", refused, loaded, histogram.c_str());
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
    EXPECT_REFUSED(LoadAndUse(f.bytes.data(), f.bytes.size(), "offset " + std::to_string(offset), offset),
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
    flatbuffers::voffset_t field;       // in Config
    flatbuffers::voffset_t rnn_field;   // in Config.rnn (0: a common field)
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
        const std::vector<uint8_t> bytes = c.rnn_field != 0
                                               ? WithRnnConfigInt(f.bytes, c.rnn_field, c.field, value)
                                               : WithConfigInt(f.bytes, c.field, value);
        const Outcome o = LoadAndUse(bytes, f.name + " " + c.name + "=" + std::to_string(value));
        EXPECT_EQ(o.status, Status::kModelConfigInvalid) << c.name << "=" << value << ": " << o.detail;
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
      EXPECT_REFUSED(LoadAndUse(WithConfigInt(f.bytes, fb::Config::VT_DEC_LAYERS, config->dec_layers() + 1),
                                f.name + " dec_layers+1"),
                     Status::kModelTensorMissing, "." + std::to_string(config->dec_layers()) + ".");
    }
    // Vocabulary sizes are checked against the token lists.
    EXPECT_REFUSED(LoadAndUse(WithConfigInt(f.bytes, fb::Config::VT_TGT_VOCAB_SIZE, config->tgt_vocab_size() + 1),
                              f.name + " tgt_vocab_size+1"),
                   Status::kModelVocabularyInvalid, "tgt_vocab");
    // A smaller max_src_len than the location score width / arena plan.
    if (config->max_src_len() > 1) {
      const Outcome o = LoadAndUse(WithConfigInt(f.bytes, fb::Config::VT_MAX_SRC_LEN, config->max_src_len() - 1),
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
    Poke<int32_t>(&bytes, ElementOffset(bytes, TensorNamed(bytes, "generator.bias")->shape(), 0), n - 4);
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
      const fb::Vocabulary* vocab = source ? Root(f.bytes)->src_vocab() : Root(f.bytes)->tgt_vocab();
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
      EXPECT_REFUSED(LoadAndUse(bytes, f.name + " sorted_ids"), Status::kModelVocabularyInvalid, "sorted_ids");
      bytes = f.bytes;
      Poke<int32_t>(&bytes, ElementOffset(f.bytes, vocab->sorted_ids(), 1), vocab->sorted_ids()->Get(0));
      EXPECT_EQ(LoadAndUse(bytes, f.name + " sorted_ids dup").status, Status::kModelVocabularyInvalid);
    }
  }
}

// The converter writes no int8 file yet, so the quantized tensor is made with the builder (the
// converter's own ModelFileContents) and its scales are then patched in the bytes.
std::vector<uint8_t> Int8File() {
  converter::ModelFileContents c = TinyContents();
  c.config.scheme = QuantScheme::kInt8Hybrid;
  for (converter::TensorRecord& t : c.tensors) {
    if (t.name != "generator.weight") continue;
    const size_t count = t.data.size() / sizeof(float);
    t.dtype = DType::kI8;
    t.data.assign(count, 1);
    t.scales.assign(static_cast<size_t>(t.shape[0]), 0.01f);
    t.axis = 0;
  }
  return converter::BuildModelFile(c);
}

TEST(RobustnessModel, NonFiniteOrNonPositiveScalesAreRefused) {
  const std::vector<uint8_t> good = Int8File();
  ASSERT_EQ(LoadAndUse(good, "int8").status, Status::kOk);
  const fb::Tensor* t = TensorNamed(good, "generator.weight");
  ASSERT_NE(t, nullptr);
  ASSERT_NE(t->quantization(), nullptr);
  const uint32_t last = t->quantization()->scale()->size() - 1;
  uint32_t signalling_nan_bits = 0x7F800001u, negative_nan_bits = 0xFFC00000u;
  float signalling_nan, negative_nan;
  memcpy(&signalling_nan, &signalling_nan_bits, 4);
  memcpy(&negative_nan, &negative_nan_bits, 4);
  for (uint32_t index : {0u, last}) {
    for (float scale : {NAN, signalling_nan, negative_nan, INFINITY, -INFINITY, -1.0f, -0.0f, 0.0f,
                        -1e-30f}) {
      std::vector<uint8_t> bytes = good;
      Poke<float>(&bytes, ElementOffset(bytes, TensorNamed(bytes, "generator.weight")->quantization()->scale(),
                                        index),
                  scale);
      EXPECT_REFUSED(LoadAndUse(bytes, "scale " + std::to_string(scale)), Status::kModelTensorInvalid,
                     "scale[" + std::to_string(index) + "]");
    }
  }
  // The quantization axis beyond the rank, and a per-tensor scale count that disagrees.
  std::vector<uint8_t> bytes = good;
  Poke<int32_t>(&bytes, FieldOffset(good, t->quantization(), fb::Quantization::VT_AXIS), 5);
  EXPECT_REFUSED(LoadAndUse(bytes, "axis 5"), Status::kModelTensorInvalid, "axis");
}

TEST(RobustnessModel, AFailedLoadResetsTheModelAndAGoodOneLoadsAfterIt) {
  const NamedFile f = SweepFiles().front();
  PoisonedCopy good(f.bytes);
  std::vector<uint8_t> broken_bytes = f.bytes;
  broken_bytes[5] = 'X';
  PoisonedCopy broken(broken_bytes);
  Model model;
  ASSERT_EQ(model.Load(good.data(), good.size()), Status::kOk);
  EXPECT_NE(model.Load(broken.data(), broken.size()), Status::kOk);
  EXPECT_FALSE(model.loaded());
  EXPECT_EQ(model.num_tensors(), 0);
  TensorView view{};
  EXPECT_EQ(model.TensorAt(0, &view), Status::kNotInitialized);
  EXPECT_EQ(model.src_vocab().Find("a", 1), -1);
  EXPECT_STREQ(model.provenance().source, "");
  ASSERT_EQ(model.Load(good.data(), good.size()), Status::kOk) << model.error_detail();
  EXPECT_STREQ(model.error_detail(), "");
  // A Translator refuses a model whose last load failed.
  Model failed;
  EXPECT_NE(failed.Load(broken.data(), broken.size()), Status::kOk);
  std::vector<uint8_t> arena(1 << 16);
  Translator translator;
  EXPECT_EQ(translator.Init(&failed, arena.data() + (16 - reinterpret_cast<uintptr_t>(arena.data()) % 16) % 16,
                            1 << 15, SessionLimits{}),
            Status::kNotInitialized);
  EXPECT_STRNE(translator.error_detail(), "");
}

// ---- 3. Arena and limits -----------------------------------------------------------------------

// Every arena smaller than the requirement is refused with the exact requirement in the detail,
// and Init writes nothing outside the bytes it was given (the rest of the block is poisoned).
TEST(RobustnessTranslator, ArenasBelowTheRequirementAreRefusedWithoutWritingPastThem) {
  const std::vector<uint8_t> file = converter::BuildModelFile(TinyContents());
  PoisonedCopy buffer(file);
  Model model;
  ASSERT_EQ(model.Load(buffer.data(), buffer.size()), Status::kOk) << model.error_detail();
  SessionLimits limits;
  limits.max_beam = 4;
  limits.max_nbest = 2;
  limits.attention = true;
  size_t required = 0;
  ASSERT_EQ(RequiredArenaBytes(model, limits, &required), Status::kOk);
  ASSERT_GT(required, 64u);
  std::vector<size_t> sizes = {0, 1, 15, 16, 17, required / 2, required - 16, required - 1};
  for (size_t size = 32; size < required; size += required / 40 + 16) sizes.push_back(size);
  for (size_t size : sizes) {
    PoisonedCopy arena(std::vector<uint8_t>(size, 0xA5));
    Translator translator;
    const Status status = translator.Init(&model, const_cast<uint8_t*>(arena.data()), size, limits);
    ASSERT_EQ(status, Status::kArenaTooSmall) << size;
    EXPECT_EQ(translator.required_arena_bytes(), required) << size;
    EXPECT_NE(std::string(translator.error_detail()).find(std::to_string(required) + " required"),
              std::string::npos) << translator.error_detail();
    EXPECT_FALSE(translator.initialized());
    TranslationResult result;
    EXPECT_EQ(translator.Translate("abc", 3, TranslateOptions{}, &result), Status::kNotInitialized);
  }
  PoisonedCopy arena(std::vector<uint8_t>(required, 0));
  Translator translator;
  ASSERT_EQ(translator.Init(&model, const_cast<uint8_t*>(arena.data()), required, limits), Status::kOk)
      << translator.error_detail();
  EXPECT_EQ(translator.arena_bytes_used(), required);
  // Requests beyond the session: a clear status each time, and the session stays usable.
  TranslationResult result;
  TranslateOptions options;
  options.max_len = 5;
  const std::tuple<int32_t, int32_t, int32_t> over_limit[] = {{5, 1, 5}, {4, 3, 5}, {1, 1, 1 << 30}};
  for (const auto& [beam, nbest, max_len] : over_limit) {
    options.beam = beam;
    options.nbest = nbest;
    options.max_len = max_len;
    EXPECT_EQ(translator.Translate("abc", 3, options, &result), Status::kLimitExceeded)
        << beam << " " << nbest << " " << max_len;
    EXPECT_STRNE(translator.error_detail(), "");
  }
  options = TranslateOptions{};
  options.max_len = 5;
  options.beam = 0;
  EXPECT_EQ(translator.Translate("abc", 3, options, &result), Status::kInvalidArgument);
  options.beam = 2;
  options.alpha = NAN;
  EXPECT_EQ(translator.Translate("abc", 3, options, &result), Status::kInvalidArgument);
  options.alpha = 0;
  options.return_attention = true;
  EXPECT_EQ(translator.Translate("abc", 3, options, &result), Status::kOk) << translator.error_detail();
  const std::string too_long(static_cast<size_t>(model.config().max_src_len) + 1, 'a');
  EXPECT_EQ(translator.Translate(too_long.data(), too_long.size(), options, &result), Status::kSourceTooLong);
  EXPECT_EQ(translator.Translate("abc", 3, options, &result), Status::kOk);
}

TEST(RobustnessTranslator, AbsurdLimitsNeverOverflowThePlan) {
  const std::vector<uint8_t> file = converter::BuildModelFile(TinyContents());
  PoisonedCopy buffer(file);
  Model model;
  ASSERT_EQ(model.Load(buffer.data(), buffer.size()), Status::kOk);
  struct Case {
    int32_t src, beam, nbest, tgt;
    bool attention;
  };
  const Case cases[] = {{0, kMaxDecodingBeam, kMaxDecodingBeam, kMaxModelDim, true},
                        {0, kMaxDecodingBeam + 1, 1, 10, false},
                        {0, 1, 1, kMaxModelDim + 1, false},
                        {0, INT32_MAX, 1, INT32_MAX, true},
                        {model.config().max_src_len + 1, 1, 1, 10, false},
                        {-1, 1, 1, 10, false},
                        {0, 0, 0, 10, false},
                        {0, 2, 3, 10, false},
                        {0, 1, 1, -5, false}};
  for (const Case& c : cases) {
    SessionLimits limits;
    limits.max_src_len = c.src;
    limits.max_beam = c.beam;
    limits.max_nbest = c.nbest;
    limits.max_tgt_len = c.tgt;
    limits.attention = c.attention;
    size_t bytes = 0;
    const Status status = RequiredArenaBytes(model, limits, &bytes);
    if (status == Status::kOk) {
      EXPECT_GT(bytes, 0u);
      EXPECT_LT(bytes, SIZE_MAX / 2);
      // Never allocate it: a tiny arena must be refused with the same requirement.
      alignas(16) uint8_t small[64];
      Translator translator;
      EXPECT_EQ(translator.Init(&model, small, sizeof small, limits), Status::kArenaTooSmall);
      EXPECT_EQ(translator.required_arena_bytes(), bytes);
    } else {
      EXPECT_TRUE(status == Status::kLimitExceeded || status == Status::kInvalidArgument)
          << StatusName(status) << " for beam " << c.beam << " tgt " << c.tgt;
      alignas(16) uint8_t small[64];
      Translator translator;
      EXPECT_EQ(translator.Init(&model, small, sizeof small, limits), status);
      EXPECT_STRNE(translator.error_detail(), "");
    }
  }
}

}  // namespace
}  // namespace edgenmt
