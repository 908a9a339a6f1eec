// Model and Translator robustness (issue 5, part 1, continued from robustness_model_test.cc): an
// int8 file with non-finite or non-positive scales, a failed load followed by a good one, and
// Translator::Init with arenas below the requirement (nothing written past them) and absurd
// limits (no overflow in the plan).
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
    for (float scale :
         {NAN, signalling_nan, negative_nan, INFINITY, -INFINITY, -1.0f, -0.0f, 0.0f, -1e-30f}) {
      std::vector<uint8_t> bytes = good;
      Poke<float>(
          &bytes,
          ElementOffset(bytes, TensorNamed(bytes, "generator.weight")->quantization()->scale(),
                        index),
          scale);
      EXPECT_REFUSED(LoadAndUse(bytes, "scale " + std::to_string(scale)),
                     Status::kModelTensorInvalid, "scale[" + std::to_string(index) + "]");
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
  EXPECT_EQ(translator.Init(
                &failed, arena.data() + (16 - reinterpret_cast<uintptr_t>(arena.data()) % 16) % 16,
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
              std::string::npos)
        << translator.error_detail();
    EXPECT_FALSE(translator.initialized());
    TranslationResult result;
    EXPECT_EQ(translator.Translate("abc", 3, TranslateOptions{}, &result), Status::kNotInitialized);
  }
  PoisonedCopy arena(std::vector<uint8_t>(required, 0));
  Translator translator;
  ASSERT_EQ(translator.Init(&model, const_cast<uint8_t*>(arena.data()), required, limits),
            Status::kOk)
      << translator.error_detail();
  EXPECT_EQ(translator.arena_bytes_used(), required);
  // Requests beyond the session: a clear status each time, and the session stays usable.
  TranslationResult result;
  TranslateOptions options;
  options.max_len = 5;
  const std::tuple<int32_t, int32_t, int32_t> over_limit[] = {
      {5, 1, 5}, {4, 3, 5}, {1, 1, 1 << 30}};
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
  EXPECT_EQ(translator.Translate("abc", 3, options, &result), Status::kOk)
      << translator.error_detail();
  const std::string too_long(static_cast<size_t>(model.config().max_src_len) + 1, 'a');
  EXPECT_EQ(translator.Translate(too_long.data(), too_long.size(), options, &result),
            Status::kSourceTooLong);
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
