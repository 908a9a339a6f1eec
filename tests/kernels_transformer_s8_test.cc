// The int8-full Transformer's kernels (kernels/kernels_s8.h, docs/INT8.md "int8-full
// Transformer"): the reference against real arithmetic in double (layer norm, GELU, the
// embedding's scale) or its exact integer definition (requantization, residual add, attention
// products), on random and edge inputs from fixed seeds; then every backend table that names
// the operations bit-exact with the reference. The GELU table's entries against std::erf.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <vector>

#include "edgenmt/internal/fixed_point_transformer.h"
#include "kernels/kernel_table.h"
#include "kernels/kernels_s8.h"
#include "kernels/simd/simd_level.h"

namespace edgenmt {
namespace {

// z[i] = (x[i] - mean) / sqrt(var + eps) in real units, eps as the integer kernel can hold it
// at this fraction (LayerNormEpsRaw; 1e-5 from 8 bits on).
std::vector<double> LayerNormExact(const std::vector<int32_t>& x, int32_t frac) {
  const double eps = std::ldexp(static_cast<double>(fxp::LayerNormEpsRaw(frac)), -2 * frac);
  double mean = 0, var = 0;
  for (int32_t v : x) mean += std::ldexp(v, -frac);
  mean /= static_cast<double>(x.size());
  for (int32_t v : x) var += (std::ldexp(v, -frac) - mean) * (std::ldexp(v, -frac) - mean);
  var /= static_cast<double>(x.size());
  // The kernel's variance is at least one unit of its input squared.
  const double variance = std::max(var + eps, std::ldexp(1.0, -2 * frac));
  std::vector<double> z(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    z[i] = (std::ldexp(x[i], -frac) - mean) / std::sqrt(variance);
  return z;
}

TEST(TransformerKernels, LayerNormMatchesRealArithmetic) {
  std::mt19937 rng(25);
  for (int32_t n : {1, 2, 7, 16, 128, 1000, 4096}) {
    for (int32_t frac : {0, 9, 11, 20}) {
      for (int32_t magnitude : {1, 1000, 30000, 1 << 28}) {
        std::uniform_int_distribution<int32_t> value(-magnitude, magnitude);
        std::uniform_int_distribution<int32_t> param(-(3 << 20), 3 << 20);
        std::vector<int32_t> x(n), gain(n), shift(n), y(n);
        for (int32_t i = 0; i < n; ++i) {
          x[i] = value(rng);
          gain[i] = param(rng);
          shift[i] = param(rng);
        }
        ref_layer_norm_s32(n, x.data(), frac, gain.data(), shift.data(), y.data());
        // The mean and the variance are rounded to units of the input (and its square): an
        // error of 1 / std and |z| / variance in those units, besides 32-bit 1/sqrt (relative
        // 2^-20) and the pre-shift of huge rows.
        double mean = 0, var = 0;
        for (int32_t v : x) mean += v;
        mean /= n;
        for (int32_t v : x) var += (v - mean) * (v - mean);
        var = std::max(var / n, 1.0);
        const std::vector<double> exact = LayerNormExact(x, frac);
        for (int32_t i = 0; i < n; ++i) {
          const double z = exact[i];
          const double want = z * std::ldexp(gain[i], -20) + std::ldexp(shift[i], -20);
          const double g = 1 + std::ldexp(std::abs(gain[i]), -20);
          const double tolerance =
              g * (4e-6 * (1 + std::fabs(z)) + 1 / std::sqrt(var) + std::fabs(z) / var) +
              (magnitude > (1 << 24) ? 1e-4 * std::fabs(z) : 0.0);
          ASSERT_NEAR(std::ldexp(y[i], -20), want, tolerance)
              << "n " << n << " frac " << frac << " magnitude " << magnitude << " i " << i;
        }
      }
    }
  }
}

TEST(TransformerKernels, LayerNormOfAConstantRowIsItsShift) {
  // Zero variance: eps alone, no division by zero; every z is 0.
  std::vector<int32_t> x(64, 12345), gain(64, 1 << 20), shift(64), y(64);
  for (int32_t i = 0; i < 64; ++i) shift[i] = i - 32;
  ref_layer_norm_s32(64, x.data(), 10, gain.data(), shift.data(), y.data());
  for (int32_t i = 0; i < 64; ++i) EXPECT_EQ(y[i], shift[i]);
  // In place, extreme int32 values saturate instead of overflowing.
  std::vector<int32_t> z = {fxp::kInt32Max, fxp::kInt32Min, 0, 1};
  std::vector<int32_t> big_gain(4, fxp::kInt32Max), zero(4, 0);
  ref_layer_norm_s32(4, z.data(), 0, big_gain.data(), zero.data(), z.data());
  EXPECT_GT(z[0], 0);
  EXPECT_LT(z[1], 0);
}

TEST(TransformerKernels, GeluTableIsTheNormalCdf) {
  for (int32_t k = 0; k <= fxp::kGeluTableLast; ++k) {
    const double x = static_cast<double>(k) / fxp::kGeluTableStepsPerUnit - 4.0;
    const double phi = 0.5 * (1.0 + std::erf(x / std::sqrt(2.0)));
    ASSERT_EQ(fxp::kNormalCdfTableQ15[k], std::lround(phi * 32768.0)) << k;
  }
}

TEST(TransformerKernels, GeluMatchesErfForm) {
  for (int64_t raw = -(int64_t{9} << 20); raw <= (int64_t{9} << 20); raw += 977) {
    const int32_t x = static_cast<int32_t>(raw);
    const double real = std::ldexp(x, -20);
    const double want = real * 0.5 * (1.0 + std::erf(real / std::sqrt(2.0)));
    ASSERT_NEAR(std::ldexp(fxp::GeluQ20(x), -20), want, 3e-4) << real;
  }
  EXPECT_EQ(fxp::GeluQ20(fxp::kInt32Max), fxp::kInt32Max);
  EXPECT_EQ(fxp::GeluQ20(fxp::kInt32Min), 0);
}

TEST(TransformerKernels, InverseSqrtAndDivision) {
  for (int64_t v : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{32}, int64_t{1} << 20,
                    int64_t{123456789}, int64_t{1} << 50, (int64_t{1} << 51) - 1}) {
    const fxp::InverseSqrt inv = fxp::InverseSqrtOfVariance(v);
    const double got = std::ldexp(static_cast<double>(inv.r), -(62 - inv.q));
    EXPECT_NEAR(got * std::sqrt(static_cast<double>(v)), 1.0, 1e-9) << v;
  }
  EXPECT_EQ(fxp::SquareRootFloor64(0), 0u);
  EXPECT_EQ(fxp::SquareRootFloor64(99), 9u);
  EXPECT_EQ(fxp::SquareRootFloor64(100), 10u);
  EXPECT_EQ(fxp::SquareRootFloor64(~uint64_t{0}), 4294967295u);
  EXPECT_EQ(fxp::RoundingDivide64(7, 2), 4);
  EXPECT_EQ(fxp::RoundingDivide64(-7, 2), -4);
  EXPECT_EQ(fxp::RoundingDivide64(-5, 3), -2);
  EXPECT_EQ(fxp::LayerNormEpsRaw(0), 0);
  EXPECT_EQ(fxp::LayerNormEpsRaw(10), 10);  // 2^20 / 1e5 = 10.49
  EXPECT_EQ(fxp::LayerNormEpsRaw(-1), 0);
}

TEST(TransformerKernels, RequantizationAndResidualAreTheirDefinition) {
  const std::vector<int32_t> x = {0,
                                  1,
                                  -1,
                                  1 << 12,
                                  -(1 << 12),
                                  (3 << 12) / 2,
                                  -(3 << 12) / 2,
                                  fxp::kInt32Max,
                                  fxp::kInt32Min,
                                  200 << 13,
                                  -(200 << 13)};
  std::vector<int8_t> y(x.size()), relu(x.size());
  ref_requantize_s32_s8(static_cast<int32_t>(x.size()), x.data(), 13, false, y.data());
  ref_requantize_s32_s8(static_cast<int32_t>(x.size()), x.data(), 13, true, relu.data());
  const std::vector<int8_t> want = {0, 0, 0, 1, -1, 1, -1, 127, -128, 127, -128};
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(y[i], want[i]) << i;
    EXPECT_EQ(relu[i], want[i] < 0 ? 0 : want[i]) << i;
  }
  std::vector<int16_t> residual = {100, 32760, -32760, 0};
  const std::vector<int32_t> add = {3 << 4, 100 << 4, -(100 << 4), -(1 << 3)};
  ref_residual_add_s32_s16(4, add.data(), 4, residual.data());
  EXPECT_EQ(residual, (std::vector<int16_t>{103, 32767, -32768, -1}));
  std::vector<int8_t> g(2);
  const std::vector<int32_t> gx = {1 << 20, -(1 << 20)};
  ref_gelu_s32_s8(2, gx.data(), 13, g.data());
  EXPECT_EQ(g[0], 108);  // gelu(1) = 0.841 at 2^-7
  EXPECT_EQ(g[1], -20);  // gelu(-1) = -0.159
}

TEST(TransformerKernels, AttentionProductsAreExact) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> byte(-128, 127);
  const int32_t n = 37, d = 64, dim = 16, offset = 32;
  std::vector<std::vector<int8_t>> rows(n, std::vector<int8_t>(d));
  std::vector<const int8_t*> pointers(n);
  for (int32_t j = 0; j < n; ++j) {
    for (int8_t& v : rows[j]) v = static_cast<int8_t>(byte(rng));
    pointers[j] = rows[j].data();
  }
  std::vector<int8_t> q(dim);
  for (int8_t& v : q) v = static_cast<int8_t>(byte(rng));
  std::vector<int32_t> scores(n);
  const int32_t multiplier = 1518500250, shift = -3;
  ref_attention_scores_s8(n, q.data(), pointers.data(), offset, dim, multiplier, shift,
                          scores.data());
  for (int32_t j = 0; j < n; ++j) {
    int32_t dot = 0;
    for (int32_t i = 0; i < dim; ++i) dot += q[i] * rows[j][offset + i];
    EXPECT_EQ(scores[j], fxp::MultiplyByQuantizedMultiplier(dot, multiplier, shift));
  }
  std::vector<int16_t> weights(n);
  for (int32_t j = 0; j < n; ++j) weights[j] = static_cast<int16_t>(32768 / n);
  weights[0] = 32767;  // sums above 1 saturate nothing in int32
  std::vector<int8_t> out(dim);
  ref_attention_context_s8(n, weights.data(), pointers.data(), offset, dim, out.data());
  for (int32_t i = 0; i < dim; ++i) {
    int64_t sum = 0;
    for (int32_t j = 0; j < n; ++j) sum += weights[j] * rows[j][offset + i];
    EXPECT_EQ(out[i],
              fxp::SaturateToInt8(static_cast<int32_t>(fxp::RoundingDivideByPOT64(sum, 15))));
  }
}

TEST(TransformerKernels, EmbeddingLookupScalesIntoQ20) {
  const int8_t table[6] = {127, -127, 1, 64, -64, 0};
  // Row scales 0.01 and 0.5 into Q11.20, then sqrt(2).
  int32_t row_multiplier[2], row_shift[2];
  int shift0 = 0, shift1 = 0;
  ASSERT_TRUE(fxp::QuantizeMultiplier(0.01 * 1048576.0, &row_multiplier[0], &shift0));
  ASSERT_TRUE(fxp::QuantizeMultiplier(0.5 * 1048576.0, &row_multiplier[1], &shift1));
  row_shift[0] = shift0;
  row_shift[1] = shift1;
  int32_t scale_multiplier = 0;
  int scale_shift = 0;
  ASSERT_TRUE(fxp::QuantizeMultiplier(std::sqrt(2.0), &scale_multiplier, &scale_shift));
  const int32_t ids[3] = {1, 0, 1};
  int32_t out[3 * 4] = {};
  ref_embedding_lookup_s8_s32(3, ids, table, row_multiplier, row_shift, 3, scale_multiplier,
                              scale_shift, out, 4);
  const double scales[2] = {0.01, 0.5};
  for (int32_t r = 0; r < 3; ++r) {
    for (int32_t d = 0; d < 3; ++d) {
      const double want = table[ids[r] * 3 + d] * scales[ids[r]] * std::sqrt(2.0);
      EXPECT_NEAR(std::ldexp(out[r * 4 + d], -20), want, 3e-6) << r << " " << d;
    }
    EXPECT_EQ(out[r * 4 + 3], 0);  // the stride's gap is untouched
  }
}

// Every backend table that names these operations gives the reference's bits.
TEST(TransformerKernels, EveryBackendIsBitExactWithTheReference) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int32_t> wide(-(1 << 24), 1 << 24);
  const int32_t n = 77;
  std::vector<int32_t> x(n), gain(n), shift(n);
  for (int32_t i = 0; i < n; ++i) {
    x[i] = wide(rng);
    gain[i] = wide(rng) / 4;
    shift[i] = wide(rng);
  }
  const KernelTable& ref = ReferenceKernelTable();
  std::vector<int32_t> want(n), got(n);
  std::vector<int8_t> want8(n), got8(n);
  ref.layer_norm_s32(n, x.data(), 15, gain.data(), shift.data(), want.data());
  for (SimdLevel level : kSimdLevels) {
    const KernelTable* simd = nullptr;
    if (GetSimdKernelTable(level, &simd) != Status::kOk) continue;
    SCOPED_TRACE(SimdLevelName(level));
    simd->layer_norm_s32(n, x.data(), 15, gain.data(), shift.data(), got.data());
    EXPECT_EQ(got, want);
    for (bool relu : {false, true}) {
      ref.requantize_s32_s8(n, x.data(), 17, relu, want8.data());
      simd->requantize_s32_s8(n, x.data(), 17, relu, got8.data());
      EXPECT_EQ(got8, want8);
    }
    ref.gelu_s32_s8(n, x.data(), 15, want8.data());
    simd->gelu_s32_s8(n, x.data(), 15, got8.data());
    EXPECT_EQ(got8, want8);
    // Every shift, lengths with and without tails, values that saturate.
    for (int32_t shift = 0; shift <= 31; ++shift) {
      for (int32_t m : {1, 7, 8, 15, 16, 31, 32, 33, 77}) {
        for (bool relu : {false, true}) {
          ref.requantize_s32_s8(m, x.data(), shift, relu, want8.data());
          simd->requantize_s32_s8(m, x.data(), shift, relu, got8.data());
          ASSERT_TRUE(std::equal(want8.begin(), want8.begin() + m, got8.begin()))
              << shift << " " << m;
        }
        std::vector<int16_t> r_want(n), r_got(n);
        for (int32_t i = 0; i < n; ++i) r_want[i] = r_got[i] = static_cast<int16_t>(x[i] >> 9);
        ref.residual_add_s32_s16(m, x.data(), shift, r_want.data());
        simd->residual_add_s32_s16(m, x.data(), shift, r_got.data());
        ASSERT_EQ(r_got, r_want) << shift << " " << m;
      }
    }
    // Attention over scattered rows: heads at offsets, dims with and without tails.
    std::uniform_int_distribution<int32_t> byte(-128, 127);
    std::vector<std::vector<int8_t>> rows(41, std::vector<int8_t>(96));
    std::vector<const int8_t*> pointers;
    for (auto& row : rows) {
      for (int8_t& v : row) v = static_cast<int8_t>(byte(rng));
      pointers.push_back(row.data());
    }
    std::vector<int8_t> q(48);
    for (int8_t& v : q) v = static_cast<int8_t>(byte(rng));
    std::vector<int16_t> weights(41);
    for (int16_t& w : weights) w = static_cast<int16_t>(byte(rng) + 128) * 3;
    for (int32_t dim : {1, 5, 8, 16, 24, 32, 48}) {
      for (int32_t count : {1, 3, 41}) {
        std::vector<int32_t> s_want(count), s_got(count);
        ref.attention_scores_s8(count, q.data(), pointers.data(), 40, dim, 1518500250, 2,
                                s_want.data());
        simd->attention_scores_s8(count, q.data(), pointers.data(), 40, dim, 1518500250, 2,
                                  s_got.data());
        ASSERT_EQ(s_got, s_want) << dim << " " << count;
        std::vector<int8_t> c_want(dim), c_got(dim);
        ref.attention_context_s8(count, weights.data(), pointers.data(), 40, dim, c_want.data());
        simd->attention_context_s8(count, weights.data(), pointers.data(), 40, dim, c_got.data());
        ASSERT_EQ(c_got, c_want) << dim << " " << count;
      }
    }
  }
}

// Layer norm, GELU and the embedding on every SIMD table against the reference: lengths with
// and without vector tails, rows from tiny to int32-spanning (the scalar branch), a variance of
// exactly a power of 4 (1 / sqrt = 2^32 / 2^(62 - q), its own branch), GELU over the whole
// table and beyond, every shift; embedding scales with left and right shifts.
TEST(TransformerKernels, NormGeluAndEmbeddingAreBitExactOnEveryBackend) {
  std::mt19937 rng(11);
  const KernelTable& ref = ReferenceKernelTable();
  for (SimdLevel level : kSimdLevels) {
    const KernelTable* simd = nullptr;
    if (GetSimdKernelTable(level, &simd) != Status::kOk) continue;
    SCOPED_TRACE(SimdLevelName(level));
    for (int32_t n : {1, 3, 4, 7, 8, 9, 16, 31, 77, 128, 515, 4096}) {
      for (int64_t magnitude :
           {int64_t{3}, int64_t{1} << 12, int64_t{1} << 24, int64_t{1} << 29, int64_t{1} << 31}) {
        std::uniform_int_distribution<int64_t> value(-magnitude, magnitude - 1);
        std::uniform_int_distribution<int32_t> wide(-(1 << 22), 1 << 22);
        std::vector<int32_t> x(n), gain(n), shift(n), want(n), got(n);
        const int32_t offset = wide(rng) * 64;
        for (int32_t i = 0; i < n; ++i) {
          x[i] = static_cast<int32_t>(
              std::clamp<int64_t>(value(rng) + offset, fxp::kInt32Min, fxp::kInt32Max));
          gain[i] = wide(rng) * (i % 5 == 0 ? 256 : 1);
          shift[i] = wide(rng) * (i % 7 == 0 ? 500 : 1);
        }
        for (int32_t frac : {0, 15, 20}) {
          ref.layer_norm_s32(n, x.data(), frac, gain.data(), shift.data(), want.data());
          simd->layer_norm_s32(n, x.data(), frac, gain.data(), shift.data(), got.data());
          ASSERT_EQ(got, want) << n << " " << magnitude << " " << frac;
        }
      }
      // Alternating +-2^k with no eps (0 fractional bits): variance exactly 4^k.
      std::vector<int32_t> x(n), gain(n, 1 << 20), shift(n, 0), want(n), got(n);
      for (int32_t k : {0, 5, 20}) {
        for (int32_t i = 0; i < n; ++i) x[i] = (i % 2 ? -1 : 1) * (1 << k);
        ref.layer_norm_s32(n, x.data(), 0, gain.data(), shift.data(), want.data());
        simd->layer_norm_s32(n, x.data(), 0, gain.data(), shift.data(), got.data());
        ASSERT_EQ(got, want) << n << " 2^" << k;
      }
    }
    // GELU: every 97th Q11.20 value over [-6, 6], the table's edges, and int32's extremes.
    std::vector<int32_t> g;
    for (int64_t v = -(int64_t{6} << 20); v <= (int64_t{6} << 20); v += 97)
      g.push_back(static_cast<int32_t>(v));
    for (int32_t v : std::initializer_list<int32_t>{-(4 << 20) - 1, -(4 << 20), -(4 << 20) + 1,
                                                    (4 << 20) - 1, 4 << 20, (4 << 20) + 1,
                                                    fxp::kInt32Min, fxp::kInt32Max, -1, 0, 1})
      g.push_back(v);
    const int32_t gn = static_cast<int32_t>(g.size());
    std::vector<int8_t> want8(gn), got8(gn);
    for (int32_t shift : {0, 7, 12, 15, 20, 31}) {
      for (int32_t m : std::initializer_list<int32_t>{gn, 1, 5, 31, 33}) {
        ref.gelu_s32_s8(m, g.data() + gn - m, shift, want8.data());
        simd->gelu_s32_s8(m, g.data() + gn - m, shift, got8.data());
        ASSERT_TRUE(std::equal(want8.begin(), want8.begin() + m, got8.begin()))
            << shift << " " << m;
      }
    }
    // Embedding rows: scales from 2^-10 to 2^6 of Q11.20, so both shift directions.
    std::uniform_int_distribution<int32_t> byte(-128, 127);
    for (int32_t dim : {1, 4, 7, 8, 9, 16, 33, 128}) {
      const int32_t rows = 5;
      std::vector<int8_t> table(rows * dim);
      for (int8_t& v : table) v = static_cast<int8_t>(byte(rng));
      table[0] = -128;
      std::vector<int32_t> row_multiplier(rows), row_shift(rows);
      for (int32_t r = 0; r < rows; ++r) {
        int s = 0;
        ASSERT_TRUE(fxp::QuantizeMultiplier(std::ldexp(1.0 + r / 7.0, 20 - 10 + 4 * r),
                                            &row_multiplier[r], &s));
        row_shift[r] = s;
      }
      for (double scale : {std::sqrt(128.0), 0.3}) {
        int32_t scale_multiplier = 0;
        int scale_shift = 0;
        ASSERT_TRUE(fxp::QuantizeMultiplier(scale, &scale_multiplier, &scale_shift));
        const int32_t ids[6] = {4, 0, 3, 3, 1, 2};
        const int32_t stride = dim + 3;
        std::vector<int32_t> want(6 * stride, 7), got(6 * stride, 7);
        ref.embedding_lookup_s8_s32(6, ids, table.data(), row_multiplier.data(), row_shift.data(),
                                    dim, scale_multiplier, scale_shift, want.data(), stride);
        simd->embedding_lookup_s8_s32(6, ids, table.data(), row_multiplier.data(), row_shift.data(),
                                      dim, scale_multiplier, scale_shift, got.data(), stride);
        ASSERT_EQ(got, want) << dim << " " << scale;
      }
    }
  }
}

}  // namespace
}  // namespace edgenmt
