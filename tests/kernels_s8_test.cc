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

#include "edgenmt/internal/fixed_point.h"
#include "kernels_s8_support.h"

namespace edgenmt {
namespace {

using namespace ::edgenmt::s8_testing;  // NOLINT(build/namespaces): the shared test helpers

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
    for (int d = 0; d < dim; ++d)
      EXPECT_EQ(out[i * 20 + d], scales[ids[i]] * table[ids[i] * dim + d]);
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
    const int32_t rows = 1 + static_cast<int32_t>(rng() % 3),
                  out = 1 + static_cast<int32_t>(rng() % 20);
    const int32_t col0 = static_cast<int32_t>(rng() % 5), w_stride = col0 + k + 3, x_stride = k + 2;
    auto x = RandomS8(rng, rows * x_stride);
    auto w = RandomS8(rng, out * w_stride, -127, 127);
    std::vector<int32_t> mult(out), shift(out), bias(out);
    for (int m = 0; m < out; ++m) {
      int sh = 0;
      fxp::QuantizeMultiplier(
          std::ldexp(1.0 + (rng() % 1000) / 1000.0, static_cast<int>(rng() % 20) - 5), &mult[m],
          &sh);
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
        for (int i = 0; i < k; ++i)
          acc += int64_t(x[r * x_stride + i]) * w[m * w_stride + col0 + i];
        const int sh = std::clamp(shift[m] + offset, -31, 30);
        const int64_t v = int64_t(ExactRequantize(acc, mult[m], sh)) + bias[m];
        ASSERT_EQ(y[r * out + m],
                  std::clamp<int64_t>(11 + std::clamp<int64_t>(v, INT32_MIN, INT32_MAX), INT32_MIN,
                                      INT32_MAX))
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
    const int32_t vocab = 1 + static_cast<int32_t>(rng() % 9),
                  rows = 1 + static_cast<int32_t>(rng() % 4);
    const int32_t out = 1 + static_cast<int32_t>(rng() % 12),
                  w_stride = dim + static_cast<int32_t>(rng() % 4);
    auto table = RandomS8(rng, vocab * dim);
    auto w = RandomS8(rng, out * w_stride, -127, 127);
    std::vector<int32_t> row_mult(vocab), row_shift(vocab), mult(out), shift(out), bias(out),
        ids(rows);
    for (int v = 0; v < vocab; ++v) {  // ratios s_row / s_shared in (0, 1]
      int sh = 0;
      fxp::QuantizeMultiplier(
          std::ldexp(0.5 + (rng() % 1000) / 2000.0, -static_cast<int>(rng() % 6)), &row_mult[v],
          &sh);
      row_shift[v] = sh;
    }
    for (int m = 0; m < out; ++m) {
      int sh = 0;
      fxp::QuantizeMultiplier(
          std::ldexp(1.0 + (rng() % 1000) / 1000.0, static_cast<int>(rng() % 30) - 25), &mult[m],
          &sh);
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
        const __int128 q =
            right > 0 ? (mag + (static_cast<__int128>(1) << (right - 1))) >> right : mag << -right;
        const int64_t scaled =
            std::clamp<int64_t>(static_cast<int64_t>(p >= 0 ? q : -q), INT32_MIN, INT32_MAX);
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

}  // namespace
}  // namespace edgenmt
