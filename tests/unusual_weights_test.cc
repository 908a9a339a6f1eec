// Legal but unusual weights never crash any scheme: for checkpoints with all-zero rows (what
// nn.Embedding(padding_idx=0) trains), all-zero tensors, rows of very large magnitude,
// denormals and identical rows, float32, int8 and int8-full each convert (the converter's own
// path, int8-full calibration included) and decode greedy and beam search. (int8-full clamps a
// requantization factor too large to represent, which saturates like the values it scales, so
// no finite weight is refused.) Over every small golden model and the shipped one; the ASan +
// UBSan run (make asan) runs it too, and with it the int8-full decoder of every golden model.
#include <float.h>
#include <gtest/gtest.h>
#include <string.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "convert.h"
#include "convert_error.h"
#include "edgenmt/translator.h"
#include "runtime_test_util.h"

namespace edgenmt {
namespace {

using converter::FloatTensor;
using converter::TensorMap;

struct Mutation {
  const char* name;
  std::function<void(TensorMap*)> apply;
};

int64_t Rows(const FloatTensor& t) { return t.shape.size() == 2 ? t.shape[0] : 0; }
int64_t Cols(const FloatTensor& t) { return t.shape.size() == 2 ? t.shape[1] : 0; }

// f(row values, cols) on row `r` of every matrix that has it.
void EachMatrixRow(TensorMap* tensors, int64_t r, const std::function<void(float*, int64_t)>& f) {
  for (auto& [name, t] : *tensors) {
    if (Rows(t) > r) f(t.data.data() + r * Cols(t), Cols(t));
  }
}

void Fill(FloatTensor* t, float value) { std::fill(t->data.begin(), t->data.end(), value); }

std::vector<Mutation> Mutations() {
  std::vector<Mutation> m;
  m.push_back({"as trained", [](TensorMap*) {}});
  m.push_back({"padding row 0 of both embeddings all zero", [](TensorMap* t) {
                 for (const char* name : {"src_embed.weight", "tgt_embed.weight"}) {
                   FloatTensor& e = t->at(name);
                   std::fill(e.data.begin(), e.data.begin() + Cols(e), 0.0f);
                 }
               }});
  m.push_back({"row 1 of every matrix all zero", [](TensorMap* t) {
                 EachMatrixRow(t, 1, [](float* row, int64_t n) { std::fill(row, row + n, 0.0f); });
               }});
  m.push_back({"all-zero embeddings", [](TensorMap* t) {
                 Fill(&t->at("src_embed.weight"), 0.0f);
                 Fill(&t->at("tgt_embed.weight"), 0.0f);
               }});
  m.push_back({"all-zero recurrent weights", [](TensorMap* t) {
                 for (auto& [name, tensor] : *t) {
                   if (name.find("weight_hh") != std::string::npos) Fill(&tensor, 0.0f);
                 }
               }});
  m.push_back({"all-zero generator", [](TensorMap* t) {
                 // A tied Transformer's output matrix is tgt_embed.weight (zeroed above).
                 if (t->count("generator.weight") != 0) Fill(&t->at("generator.weight"), 0.0f);
                 Fill(&t->at("generator.bias"), 0.0f);
               }});
  m.push_back({"every tensor all zero", [](TensorMap* t) {
                 for (auto& [name, tensor] : *t) Fill(&tensor, 0.0f);
               }});
  m.push_back({"row 2 of every matrix scaled by 1e4", [](TensorMap* t) {
                 EachMatrixRow(t, 2, [](float* row, int64_t n) {
                   for (int64_t i = 0; i < n; ++i) row[i] *= 1e4f;
                 });
               }});
  m.push_back({"row 2 of every matrix near FLT_MAX", [](TensorMap* t) {
                 EachMatrixRow(t, 2, [](float* row, int64_t n) {
                   for (int64_t i = 0; i < n; ++i) row[i] = (i % 2 ? -1.0f : 1.0f) * 3e38f;
                 });
               }});
  m.push_back({"biases near FLT_MAX", [](TensorMap* t) {
                 for (auto& [name, tensor] : *t) {
                   if (tensor.shape.size() != 1) continue;
                   for (size_t i = 0; i < tensor.data.size(); ++i)
                     tensor.data[i] = i % 2 ? -FLT_MAX : FLT_MAX;
                 }
               }});
  m.push_back({"row 3 of every matrix denormal", [](TensorMap* t) {
                 EachMatrixRow(t, 3, [](float* row, int64_t n) {
                   for (int64_t i = 0; i < n; ++i)
                     row[i] = (i % 2 ? -1.0f : 1.0f) * 1e-40f * static_cast<float>(1 + i % 5);
                 });
               }});
  m.push_back({"every 5th value of every tensor denormal", [](TensorMap* t) {
                 for (auto& [name, tensor] : *t) {
                   for (size_t i = 0; i < tensor.data.size(); i += 5) tensor.data[i] = 1e-41f;
                 }
               }});
  m.push_back({"every row of every matrix equal to row 0", [](TensorMap* t) {
                 for (auto& [name, tensor] : *t) {
                   for (int64_t r = 1; r < Rows(tensor); ++r) {
                     std::copy(tensor.data.begin(), tensor.data.begin() + Cols(tensor),
                               tensor.data.begin() + r * Cols(tensor));
                   }
                 }
               }});
  return m;
}

const char* const kWords[] = {"hello", "a", "pronunciation", "zzz", "edge"};

// Greedy and beam 3 (n-best 3, attention, length and coverage penalties) on a few words.
void Decode(const Model& model, const std::string& where) {
  SessionLimits limits;
  limits.max_src_len = 16;
  limits.max_beam = 3;
  limits.max_nbest = 3;
  limits.max_tgt_len = 12;
  limits.attention = model.config().has_attention();
  size_t bytes = 0;
  char why[160];
  ASSERT_EQ(RequiredArenaBytes(model, limits, &bytes, why, sizeof why), Status::kOk)
      << where << why;
  testing::AlignedArena arena(bytes);
  Translator translator;
  ASSERT_EQ(translator.Init(&model, arena.data(), bytes, limits), Status::kOk)
      << where << translator.error_detail();
  TranslateOptions beam;
  beam.beam = 3;
  beam.nbest = 3;
  beam.alpha = 0.6f;
  beam.beta = limits.attention ? 0.2f : 0.0f;
  beam.max_len = 12;
  beam.return_attention = limits.attention;
  TranslateOptions greedy;
  greedy.max_len = 12;
  for (const char* word : kWords) {
    for (const TranslateOptions& options : {greedy, beam}) {
      TranslationResult result;
      ASSERT_EQ(translator.Translate(word, strlen(word), options, &result), Status::kOk)
          << where << " " << word << ": " << translator.error_detail();
      ASSERT_GE(result.num_hypotheses, 1);
      for (int32_t h = 0; h < result.num_hypotheses; ++h) {
        const Hypothesis& hyp = result.hypotheses[h];
        ASSERT_LE(hyp.length, options.max_len);
        for (int32_t i = 0; i < hyp.length; ++i) {
          ASSERT_GE(hyp.ids[i], 0);
          ASSERT_LT(hyp.ids[i], model.config().tgt_vocab_size);
        }
      }
    }
  }
}

void CheckModel(const std::string& dir) {
  const converter::Checkpoint original = converter::LoadCheckpoint(dir);
  for (const Mutation& mutation : Mutations()) {
    converter::Checkpoint ckpt = original;
    mutation.apply(&ckpt.tensors);
    for (QuantScheme scheme :
         {QuantScheme::kFloat32, QuantScheme::kInt8Hybrid, QuantScheme::kInt8Full}) {
      const std::string where =
          dir + " [" + mutation.name + ", " + converter::DtypeName(scheme) + "]: ";
      SCOPED_TRACE(where);
      const converter::ConvertOptions options = testing::CalibratedOptions(scheme, 12, 8);
      std::vector<uint8_t> file;
      try {
        converter::ConvertCheckpoint(ckpt, options, &file);
      } catch (const converter::ConvertError& e) {
        ADD_FAILURE() << "refused: " << e.what();
        continue;
      }
      testing::AlignedBuffer buffer(file);
      Model model;
      ASSERT_EQ(model.Load(buffer.data(), buffer.size()), Status::kOk) << model.error_detail();
      Decode(model, where);
    }
  }
}

std::vector<std::string> ModelDirs() {
  std::vector<std::string> dirs;
  const std::filesystem::path root = std::filesystem::path(EDGENMT_TEST_DATA_DIR) / "golden";
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    if (std::filesystem::exists(entry.path() / "model.safetensors"))
      dirs.push_back(entry.path().string());
  }
  std::sort(dirs.begin(), dirs.end());
  const std::filesystem::path shipped = std::filesystem::path(EDGENMT_SOURCE_DIR) / "models/g2p-en";
  if (std::filesystem::exists(shipped / "model.safetensors")) dirs.push_back(shipped.string());
  return dirs;
}

class UnusualWeightsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(UnusualWeightsTest, EverySchemeConvertsAndDecodesOrRefusesByName) { CheckModel(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Models, UnusualWeightsTest, ::testing::ValuesIn(ModelDirs()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = std::filesystem::path(info.param).filename().string();
                           for (char& c : name)
                             c = isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(UnusualWeightsTest);

}  // namespace
}  // namespace edgenmt
