// Layer math against hand computations written straight from docs/MODEL.md (double precision,
// weights read from the float tensors the model was built from): LSTM and GRU cells (also in
// place), every attention type x score (windows, local-p Gaussian, context), the bridge, and
// the decoder's state reordering.
#include <math.h>

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "decoder/step_decoder.h"
#include "edgenmt/internal/arena.h"
#include "kernels/kernel_table.h"
#include "rnn/float_rnn_numerics.h"
#include "rnn/attention.h"
#include "rnn/bridge.h"
#include "rnn/recurrent_cell.h"
#include "runtime_test_util.h"

namespace edgenmt {
namespace {

using Vec = std::vector<double>;

const KernelTable& Kernels() {
  const KernelTable* k = nullptr;
  EXPECT_EQ(GetKernelTable(KernelBackend::kReference, &k), Status::kOk);
  return *k;
}

std::vector<float> Random(std::mt19937* rng, size_t n) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(*rng);
  return v;
}

// y = W x (+ b) for W [rows, cols] row-major.
Vec MatVec(const converter::FloatTensor& w, const float* x,
           const converter::FloatTensor* b = nullptr) {
  const size_t rows = static_cast<size_t>(w.shape[0]), cols = static_cast<size_t>(w.shape[1]);
  Vec y(rows, 0.0);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) y[r] += static_cast<double>(w.data[r * cols + c]) * x[c];
    if (b != nullptr) y[r] += b->data[r];
  }
  return y;
}

double Sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

// The float scheme's kernels for a float32 model (needs no arena).
std::unique_ptr<FloatRnnNumerics> PrepareNumerics(const Model& model) {
  auto numerics = std::make_unique<FloatRnnNumerics>();
  OwnedErrorDetail detail;
  Arena none;
  EXPECT_EQ(numerics->Prepare(model, &Kernels(), 1, 1, &none, &detail), Status::kOk)
      << detail.c_str();
  return numerics;
}

// Plans a layer twice (measuring, then real) so the arena is exactly sized.
template <typename PrepareFn>
std::unique_ptr<testing::AlignedArena> PlanAndPrepare(PrepareFn prepare, Arena* out_arena) {
  Arena measuring;
  EXPECT_EQ(prepare(&measuring), Status::kOk);
  auto memory = std::make_unique<testing::AlignedArena>(measuring.used());
  *out_arena = Arena(memory->data(), memory->size());
  EXPECT_EQ(prepare(out_arena), Status::kOk);
  EXPECT_EQ(out_arena->used(), measuring.used());
  EXPECT_FALSE(out_arena->overflowed());
  return memory;
}

void CheckCell(CellType cell_type) {
  ModelConfig config = testing::TinyConfig();
  config.rnn.cell = cell_type;
  auto loaded = testing::MakeRandomModel(config, 11);
  ASSERT_NE(loaded, nullptr);
  const int32_t H = config.rnn.dec_hidden, rows = 3;
  const int32_t in = H;  // decoder layer 1: input is layer 0's output
  const auto numerics = PrepareNumerics(loaded->model);
  RecurrentCell<FloatRnnNumerics> cell;
  OwnedErrorDetail detail;
  Arena arena;
  CellBinding binding;
  binding.cell = cell_type;
  binding.decoder = true;
  binding.layer = 1;
  binding.input_size = in;
  binding.hidden_size = H;
  auto memory = PlanAndPrepare(
      [&](Arena* a) {
        return cell.Prepare(numerics.get(), loaded->model, binding, rows, true, a, &detail);
      },
      &arena);
  std::mt19937 rng(3);
  const std::vector<float> x = Random(&rng, rows * in), h = Random(&rng, rows * H),
                           c = Random(&rng, rows * H);
  std::vector<float> h_out(rows * H), c_out(rows * H);
  const bool lstm = cell_type == CellType::kLstm;
  cell.Step(rows, x.data(), h.data(), lstm ? c.data() : nullptr, h_out.data(),
            lstm ? c_out.data() : nullptr);
  // In place gives the same result.
  std::vector<float> h_inplace = h, c_inplace = c;
  cell.Step(rows, x.data(), h_inplace.data(), lstm ? c_inplace.data() : nullptr, h_inplace.data(),
            lstm ? c_inplace.data() : nullptr);
  const auto& w_ih = loaded->Tensor("decoder.layers.1.weight_ih");
  const auto& w_hh = loaded->Tensor("decoder.layers.1.weight_hh");
  const auto& b_ih = loaded->Tensor("decoder.layers.1.bias_ih");
  const auto& b_hh = loaded->Tensor("decoder.layers.1.bias_hh");
  for (int32_t r = 0; r < rows; ++r) {
    const Vec xi = MatVec(w_ih, &x[r * in], &b_ih);
    const Vec hh = MatVec(w_hh, &h[r * H], &b_hh);
    for (int32_t j = 0; j < H; ++j) {
      double h_new, c_new = 0.0;
      if (cell_type == CellType::kLstm) {
        const double i = Sigmoid(xi[j] + hh[j]), f = Sigmoid(xi[H + j] + hh[H + j]);
        const double g = tanh(xi[2 * H + j] + hh[2 * H + j]);
        const double o = Sigmoid(xi[3 * H + j] + hh[3 * H + j]);
        c_new = f * c[r * H + j] + i * g;
        h_new = o * tanh(c_new);
        ASSERT_NEAR(c_out[r * H + j], c_new, 1e-5);
        ASSERT_EQ(c_inplace[r * H + j], c_out[r * H + j]);
      } else {
        const double rg = Sigmoid(xi[j] + hh[j]), z = Sigmoid(xi[H + j] + hh[H + j]);
        const double n = tanh(xi[2 * H + j] + rg * hh[2 * H + j]);
        h_new = (1.0 - z) * n + z * h[r * H + j];
      }
      ASSERT_NEAR(h_out[r * H + j], h_new, 1e-5) << "row " << r << " unit " << j;
      ASSERT_EQ(h_inplace[r * H + j], h_out[r * H + j]);
    }
  }
}

TEST(LayersTest, LstmCellMatchesPyTorchEquations) { CheckCell(CellType::kLstm); }
TEST(LayersTest, GruCellMatchesPyTorchEquations) { CheckCell(CellType::kGru); }

struct AttentionCase {
  AttentionType type;
  ScoreType score;
};

class AttentionTest : public ::testing::TestWithParam<AttentionCase> {};

TEST_P(AttentionTest, MatchesHandComputation) {
  const AttentionCase param = GetParam();
  ModelConfig config = testing::TinyConfig();  // bidirectional enc_hidden 4 -> E = 8 = H
  config.rnn.enc_hidden = 4;
  config.rnn.dec_hidden = 8;
  config.rnn.attention = param.type;
  config.rnn.score = param.score;
  config.rnn.attn_hidden = 5;
  config.rnn.window = 2;
  config.max_src_len = 9;
  auto loaded = testing::MakeRandomModel(config, 21);
  ASSERT_NE(loaded, nullptr);
  const int32_t E = 8, H = 8, A = 5, D = 2, rows = 3, S = 6;
  const auto numerics = PrepareNumerics(loaded->model);
  Attention<FloatRnnNumerics> attention;
  OwnedErrorDetail detail;
  Arena arena;
  auto memory = PlanAndPrepare(
      [&](Arena* a) {
        return attention.Prepare(numerics.get(), loaded->model, 7, rows, 1, a, &detail);
      },
      &arena);
  std::mt19937 rng(8);
  const std::vector<float> states = Random(&rng, S * E);
  const std::vector<float> query = Random(&rng, rows * H);
  attention.SetSource(0, states.data(), states.data(), S);
  const auto tensor = [&](const char* name) -> const converter::FloatTensor& {
    return loaded->Tensor(name);
  };
  for (int32_t step : {0, 4, 9}) {
    attention.ProjectQueries(rows, query.data());
    attention.AttendProjected(0, 0, rows, query.data(), step);
    for (int32_t r = 0; r < rows; ++r) {
      const float* q = &query[r * H];
      Vec scores(S, 0.0);
      for (int32_t s = 0; s < S; ++s) {
        const float* hs = &states[s * E];
        if (param.type == AttentionType::kBahdanau || param.score == ScoreType::kConcat) {
          const Vec wq = MatVec(tensor("attn.query.weight"), q);
          const Vec wk =
              MatVec(tensor("attn.key.weight"), hs,
                     param.type == AttentionType::kBahdanau ? &tensor("attn.key.bias") : nullptr);
          for (int32_t j = 0; j < A; ++j)
            scores[s] += tensor("attn.v.weight").data[j] * tanh(wq[j] + wk[j]);
        } else if (param.score == ScoreType::kDot) {
          for (int32_t j = 0; j < E; ++j) scores[s] += static_cast<double>(q[j]) * hs[j];
        } else if (param.score == ScoreType::kGeneral) {
          const Vec wq = MatVec(tensor("attn.linear_in.weight"), q);
          for (int32_t j = 0; j < E; ++j) scores[s] += wq[j] * hs[j];
        } else {
          scores[s] = MatVec(tensor("attn.location.weight"), q)[s];
        }
      }
      int32_t lo = 0, hi = S - 1;
      double p = 0.0;
      if (param.type == AttentionType::kLocalM) {
        const int32_t pt = std::min(step, S - 1);
        lo = std::max(0, pt - D);
        hi = std::min(S - 1, pt + D);
      } else if (param.type == AttentionType::kLocalP) {
        const Vec wp = MatVec(tensor("attn.predict_w.weight"), q);
        double z = 0.0;
        for (int32_t j = 0; j < A; ++j) z += tensor("attn.predict_v.weight").data[j] * tanh(wp[j]);
        p = S * Sigmoid(z);
        lo = std::max(0, static_cast<int32_t>(ceil(p - D)));
        hi = std::min(S - 1, static_cast<int32_t>(floor(p + D)));
      }
      double max_score = -INFINITY, sum = 0.0;
      for (int32_t s = lo; s <= hi; ++s) max_score = std::max(max_score, scores[s]);
      for (int32_t s = lo; s <= hi; ++s) sum += exp(scores[s] - max_score);
      Vec a(S, 0.0), c(E, 0.0);
      for (int32_t s = lo; s <= hi; ++s) {
        a[s] = exp(scores[s] - max_score) / sum;
        if (param.type == AttentionType::kLocalP) {
          const double sigma = D / 2.0;
          a[s] *= exp(-(s - p) * (s - p) / (2 * sigma * sigma));
        }
        for (int32_t j = 0; j < E; ++j) c[j] += a[s] * states[s * E + j];
      }
      for (int32_t s = 0; s < S; ++s) {
        ASSERT_NEAR(attention.weights()[r * S + s], a[s], 1e-5)
            << "step " << step << " row " << r << " position " << s;
      }
      for (int32_t j = 0; j < E; ++j) {
        ASSERT_NEAR(attention.context()[r * E + j], c[j], 1e-5) << "step " << step << " row " << r;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllVariants, AttentionTest,
    ::testing::Values(AttentionCase{AttentionType::kGlobal, ScoreType::kDot},
                      AttentionCase{AttentionType::kGlobal, ScoreType::kGeneral},
                      AttentionCase{AttentionType::kGlobal, ScoreType::kConcat},
                      AttentionCase{AttentionType::kGlobal, ScoreType::kLocation},
                      AttentionCase{AttentionType::kLocalM, ScoreType::kDot},
                      AttentionCase{AttentionType::kLocalM, ScoreType::kGeneral},
                      AttentionCase{AttentionType::kLocalM, ScoreType::kConcat},
                      AttentionCase{AttentionType::kLocalM, ScoreType::kLocation},
                      AttentionCase{AttentionType::kLocalP, ScoreType::kDot},
                      AttentionCase{AttentionType::kLocalP, ScoreType::kGeneral},
                      AttentionCase{AttentionType::kLocalP, ScoreType::kConcat},
                      AttentionCase{AttentionType::kLocalP, ScoreType::kLocation},
                      AttentionCase{AttentionType::kBahdanau, ScoreType::kConcat}));

TEST(LayersTest, BridgeMatchesHandComputation) {
  const ModelConfig config = testing::TinyConfig();  // LSTM, E = 10, H = 8, 2 decoder layers
  auto loaded = testing::MakeRandomModel(config, 4);
  ASSERT_NE(loaded, nullptr);
  const auto numerics = PrepareNumerics(loaded->model);
  Bridge<FloatRnnNumerics> bridge;
  OwnedErrorDetail detail;
  Arena arena;
  auto memory = PlanAndPrepare(
      [&](Arena* a) { return bridge.Prepare(numerics.get(), loaded->model, a, &detail); }, &arena);
  std::mt19937 rng(2);
  const int32_t E = config.encoder_output_size(), H = config.rnn.dec_hidden;
  const std::vector<float> fh = Random(&rng, E), fc = Random(&rng, E);
  std::vector<float> h0(2 * H), c0(2 * H);
  float* hs[2] = {h0.data(), h0.data() + H};
  float* cs[2] = {c0.data(), c0.data() + H};
  // The float scheme reads no cell formats: default cells stand in for the encoder's and
  // the decoder's.
  const FloatRnnNumerics::CellWeights encoder_cell;
  const RecurrentCell<FloatRnnNumerics> decoder_cells[2];
  Bridge<FloatRnnNumerics>::Source source;
  source.final_h = fh.data();
  source.final_c = fc.data();
  source.top_forward = &encoder_cell;
  source.half = E / 2;
  bridge.Apply(source, decoder_cells, hs, cs);
  for (int32_t l = 0; l < 2; ++l) {
    const std::string p = "bridge." + std::to_string(l);
    const Vec h =
        MatVec(loaded->Tensor(p + ".h.weight"), fh.data(), &loaded->Tensor(p + ".h.bias"));
    const Vec c =
        MatVec(loaded->Tensor(p + ".c.weight"), fc.data(), &loaded->Tensor(p + ".c.bias"));
    for (int32_t j = 0; j < H; ++j) {
      ASSERT_NEAR(hs[l][j], tanh(h[j]), 1e-5);
      ASSERT_NEAR(cs[l][j], c[j], 1e-5);
    }
  }
}

// Rows are independent and Reorder moves whole hypotheses: stepping rows [A, B], reordering to
// [B, B, A] and stepping again equals stepping each hypothesis alone.
TEST(LayersTest, DecoderRowsAreIndependentAndReorderGathersStates) {
  const ModelConfig config = testing::TinyConfig();
  auto loaded = testing::MakeRandomModel(config, 9);
  ASSERT_NE(loaded, nullptr);
  OwnedErrorDetail detail;
  const KernelTable* k = &Kernels();
  StepDecoder batched, single;
  Arena a1, a2;
  auto m1 = PlanAndPrepare(
      [&](Arena* a) { return batched.Prepare(loaded->model, k, 5, 3, a, &detail); }, &a1);
  auto m2 = PlanAndPrepare(
      [&](Arena* a) { return single.Prepare(loaded->model, k, 5, 1, a, &detail); }, &a2);
  const int32_t src[4] = {4, 7, 5, 9};
  const int32_t V = config.tgt_vocab_size;
  const int32_t bos = loaded->model.tgt_vocab().bos_id;
  // Reference: one hypothesis at a time, prefixes <s> x y.
  auto run_single = [&](int32_t first, int32_t second) {
    single.Encode(src, 4);
    single.Step(&bos, 1);
    single.Step(&first, 1);
    single.Step(&second, 1);
    return std::vector<float>(single.log_probs(), single.log_probs() + V);
  };
  batched.Encode(src, 4);
  batched.Step(&bos, 1);
  const int32_t grow[2] = {0, 0};
  batched.Reorder(grow, 2);
  const int32_t firsts[2] = {5, 6};
  batched.Step(firsts, 2);
  const int32_t parents[3] = {1, 1, 0};
  batched.Reorder(parents, 3);
  const int32_t seconds[3] = {7, 8, 4};
  batched.Step(seconds, 3);
  for (int32_t r = 0; r < 3; ++r) {
    const std::vector<float> expected = run_single(firsts[parents[r]], seconds[r]);
    for (int32_t v = 0; v < V; ++v) {
      ASSERT_NEAR(batched.log_probs()[r * V + v], expected[v], 1e-6) << "row " << r;
    }
  }
}

}  // namespace
}  // namespace edgenmt
