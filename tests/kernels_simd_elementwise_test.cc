// The SIMD backend's element-wise kernels against the reference at every instruction-set level
// this CPU supports (kernels_simd_test.cc has the products and the level detection): activations,
// layer norm, softmax (float within tolerance, integer bit-exact), the integer GRU and LSTM cells,
// local-p's Gaussian and every tanh input, from fixed seeds (kernels_simd_support.h).
#include <math.h>
#include <string.h>

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/kernel_table.h"
#include "kernels/simd/simd_level.h"
#include "kernels_simd_support.h"

namespace edgenmt {
namespace {

using namespace ::edgenmt::simd_testing;  // NOLINT(build/namespaces): the shared test helpers

class SimdElementwiseKernelsTest : public SimdKernelsFixture {};

TEST_P(SimdElementwiseKernelsTest, ActivationsWithinTolerance) {
  std::mt19937 rng(505);
  std::vector<float> x = {
      0.0f,  -0.0f,  1e-30f, -1e-30f, 1e-8f, -1e-8f, 1e-3f,    -1e-3f,    0.5f,    -0.5f, 1.0f,
      -1.0f, 3.0f,   -3.0f,  9.0f,    -9.0f, 20.0f,  -20.0f,   44.0f,     -44.0f,  87.0f, -87.0f,
      88.5f, -88.5f, 100.0f, -100.0f, 1e30f, -1e30f, INFINITY, -INFINITY, 1.5e-42f /* denormal */};
  std::uniform_real_distribution<float> dist(-12.0f, 12.0f);
  for (int i = 0; i < 2000; ++i) x.push_back(dist(rng));
  using Activation = void (*)(int32_t, const float*, float*);
  const Activation pairs[2][2] = {{ref_.sigmoid_f32, simd_->sigmoid_f32},
                                  {ref_.tanh_f32, simd_->tanh_f32}};
  for (const auto& pair : pairs) {
    // Every length up to 19 (all tails) from every offset of the first values, then all of x.
    for (int32_t n = 1; n <= 19; ++n) {
      std::vector<float> expected(n), actual(n);
      pair[0](n, x.data(), expected.data());
      pair[1](n, x.data(), actual.data());
      for (int32_t i = 0; i < n; ++i) ASSERT_NEAR(actual[i], expected[i], 1e-6) << "x " << x[i];
    }
    std::vector<float> expected(x.size()), actual = x;
    pair[0](static_cast<int32_t>(x.size()), x.data(), expected.data());
    pair[1](static_cast<int32_t>(x.size()), actual.data(), actual.data());  // in place
    for (size_t i = 0; i < x.size(); ++i) ASSERT_NEAR(actual[i], expected[i], 1e-6) << "x " << x[i];
    const float nan = NAN;
    float out = 0.0f;
    pair[1](1, &nan, &out);
    EXPECT_TRUE(out != out);  // NaN stays NaN, as in the reference
  }
}

// The Transformer's layer norm: every length 1..40 (all tails) and model widths, rows with a
// large mean and a constant row, in place too: within 1e-5 of the reference (relative to the
// output's magnitude; only the summation order differs). ReLU bit-identical, NaN and -0 too.
TEST_P(SimdElementwiseKernelsTest, LayerNormAndReluF32) {
  std::mt19937 rng(707);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  for (int32_t n = 1; n <= 1024; n = n < 40 ? n + 1 : n * 2) {
    for (float offset : {0.0f, 500.0f}) {
      std::vector<float> x(n), gain(n), shift(n);
      for (int32_t i = 0; i < n; ++i) {
        x[i] = offset + dist(rng);
        gain[i] = 1.0f + 0.3f * dist(rng);
        shift[i] = dist(rng);
      }
      if (n == 33) std::fill(x.begin(), x.end(), 2.0f);
      std::vector<float> expected(n), actual = x;
      ref_.layer_norm_f32(n, x.data(), gain.data(), shift.data(), 1e-5f, expected.data());
      simd_->layer_norm_f32(n, actual.data(), gain.data(), shift.data(), 1e-5f, actual.data());
      for (int32_t i = 0; i < n; ++i) {
        ASSERT_NEAR(actual[i], expected[i], 1e-5 * (1.0f + fabsf(expected[i])) + 1e-6f * offset)
            << n << " " << i;
      }
    }
  }
  std::vector<float> x = {0.0f,      -0.0f,  NAN,     -NAN, INFINITY,
                          -INFINITY, 1e-40f, -1e-40f, 3.0f, -3.0f};
  for (int i = 0; i < 100; ++i) x.push_back(dist(rng));
  for (int32_t n = 1; n <= static_cast<int32_t>(x.size()); ++n) {
    std::vector<float> expected(n), actual(n);
    ref_.relu_f32(n, x.data(), expected.data());
    simd_->relu_f32(n, x.data(), actual.data());
    ASSERT_EQ(memcmp(expected.data(), actual.data(), sizeof(float) * n), 0) << n;
  }
}

// Float softmax / log-softmax: every length 1..40 (all tails) and a vocabulary-sized row, with
// large spreads and -inf (masked) scores, in place too: within 1e-6 of the reference (1e-5
// relative for the log-probs, whose magnitude grows with the spread).
TEST_P(SimdElementwiseKernelsTest, SoftmaxF32WithinTolerance) {
  std::mt19937 rng(606);
  std::uniform_real_distribution<float> dist(-30.0f, 30.0f);
  for (int32_t n = 1; n <= 1000; n = n < 40 ? n + 1 : n * 5) {
    std::vector<float> x(n);
    for (float& v : x) v = dist(rng);
    if (n > 3) x[n / 2] = -INFINITY;
    if (n > 5) x[1] = 1e4f;  // one dominant score
    for (int in_place = 0; in_place < 2; ++in_place) {
      std::vector<float> expected(n), actual = x;
      ref_.softmax_f32(n, x.data(), expected.data());
      std::vector<float> out(n);
      simd_->softmax_f32(n, actual.data(), in_place ? actual.data() : out.data());
      const std::vector<float>& got = in_place ? actual : out;
      for (int32_t i = 0; i < n; ++i) ASSERT_NEAR(got[i], expected[i], 1e-6) << n << " " << i;
      actual = x;
      ref_.log_softmax_f32(n, x.data(), expected.data());
      simd_->log_softmax_f32(n, actual.data(), in_place ? actual.data() : out.data());
      for (int32_t i = 0; i < n; ++i) {
        if (std::isinf(expected[i])) {
          ASSERT_EQ(got[i], expected[i]);
        } else {
          ASSERT_NEAR(got[i], expected[i], 1e-5 * (1.0f + fabsf(expected[i]))) << n << " " << i;
        }
      }
    }
  }
}

// int8-full's softmax (attention weights, Q0.15) and log-softmax (Q15.16 log-probs) at every
// input format up to the widest the vector path takes and past it (the reference then), on
// random rows, rows of equal values, one dominant value and the int32 extremes.
TEST_P(SimdElementwiseKernelsTest, IntegerSoftmaxBitExact) {
  std::mt19937 rng(808);
  std::uniform_int_distribution<int32_t> any(INT32_MIN, INT32_MAX);
  for (int32_t int_bits = 0; int_bits <= 31; ++int_bits) {
    for (int32_t n : {1, 2, 7, 8, 9, 43, 64, 300}) {
      for (int kind = 0; kind < 4; ++kind) {
        std::vector<int32_t> x(n);
        for (int32_t i = 0; i < n; ++i) {
          x[i] = kind == 0   ? any(rng) >> (i % 20)
                 : kind == 1 ? 12345
                 : kind == 2 ? (i == n / 2 ? INT32_MAX : any(rng) >> 8)
                             : (i % 2 ? INT32_MAX : INT32_MIN);
        }
        std::vector<int16_t> expected16(n + 1, 7), actual16(n + 1, 7);
        ref_.softmax_s32_s16(n, x.data(), int_bits, expected16.data());
        simd_->softmax_s32_s16(n, x.data(), int_bits, actual16.data());
        ASSERT_EQ(actual16, expected16)
            << "softmax int_bits " << int_bits << " n " << n << " kind " << kind;
        std::vector<int32_t> expected32(n + 1, 7), actual32(n + 1, 7);
        ref_.log_softmax_s32(n, x.data(), int_bits, expected32.data());
        simd_->log_softmax_s32(n, x.data(), int_bits, actual32.data());
        ASSERT_EQ(actual32, expected32)
            << "log-softmax int_bits " << int_bits << " n " << n << " kind " << kind;
      }
    }
  }
}

// int8-full's GRU cell: random, extreme and small gates and states, every hidden size class.
TEST_P(SimdElementwiseKernelsTest, IntegerGruCellBitExact) {
  std::mt19937 rng(717);
  std::uniform_int_distribution<int> any(-32768, 32767), small(-6000, 6000);
  for (int32_t hidden : {1, 7, 8, 9, 64, 160, 257}) {
    for (int kind = 0; kind < 3; ++kind) {
      const auto draw = [&] {
        return static_cast<int16_t>(kind == 1   ? (any(rng) & 1 ? 32767 : -32768)
                                    : kind == 2 ? small(rng)
                                                : any(rng));
      };
      std::vector<int16_t> gi(3 * static_cast<size_t>(hidden)), gh(gi.size()), state(hidden);
      for (int16_t& v : gi) v = draw();
      for (int16_t& v : gh) v = draw();
      for (int16_t& v : state) v = draw();
      std::vector<int16_t> expected_state = state, actual_state = state;
      std::vector<int8_t> expected_h(hidden + 1, 5), actual_h(hidden + 1, 5);
      ref_.gru_cell_s16(hidden, gi.data(), gh.data(), expected_state.data(), expected_h.data());
      simd_->gru_cell_s16(hidden, gi.data(), gh.data(), actual_state.data(), actual_h.data());
      ASSERT_EQ(actual_state, expected_state) << hidden << " " << kind;
      ASSERT_EQ(actual_h, expected_h) << hidden << " " << kind;
    }
  }
}

// int8-full's local-p Gaussian over the attention weights: positions anywhere in sources of 1
// to 200 characters (and past their ends), half-widths 1 to 12, every window the reference's
// own window function gives, weights across the whole int16 range.
TEST_P(SimdElementwiseKernelsTest, IntegerLocalPGaussianBitExact) {
  std::mt19937 rng(818);
  std::uniform_int_distribution<int> any16(-32768, 32767);
  for (int trial = 0; trial < 3000; ++trial) {
    const int32_t source_length = 1 + static_cast<int32_t>(rng() % 200);
    const int32_t half_width = 1 + static_cast<int32_t>(rng() % 12);
    const int32_t p_q16 =
        static_cast<int32_t>(rng() % ((static_cast<uint32_t>(source_length) + 2) << 16));
    int32_t lo = 0, hi = 0;
    ref_.local_p_window(p_q16, half_width, source_length, &lo, &hi);
    if (hi < lo) continue;
    std::vector<int16_t> weights(hi - lo + 2);
    for (int16_t& w : weights) w = static_cast<int16_t>(any16(rng));
    std::vector<int16_t> expected = weights, actual = weights;  // the element past hi stays
    ref_.local_p_gaussian_s16(lo, hi, p_q16, half_width, expected.data());
    simd_->local_p_gaussian_s16(lo, hi, p_q16, half_width, actual.data());
    ASSERT_EQ(actual, expected) << "S " << source_length << " D " << half_width << " p " << p_q16;
  }
}

// int8-full's attention products over the Q0.15 memory: window scores at every scaling
// (left shifts and rounded right shifts into Q11.20, saturating) and the context vector, on
// random and extreme int16 values (-32768 everywhere), dims across the 16-lane blocks.

TEST_P(SimdElementwiseKernelsTest, IntegerTanhAllInputsBitExact) {
  std::vector<int16_t> x(65536 + 3);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<int16_t>(static_cast<int32_t>(i % 65536) - 32768);
  for (int32_t int_bits = 0; int_bits <= 15; ++int_bits) {
    std::vector<int16_t> expected(x.size()), actual = x;
    ref_.tanh_s16(static_cast<int32_t>(x.size()), x.data(), int_bits, expected.data());
    simd_->tanh_s16(static_cast<int32_t>(x.size()), actual.data(), int_bits,
                    actual.data());  // in place
    ASSERT_EQ(actual, expected) << "int bits " << int_bits;
  }
}

TEST_P(SimdElementwiseKernelsTest, IntegerLstmCellBitExact) {
  std::mt19937 rng(707);
  for (int32_t hidden : {1, 7, 8, 9, 64, 160, 256, 257}) {
    for (int32_t cell_int_bits = 0; cell_int_bits <= 15; ++cell_int_bits) {
      for (int extremes = 0; extremes < 3; ++extremes) {
        std::vector<int16_t> gates(4 * static_cast<size_t>(hidden)), cell(hidden);
        std::uniform_int_distribution<int> any(-32768, 32767), small(-6000, 6000);
        for (int16_t& g : gates)
          g = static_cast<int16_t>(extremes == 1   ? (any(rng) & 1 ? 32767 : -32768)
                                   : extremes == 2 ? small(rng)
                                                   : any(rng));
        for (int16_t& c : cell)
          c = static_cast<int16_t>(extremes == 1 ? (any(rng) & 1 ? 32767 : -32768) : any(rng));
        std::vector<int16_t> expected_cell = cell, actual_cell = cell;
        std::vector<int8_t> expected_h(hidden), actual_h(hidden);
        std::vector<int16_t> expected_h16(hidden), actual_h16(hidden);
        ref_.lstm_cell_s16(hidden, gates.data(), cell_int_bits, expected_cell.data(),
                           expected_h.data(), expected_h16.data());
        simd_->lstm_cell_s16(hidden, gates.data(), cell_int_bits, actual_cell.data(),
                             actual_h.data(), actual_h16.data());
        ASSERT_EQ(actual_cell, expected_cell) << hidden << " " << cell_int_bits << " " << extremes;
        ASSERT_EQ(actual_h, expected_h) << hidden << " " << cell_int_bits << " " << extremes;
        ASSERT_EQ(actual_h16, expected_h16) << hidden << " " << cell_int_bits << " " << extremes;
        // Without the int16 copy of h (h16 null), the rest is unchanged.
        actual_cell = cell;
        simd_->lstm_cell_s16(hidden, gates.data(), cell_int_bits, actual_cell.data(),
                             actual_h.data(), nullptr);
        ASSERT_EQ(actual_cell, expected_cell);
        ASSERT_EQ(actual_h, expected_h);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Levels, SimdElementwiseKernelsTest, ::testing::ValuesIn(SupportedLevels()),
                         LevelName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SimdElementwiseKernelsTest);

}  // namespace
}  // namespace edgenmt
