// The reference int8 kernels' nonlinearities and cells against double precision (stated
// tolerances) and integer attention contexts bit-exact (kernels_s8_test.cc has the products):
// logistic / tanh, softmax, log-softmax, the LSTM and GRU cells, the attention context and
// local-p's position window and Gaussian, from fixed seeds (kernels_s8_support.h).
#include "kernels/kernels_s8.h"
#include "kernels/kernel_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "edgenmt/internal/fixed_point.h"
#include "kernels_s8_support.h"

namespace edgenmt {
namespace {

using namespace ::edgenmt::s8_testing;  // NOLINT(build/namespaces): the shared test helpers

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// The cells' sigmoid (fxp::LogisticS16, inline in ref_lstm_cell_s16 / ref_gru_cell_s16) and
// the tanh kernel over every Q3.12 input.
TEST(ActivationsS16, LogisticAndTanhArraysWithinOneLsb) {
  std::vector<int16_t> x(65536), s(65536), t(65536);
  for (int i = 0; i < 65536; ++i) x[i] = static_cast<int16_t>(i - 32768);
  for (int i = 0; i < 65536; ++i) s[i] = fxp::LogisticS16(x[i], 3);
  ref_tanh_s16(65536, x.data(), 3, t.data());
  for (int i = 0; i < 65536; ++i) {
    const double v = x[i] / 4096.0;
    ASSERT_LE(std::fabs(s[i] - std::min(32767.0, Sigmoid(v) * 32768.0)), 1.0) << v;
    ASSERT_LE(std::fabs(t[i] - std::clamp(std::tanh(v) * 32768.0, -32768.0, 32767.0)), 1.0) << v;
  }
  ref_tanh_s16(65536, x.data(), 3, x.data());  // in place
  EXPECT_EQ(x, t);
}

TEST(SoftmaxS16, MatchesDoubleWithinOneLsb) {
  std::mt19937 rng(15);
  for (int32_t n : {1, 2, 3, 7, 17, 33, 127, 300}) {
    for (int int_bits : {3, 5, 10, 17}) {
      const double range = std::min(12.0, std::ldexp(1.0, int_bits) * 0.9);
      std::vector<int32_t> x(n);
      std::uniform_real_distribution<double> d(-range, range);
      for (auto& v : x) v = static_cast<int32_t>(std::llround(std::ldexp(d(rng), 31 - int_bits)));
      std::vector<int16_t> y(n);
      ref_softmax_s32_s16(n, x.data(), int_bits, y.data());
      double max_v = -1e300, sum = 0;
      for (auto v : x) max_v = std::max(max_v, std::ldexp(double(v), int_bits - 31));
      for (auto v : x) sum += std::exp(std::ldexp(double(v), int_bits - 31) - max_v);
      for (int i = 0; i < n; ++i) {
        const double p = std::exp(std::ldexp(double(x[i]), int_bits - 31) - max_v) / sum;
        ASSERT_LE(std::fabs(y[i] - std::min(32767.0, p * 32768.0)), 1.0) << "n=" << n << " i=" << i;
      }
    }
  }
  // Extreme differences: the saturated difference rounds to exactly 0.
  const int32_t x[] = {INT32_MAX, INT32_MIN, 0};
  int16_t y[3];
  ref_softmax_s32_s16(3, x, 5, y);
  EXPECT_EQ(y[0], 32767);
  EXPECT_EQ(y[1], 0);
  EXPECT_EQ(y[2], 0);
}

TEST(LogSoftmaxS32, MatchesDoubleInQ16) {
  std::mt19937 rng(17);
  for (int32_t n : {1, 2, 7, 45, 1000}) {
    for (int int_bits : {4, 6, 10}) {
      std::vector<int32_t> x(n);
      std::uniform_real_distribution<double> d(-std::ldexp(1.0, int_bits - 1),
                                               std::ldexp(1.0, int_bits - 1));
      for (auto& v : x) v = static_cast<int32_t>(std::llround(std::ldexp(d(rng), 31 - int_bits)));
      std::vector<int32_t> y(n);
      ref_log_softmax_s32(n, x.data(), int_bits, y.data());
      double max_v = -1e300, sum = 0;
      for (auto v : x) max_v = std::max(max_v, std::ldexp(double(v), int_bits - 31));
      for (auto v : x) sum += std::exp(std::ldexp(double(v), int_bits - 31) - max_v);
      for (int i = 0; i < n; ++i) {
        const double expected = std::ldexp(double(x[i]), int_bits - 31) - max_v - std::log(sum);
        ASSERT_NEAR(y[i] / 65536.0, expected, 2.0 / 65536.0) << "n=" << n << " i=" << i;
      }
    }
  }
}

TEST(LstmCellS16, MatchesFloatCellWithinQuantizationError) {
  std::mt19937 rng(18);
  for (int32_t hidden : {1, 3, 17, 64}) {
    for (int cell_int_bits : {2, 3, 4, 5}) {
      std::vector<int16_t> gates(4 * hidden), cell(hidden);
      std::uniform_int_distribution<int> g(-32768, 32767);
      for (auto& v : gates) v = static_cast<int16_t>(g(rng));
      const double cell_range = std::ldexp(1.0, cell_int_bits) * 0.9;
      std::uniform_real_distribution<double> c(-cell_range, cell_range);
      for (auto& v : cell)
        v = static_cast<int16_t>(std::lround(std::ldexp(c(rng), 15 - cell_int_bits)));
      const std::vector<int16_t> cell_before = cell;
      std::vector<int8_t> h(hidden);
      std::vector<int16_t> h16(hidden);
      ref_lstm_cell_s16(hidden, gates.data(), cell_int_bits, cell.data(), h.data(), h16.data());
      const double cell_lsb = std::ldexp(1.0, cell_int_bits - 15);
      for (int j = 0; j < hidden; ++j) {
        const double i = Sigmoid(gates[j] / 4096.0), f = Sigmoid(gates[hidden + j] / 4096.0);
        const double gg = std::tanh(gates[2 * hidden + j] / 4096.0),
                     o = Sigmoid(gates[3 * hidden + j] / 4096.0);
        const double c_new =
            std::clamp(f * cell_before[j] * cell_lsb + i * gg, -32768 * cell_lsb, 32767 * cell_lsb);
        ASSERT_NEAR(cell[j] * cell_lsb, c_new, 2.5 * cell_lsb + 1e-4) << j;
        const double h_new = o * std::tanh(cell[j] * cell_lsb);  // from the integer cell
        ASSERT_NEAR(h[j] / 128.0, std::min(h_new, 127.0 / 128.0), 0.5 / 128.0 + 1e-4) << j;
        // o and tanh(c) each carry their table interpolation's error (fixed_point.h: below 0.72
        // and 0.94 LSB), plus the final rounding's 1/2.
        ASSERT_NEAR(h16[j] / 32768.0, std::min(h_new, 32767.0 / 32768.0), 2.2 / 32768.0) << j;
      }
    }
  }
}

TEST(GruCellS16, MatchesFloatCellWithinQuantizationError) {
  std::mt19937 rng(19);
  for (int32_t hidden : {1, 3, 17, 64}) {
    std::vector<int16_t> gi(3 * hidden), gh(3 * hidden), state(hidden);
    std::uniform_int_distribution<int> g(-32768, 32767);
    for (auto& v : gi) v = static_cast<int16_t>(g(rng));
    for (auto& v : gh) v = static_cast<int16_t>(g(rng));
    for (auto& v : state) v = static_cast<int16_t>(g(rng));
    const std::vector<int16_t> before = state;
    std::vector<int8_t> h8(hidden);
    ref_gru_cell_s16(hidden, gi.data(), gh.data(), state.data(), h8.data());
    for (int j = 0; j < hidden; ++j) {
      const double r = Sigmoid((gi[j] + gh[j]) / 4096.0);
      const double z = Sigmoid((gi[hidden + j] + gh[hidden + j]) / 4096.0);
      const double n = std::tanh(gi[2 * hidden + j] / 4096.0 + r * gh[2 * hidden + j] / 4096.0);
      const double h = (1 - z) * n + z * before[j] / 32768.0;
      ASSERT_NEAR(state[j] / 32768.0, h, 1.0 / 32768.0) << j;
      ASSERT_EQ(h8[j], fxp::SaturateToInt8(fxp::RoundingDivideByPOT(state[j], 8)));
    }
  }
}

// The attention context: Q0.15 weights over Q0.15 encoder states, rounded once by 2^23 to int8.
TEST(ContextS16S8, BitExactAndCloseToDouble) {
  std::mt19937 rng(20);
  for (int32_t count : {1, 2, 9, 50}) {
    for (int32_t dim : {1, 7, 64}) {
      // Weights summing to at most 1 (a softmax times a Gaussian).
      std::vector<int16_t> w(count);
      int remaining = 32767;
      for (int s = 0; s < count; ++s) {
        w[s] = static_cast<int16_t>(s + 1 == count ? remaining : rng() % (remaining / 2 + 1));
        remaining -= w[s];
      }
      std::vector<int16_t> memory(count * dim);
      std::uniform_int_distribution<int> d16(-32768, 32767);
      for (auto& v : memory) v = static_cast<int16_t>(d16(rng));
      std::vector<int8_t> out(dim);
      ref_context_s16_s8(count, w.data(), memory.data(), dim, out.data());
      for (int d = 0; d < dim; ++d) {
        int64_t acc = 0;
        double real = 0;
        for (int s = 0; s < count; ++s) {
          acc += int64_t(w[s]) * memory[s * dim + d];
          real += w[s] / 32768.0 * memory[s * dim + d] / 32768.0;
        }
        const int64_t mag = acc >= 0 ? acc : -acc;
        const int64_t expected = (acc >= 0 ? 1 : -1) * ((mag + (1 << 22)) >> 23);
        ASSERT_EQ(out[d], std::clamp<int64_t>(expected, -128, 127));
        ASSERT_NEAR(out[d] / 128.0, std::min(real, 127.0 / 128.0), 0.5 / 128.0 + 1e-9);
      }
    }
  }
}

TEST(LocalP, PositionWindowAndGaussianMatchDouble) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> logit(-12.0, 12.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const int32_t S = 1 + static_cast<int32_t>(rng() % 60);
    const int32_t D = 1 + static_cast<int32_t>(rng() % 10);
    const double l = logit(rng);
    const int int_bits = (trial % 2) ? 5 : 11;
    const int32_t l_q = static_cast<int32_t>(std::llround(std::ldexp(l, 31 - int_bits)));
    const int32_t p_q16 = ref_local_p_position_q16(l_q, int_bits, S);
    const double p = S * Sigmoid(std::ldexp(double(l_q), int_bits - 31));
    ASSERT_NEAR(p_q16 / 65536.0, p, 1.0 / 65536.0 + S * 3e-8) << l;
    int32_t lo = 0, hi = 0;
    ref_local_p_window(p_q16, D, S, &lo, &hi);
    const double pq = p_q16 / 65536.0;  // the window is exact for the fixed-point p
    ASSERT_EQ(lo, std::max(0, static_cast<int32_t>(std::ceil(pq - D))));
    ASSERT_EQ(hi, std::min(S - 1, static_cast<int32_t>(std::floor(pq + D))));
    ASSERT_LE(lo, hi);
    std::vector<int16_t> w(hi - lo + 1);
    std::uniform_int_distribution<int> wd(0, 32767);
    for (auto& v : w) v = static_cast<int16_t>(wd(rng));
    const std::vector<int16_t> before = w;
    ref_local_p_gaussian_s16(lo, hi, p_q16, D, w.data());
    const double sigma = D / 2.0;
    for (int s = lo; s <= hi; ++s) {
      const double g = std::exp(-(s - pq) * (s - pq) / (2 * sigma * sigma));
      ASSERT_NEAR(w[s - lo], before[s - lo] * g, 1.0) << "s=" << s << " p=" << pq << " D=" << D;
    }
  }
  // Edges: p = 0 and p = S.
  int32_t lo = 0, hi = 0;
  ref_local_p_window(0, 2, 10, &lo, &hi);
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 2);
  ref_local_p_window(10 << 16, 2, 10, &lo, &hi);
  EXPECT_EQ(lo, 8);
  EXPECT_EQ(hi, 9);
  EXPECT_EQ(ref_local_p_position_q16(0, 11, 10), 5 << 16);
}

}  // namespace
}  // namespace edgenmt
