// The reference int8 kernels (runtime/src/kernels/kernels_s8.h) against straightforward loops:
// naive int64 accumulation + exact requantization for integer outputs (bit-exact), double
// precision for float outputs and the fixed-point nonlinearities (stated tolerances). Random
// shapes from fixed seeds plus edge shapes: one row, K = 1, 3, 7, 17, 33, 127, 128, 255.
#include "kernels/kernels_s8.h"
#include "kernels/kernel_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "edgenmt/fixed_point.h"

namespace edgenmt {
namespace {

constexpr int32_t kEdgeK[] = {1, 3, 7, 17, 33, 127, 128, 255};

std::vector<int8_t> RandomS8(std::mt19937& rng, size_t n, int lo = -128, int hi = 127) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}
std::vector<float> RandomF32(std::mt19937& rng, size_t n, float range) {
  std::uniform_real_distribution<float> d(-range, range);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

// Exact requantization written out independently of fixed_point.h: saturating left shift,
// round(2 x m / 2^32) ties up, then round(/ 2^right) ties away from zero, in 128-bit math.
int32_t ExactRequantize(int64_t acc64, int32_t m, int shift) {
  const int32_t acc = static_cast<int32_t>(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, acc64)));
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  __int128 x = static_cast<__int128>(acc) * (static_cast<__int128>(1) << left);  // no UB shift
  x = std::max<__int128>(INT32_MIN, std::min<__int128>(INT32_MAX, x));
  __int128 p = 2 * x * m + (static_cast<__int128>(1) << 31);
  __int128 high = p >= 0 ? p >> 32 : -((-p + ((static_cast<__int128>(1) << 32) - 1)) >> 32);
  if (x == INT32_MIN && m == INT32_MIN) high = INT32_MAX;
  if (right == 0) return static_cast<int32_t>(high);
  const __int128 mag = high >= 0 ? high : -high;
  const __int128 rounded = (mag + (static_cast<__int128>(1) << (right - 1))) >> right;
  return static_cast<int32_t>(high >= 0 ? rounded : -rounded);
}

TEST(QuantizeS8, RowQuantizationIsSymmetricPerRow) {
  std::mt19937 rng(11);
  for (int32_t n : kEdgeK) {
    auto x = RandomF32(rng, n, 3.0f);
    std::vector<int8_t> q(n);
    const float scale = ref_quantize_row_f32_s8(n, x.data(), q.data());
    float max_abs = 0;
    for (float v : x) max_abs = std::max(max_abs, std::fabs(v));
    EXPECT_FLOAT_EQ(scale, max_abs / 127.0f);
    for (int32_t i = 0; i < n; ++i) {
      EXPECT_GE(q[i], -127);
      EXPECT_LE(std::fabs(q[i] * scale - x[i]), 0.5f * scale * 1.0001f) << i;
      EXPECT_EQ(q[i], static_cast<int8_t>(std::lround(x[i] / scale))) << i;
    }
  }
  std::vector<float> zeros(5, 0.0f);
  std::vector<int8_t> q(5, 1);
  EXPECT_EQ(ref_quantize_row_f32_s8(5, zeros.data(), q.data()), 0.0f);
  for (int8_t v : q) EXPECT_EQ(v, 0);
}

TEST(QuantizeS8, PowerOfTwoNarrowingRoundsAndSaturates) {
  const int16_t x16[] = {-32768, -129, -128, 127, 128, 32767, 383};
  int8_t y8[7];
  ref_requantize_s16_s8(7, x16, 8, y8);
  const int8_t e8[] = {-128, -1, -1, 0, 1, 127, 1};  // -0.5 -> -1 (ties away), 383/256 = 1.496
  for (int i = 0; i < 7; ++i) EXPECT_EQ(y8[i], e8[i]) << i;
  const int32_t x32[] = {INT32_MAX, INT32_MIN, 6144, -6144, 2048};
  int16_t y16[5];
  ref_narrow_s32_s16(5, x32, 12, y16);
  const int16_t e16[] = {32767, -32768, 2, -2, 1};  // 1.5 -> 2, 0.5 -> 1
  for (int i = 0; i < 5; ++i) EXPECT_EQ(y16[i], e16[i]) << i;
}

// The hybrid lookup; the int8-full embedding rows are checked with their matrix product below
// (EmbeddingRowsAtTheirOwnScalesAreExact).
TEST(EmbeddingS8, LookupsDequantizePerRow) {
  std::mt19937 rng(12);
  const int32_t rows = 9, dim = 17;
  auto table = RandomS8(rng, rows * dim, -127, 127);
  std::vector<float> scales(rows);
  for (int r = 0; r < rows; ++r) scales[r] = 0.01f * (r + 1);
  const int32_t ids[] = {3, 0, 8, 3};
  std::vector<float> out(4 * 20, -7.0f);
  ref_embedding_lookup_s8_f32(4, ids, table.data(), scales.data(), dim, out.data(), 20);
  for (int i = 0; i < 4; ++i) {
    for (int d = 0; d < dim; ++d) EXPECT_EQ(out[i * 20 + d], scales[ids[i]] * table[ids[i] * dim + d]);
    EXPECT_EQ(out[i * 20 + dim], -7.0f);  // stride gap untouched
  }
}

TEST(FullyConnectedS8Hybrid, MatchesDoublePrecisionLoop) {
  std::mt19937 rng(13);
  for (int32_t k : kEdgeK) {
    for (int32_t rows : {1, 2, 5}) {
      const int32_t out = 1 + static_cast<int32_t>(rng() % 33);
      auto x = RandomF32(rng, rows * k, 2.0f);
      auto w = RandomS8(rng, out * k, -127, 127);
      std::vector<float> w_scales(out), bias(out);
      for (int m = 0; m < out; ++m) {
        w_scales[m] = 0.001f + 0.01f * (rng() % 100) / 100.0f;
        bias[m] = 0.1f * static_cast<float>(static_cast<int>(rng() % 21) - 10);
      }
      std::vector<float> y(rows * out, 1.0f);
      std::vector<int8_t> scratch(static_cast<size_t>(kHybridScratchRows) * k);
      ref_fully_connected_s8_hybrid(rows, k, out, x.data(), w.data(), w_scales.data(), bias.data(),
                                    y.data(), /*accumulate=*/true, scratch.data(),
                                    kHybridScratchRows);
      for (int r = 0; r < rows; ++r) {
        // Naive: per-row scale, round half away, exact int64 dot, double rescale.
        double max_abs = 0;
        for (int i = 0; i < k; ++i) max_abs = std::max(max_abs, std::fabs(double(x[r * k + i])));
        const double s = max_abs / 127.0;
        for (int m = 0; m < out; ++m) {
          int64_t acc = 0;
          double exact = 0;
          for (int i = 0; i < k; ++i) {
            const int64_t qi = std::llround(x[r * k + i] / s);
            acc += qi * w[m * k + i];
            exact += double(x[r * k + i]) * w[m * k + i] * w_scales[m];
          }
          const double expected = 1.0 + acc * s * w_scales[m] + bias[m];
          ASSERT_NEAR(y[r * out + m], expected, 1e-5 * (1 + std::fabs(expected))) << k << " " << m;
          // And close to the unquantized product: |error| <= 0.5 * s * sum|w| * w_scale.
          double bound = 0;
          for (int i = 0; i < k; ++i) bound += std::abs(w[m * k + i]);
          ASSERT_NEAR(y[r * out + m], 1.0 + exact + bias[m], 0.5 * s * bound * w_scales[m] + 1e-4);
        }
      }
    }
  }
}

// Per-row multipliers and shifts for scales log-uniform in [scale_lo, scale_hi].
void MakeMultipliers(std::mt19937& rng, int32_t out, double scale_lo, double scale_hi,
                     std::vector<int32_t>* multiplier, std::vector<int32_t>* shift) {
  std::uniform_real_distribution<double> log_scale(std::log(scale_lo), std::log(scale_hi));
  for (int32_t i = 0; i < out; ++i) {
    int32_t m = 0;
    int sh = 0;
    fxp::QuantizeMultiplier(std::exp(log_scale(rng)), &m, &sh);
    multiplier->push_back(m);
    shift->push_back(sh);
  }
}

// The int8-full product kernel over whole rows (stride = K), with and without bias, into a
// fresh and an accumulated int32 output; accumulators start near the int32 limits so the
// saturating sums are exercised as well as the requantization's own saturation.
TEST(FullyConnectedS8, BitExactAgainstNaiveLoopsOnRandomAndEdgeShapes) {
  std::mt19937 rng(14);
  int checked = 0, saturated = 0;
  for (int32_t k : kEdgeK) {
    for (int32_t rows : {1, 3}) {
      for (bool with_bias : {true, false}) {
        const int32_t out = 1 + static_cast<int32_t>(rng() % 40);
        auto x = RandomS8(rng, rows * k);
        auto w = RandomS8(rng, out * k, -127, 127);
        std::vector<int32_t> bias(out);
        for (auto& b : bias) b = static_cast<int32_t>(rng() % 200001) - 100000;
        std::vector<int32_t> mult, shift;
        MakeMultipliers(rng, out, 0.5, 4096.0, &mult, &shift);
        const int32_t starts[] = {5, INT32_MAX - 1000, INT32_MIN + 1000};
        std::vector<int32_t> y(rows * out), y_plain(rows * out, 7);
        for (size_t i = 0; i < y.size(); ++i) y[i] = starts[rng() % 3];
        const std::vector<int32_t> y_before = y;
        const int32_t* b = with_bias ? bias.data() : nullptr;
        ref_fully_connected_s8_s32(rows, k, out, x.data(), k, w.data(), k, mult.data(),
                                   shift.data(), 0, b, y.data(), true);
        ref_fully_connected_s8_s32(rows, k, out, x.data(), k, w.data(), k, mult.data(),
                                   shift.data(), 0, b, y_plain.data(), false);
        for (int r = 0; r < rows; ++r) {
          for (int m = 0; m < out; ++m) {
            int64_t dot = 0;
            for (int i = 0; i < k; ++i) dot += int64_t(x[r * k + i]) * w[m * k + i];
            const int64_t v = std::clamp<int64_t>(
                int64_t(ExactRequantize(dot, mult[m], shift[m])) + (with_bias ? bias[m] : 0),
                INT32_MIN, INT32_MAX);
            const int64_t e = std::clamp<int64_t>(y_before[r * out + m] + v, INT32_MIN, INT32_MAX);
            ASSERT_EQ(y_plain[r * out + m], v) << "K=" << k << " row " << r << " out " << m;
            ASSERT_EQ(y[r * out + m], e) << "K=" << k << " row " << r << " out " << m;
            saturated += (e == INT32_MIN || e == INT32_MAX) + (v == INT32_MIN || v == INT32_MAX);
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(saturated, 10) << "the random scales and starts should exercise saturation";
  EXPECT_GT(checked - saturated, 100) << "and many unsaturated values";
}

TEST(FullyConnectedS8, StridedColumnBlockWithShiftOffsetIsExact) {
  std::mt19937 rng(22);
  for (int32_t k : kEdgeK) {
    const int32_t rows = 1 + static_cast<int32_t>(rng() % 3), out = 1 + static_cast<int32_t>(rng() % 20);
    const int32_t col0 = static_cast<int32_t>(rng() % 5), w_stride = col0 + k + 3, x_stride = k + 2;
    auto x = RandomS8(rng, rows * x_stride);
    auto w = RandomS8(rng, out * w_stride, -127, 127);
    std::vector<int32_t> mult(out), shift(out), bias(out);
    for (int m = 0; m < out; ++m) {
      int sh = 0;
      fxp::QuantizeMultiplier(std::ldexp(1.0 + (rng() % 1000) / 1000.0, static_cast<int>(rng() % 20) - 5), &mult[m], &sh);
      shift[m] = sh;
      bias[m] = static_cast<int32_t>(rng() % 20001) - 10000;
    }
    const int32_t offset = -7;
    std::vector<int32_t> y(rows * out, 11);
    ref_fully_connected_s8_s32(rows, k, out, x.data(), x_stride, w.data() + col0, w_stride,
                               mult.data(), shift.data(), offset, bias.data(), y.data(), true);
    for (int r = 0; r < rows; ++r) {
      for (int m = 0; m < out; ++m) {
        int64_t acc = 0;
        for (int i = 0; i < k; ++i) acc += int64_t(x[r * x_stride + i]) * w[m * w_stride + col0 + i];
        const int sh = std::clamp(shift[m] + offset, -31, 30);
        const int64_t v = int64_t(ExactRequantize(acc, mult[m], sh)) + bias[m];
        ASSERT_EQ(y[r * out + m], std::clamp<int64_t>(11 + std::clamp<int64_t>(v, INT32_MIN, INT32_MAX), INT32_MIN, INT32_MAX))
            << "K=" << k << " r=" << r << " m=" << m;
      }
    }
  }
}

// Embedding rows at their own scales: one exact rounding to the shared scale (6 extra bits),
// then the matrix requantization (shift - 6), then the bias, on random tables, ids and scales.
TEST(FullyConnectedS8, EmbeddingRowsAtTheirOwnScalesAreExact) {
  std::mt19937 rng(31);
  for (int32_t dim : kEdgeK) {
    const int32_t vocab = 1 + static_cast<int32_t>(rng() % 9), rows = 1 + static_cast<int32_t>(rng() % 4);
    const int32_t out = 1 + static_cast<int32_t>(rng() % 12), w_stride = dim + static_cast<int32_t>(rng() % 4);
    auto table = RandomS8(rng, vocab * dim);
    auto w = RandomS8(rng, out * w_stride, -127, 127);
    std::vector<int32_t> row_mult(vocab), row_shift(vocab), mult(out), shift(out), bias(out), ids(rows);
    for (int v = 0; v < vocab; ++v) {  // ratios s_row / s_shared in (0, 1]
      int sh = 0;
      fxp::QuantizeMultiplier(std::ldexp(0.5 + (rng() % 1000) / 2000.0, -static_cast<int>(rng() % 6)), &row_mult[v], &sh);
      row_shift[v] = sh;
    }
    for (int m = 0; m < out; ++m) {
      int sh = 0;
      fxp::QuantizeMultiplier(std::ldexp(1.0 + (rng() % 1000) / 1000.0, static_cast<int>(rng() % 30) - 25), &mult[m], &sh);
      shift[m] = sh;
      bias[m] = static_cast<int32_t>(rng() % 200001) - 100000;
    }
    for (auto& id : ids) id = static_cast<int32_t>(rng() % vocab);
    std::vector<int32_t> y(rows * out, 0);
    ref_embedding_fully_connected_s8_s32(rows, ids.data(), table.data(), row_mult.data(),
                                         row_shift.data(), dim, out, w.data(), w_stride,
                                         mult.data(), shift.data(), bias.data(), y.data());
    for (int r = 0; r < rows; ++r) {
      const int id = ids[r];
      for (int m = 0; m < out; ++m) {
        int64_t acc = 0;
        for (int i = 0; i < dim; ++i) acc += int64_t(table[id * dim + i]) * w[m * w_stride + i];
        // round(acc * M / 2^(31 - shift - 6)), ties away from zero, in 128 bits.
        const int right = 31 - (row_shift[id] + 6);
        const __int128 p = static_cast<__int128>(acc) * row_mult[id];
        const __int128 mag = p >= 0 ? p : -p;
        const __int128 q = right > 0 ? (mag + (static_cast<__int128>(1) << (right - 1))) >> right : mag << -right;
        const int64_t scaled = std::clamp<int64_t>(static_cast<int64_t>(p >= 0 ? q : -q), INT32_MIN, INT32_MAX);
        const int sh = std::max(shift[m] - 6, -31);
        const int64_t v = int64_t(ExactRequantize(scaled, mult[m], sh)) + bias[m];
        ASSERT_EQ(y[r * out + m], std::clamp<int64_t>(v, INT32_MIN, INT32_MAX))
            << "dim=" << dim << " r=" << r << " m=" << m;
      }
    }
  }
}

TEST(FullyConnectedS8, ZeroMultiplierAndSaturatingSums) {
  const int8_t x[] = {127, 127, 127};
  const int8_t w[] = {127, 127, 127, -128, -128, -128};
  const int32_t half[] = {1 << 30, 1 << 30}, zero[] = {0, 0}, shift[] = {0, 0};  // * 0.5, * 0
  const int32_t bias[] = {7, -7};
  int32_t y[2] = {123, 456};
  ref_fully_connected_s8_s32(1, 3, 2, x, 3, w, 3, zero, shift, 0, bias, y, false);
  EXPECT_EQ(y[0], 7);
  EXPECT_EQ(y[1], -7);
  ref_fully_connected_s8_s32(1, 3, 2, x, 3, w, 3, half, shift, 0, nullptr, y, false);
  EXPECT_EQ(y[0], ExactRequantize(3 * 127 * 127, 1 << 30, 0));
  EXPECT_EQ(y[1], ExactRequantize(-3 * 128 * 127, 1 << 30, 0));
  int32_t at_limits[2] = {INT32_MAX - 1, INT32_MIN + 1};
  ref_fully_connected_s8_s32(1, 3, 2, x, 3, w, 3, half, shift, 0, nullptr, at_limits, true);
  EXPECT_EQ(at_limits[0], INT32_MAX);
  EXPECT_EQ(at_limits[1], INT32_MIN);
  const int32_t extreme_bias[] = {INT32_MAX, INT32_MIN};
  ref_fully_connected_s8_s32(1, 3, 2, x, 3, w, 3, half, shift, 0, extreme_bias, y, false);
  EXPECT_EQ(y[0], INT32_MAX);
  EXPECT_EQ(y[1], INT32_MIN);
}

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
      std::uniform_real_distribution<double> d(-std::ldexp(1.0, int_bits - 1), std::ldexp(1.0, int_bits - 1));
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
      for (auto& v : cell) v = static_cast<int16_t>(std::lround(std::ldexp(c(rng), 15 - cell_int_bits)));
      const std::vector<int16_t> cell_before = cell;
      std::vector<int8_t> h(hidden);
      std::vector<int16_t> h16(hidden);
      ref_lstm_cell_s16(hidden, gates.data(), cell_int_bits, cell.data(), h.data(), h16.data());
      const double cell_lsb = std::ldexp(1.0, cell_int_bits - 15);
      for (int j = 0; j < hidden; ++j) {
        const double i = Sigmoid(gates[j] / 4096.0), f = Sigmoid(gates[hidden + j] / 4096.0);
        const double gg = std::tanh(gates[2 * hidden + j] / 4096.0), o = Sigmoid(gates[3 * hidden + j] / 4096.0);
        const double c_new = std::clamp(f * cell_before[j] * cell_lsb + i * gg, -32768 * cell_lsb, 32767 * cell_lsb);
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
