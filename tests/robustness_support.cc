#include "robustness_support.h"

#include <math.h>
#include <stdlib.h>

#include <sanitizer/asan_interface.h>

#include <algorithm>
#include <filesystem>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/translator.h"
#include "tiny_checkpoint.h"

namespace edgenmt {
namespace robustness {
namespace {

converter::ConvertOptions Options() {
  converter::ConvertOptions options;
  options.created = "2024-01-01";
  return options;
}

}  // namespace

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

const converter::ModelFileContents& TinyContents() {
  static const converter::ModelFileContents contents = [] {
    return converter::MakeModelFileContents(testing::TinyCheckpoint(), Options());
  }();
  return contents;
}

std::vector<NamedFile> SweepFiles() {
  std::vector<NamedFile> files = GoldenFiles();
  files.push_back({"tiny", converter::BuildModelFile(TinyContents()), false});
  return files;
}

PoisonedCopy::PoisonedCopy(const uint8_t* bytes, size_t size, size_t offset)
    : rounded_((size + offset + 63) / 64 * 64 + 64),
      storage_(static_cast<uint8_t*>(aligned_alloc(kModelBufferAlignment, rounded_))),
      data_(storage_ + offset),
      size_(size) {
  if (size > 0) memcpy(data_, bytes, size);
  ASAN_POISON_MEMORY_REGION(data_ + size_, rounded_ - offset - size_);
}

PoisonedCopy::~PoisonedCopy() {
  ASAN_UNPOISON_MEMORY_REGION(storage_, rounded_);
  free(storage_);
}

void UseLoadedModel(const Model& model, const uint8_t* buffer, size_t size,
                    const std::string& where) {
  SCOPED_TRACE(where);
  for (int32_t i = 0; i < model.num_tensors(); ++i) {
    TensorView view{};
    ASSERT_EQ(model.TensorAt(i, &view), Status::kOk);
    const uint8_t* p = static_cast<const uint8_t*>(view.data);
    ASSERT_TRUE(p >= buffer && view.bytes <= size &&
                static_cast<size_t>(p - buffer) <= size - view.bytes)
        << view.name;
    ASSERT_EQ(static_cast<size_t>(view.element_count()) * DTypeSize(view.dtype), view.bytes);
    for (int32_t k = 0; k < view.num_scales; ++k)
      ASSERT_TRUE(isfinite(view.scales[k]) && view.scales[k] > 0);
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
  ASSERT_EQ(translator.Init(&model, arena, bytes, limits), Status::kOk)
      << translator.error_detail();
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

Outcome LoadAndUse(const uint8_t* bytes, size_t size, const std::string& where, size_t offset) {
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
    EXPECT_FALSE(outcome.detail.empty())
        << where << ": " << StatusName(status) << " without a detail";
    EXPECT_STRNE(StatusName(status), "") << where;
  }
  return outcome;
}

Outcome LoadAndUse(const std::vector<uint8_t>& bytes, const std::string& where) {
  return LoadAndUse(bytes.data(), bytes.size(), where);
}

const fb::Model* Root(const std::vector<uint8_t>& bytes) { return fb::GetModel(bytes.data()); }

const fb::Tensor* TensorNamed(const std::vector<uint8_t>& bytes, const std::string& name) {
  for (const fb::Tensor* t : *Root(bytes)->tensors()) {
    if (t->name()->str() == name) return t;
  }
  ADD_FAILURE() << "no tensor " << name;
  return nullptr;
}

std::vector<uint8_t> WithConfigInt(const std::vector<uint8_t>& bytes, flatbuffers::voffset_t field,
                                   int32_t value) {
  std::vector<uint8_t> out = bytes;
  Poke<int32_t>(&out, FieldOffset(out, Root(out)->config(), field), value);
  return out;
}

std::vector<uint8_t> WithRnnConfigInt(const std::vector<uint8_t>& bytes,
                                      flatbuffers::voffset_t rnn_field,
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

}  // namespace robustness
}  // namespace edgenmt
