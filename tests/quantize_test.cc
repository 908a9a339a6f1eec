// converter/quantize.h: per-row int8, SQNR, requantization parameters, calibration records.
#include "quantize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "convert_error.h"
#include "edgenmt/internal/fixed_point.h"

namespace edgenmt::converter {
namespace {

TEST(QuantizeRows, PerRowScaleAndRoundTripError) {
  std::mt19937 rng(31);
  for (int64_t cols : {1, 3, 7, 17, 33, 127}) {
    const int64_t rows = 5;
    std::vector<float> w(rows * cols);
    for (int64_t r = 0; r < rows; ++r) {
      std::normal_distribution<float> d(0.0f, 0.01f * (r + 1));  // rows of different magnitude
      for (int64_t c = 0; c < cols; ++c) w[r * cols + c] = d(rng);
    }
    const QuantizedRows q = QuantizeRowsSymmetric(w.data(), rows, cols);
    ASSERT_EQ(q.scales.size(), static_cast<size_t>(rows));
    const std::vector<float> back = DequantizeRows(q, rows, cols);
    for (int64_t r = 0; r < rows; ++r) {
      float max_abs = 0;
      int max_q = 0;
      for (int64_t c = 0; c < cols; ++c) {
        max_abs = std::max(max_abs, std::fabs(w[r * cols + c]));
        max_q = std::max(max_q, std::abs(int(q.values[r * cols + c])));
        EXPECT_LE(std::fabs(back[r * cols + c] - w[r * cols + c]), 0.5f * q.scales[r] * 1.001f);
      }
      EXPECT_FLOAT_EQ(q.scales[r], max_abs / 127.0f);
      EXPECT_EQ(max_q, 127) << "the largest magnitude of each row maps to 127";
    }
    if (cols >= 17) {
      EXPECT_GT(SqnrDb(w.data(), back.data(), rows * cols), 35.0);
    }
  }
}

TEST(QuantizeRows, ZeroRowsAndNonFinite) {
  const float w[] = {0, 0, 0, 1, -2, 0.5f};
  const QuantizedRows q = QuantizeRowsSymmetric(w, 2, 3);
  // An all-zero row takes the smallest scale of the other rows, never a larger one.
  EXPECT_EQ(q.scales[0], q.scales[1]);
  EXPECT_EQ(q.scales[1], 2.0f / 127.0f);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(q.values[c], 0);
  const float zeros[] = {0, 0, 0, 0};
  const QuantizedRows z = QuantizeRowsSymmetric(zeros, 2, 2);
  EXPECT_EQ(z.scales[0], 1.0f);
  EXPECT_EQ(z.scales[1], 1.0f);
  const float tiny_and_zero[] = {0, 0, 1e-3f, 0, 5, -1};
  const QuantizedRows t = QuantizeRowsSymmetric(tiny_and_zero, 3, 2);
  EXPECT_EQ(t.scales[0], 1e-3f / 127.0f);
  EXPECT_EQ(q.values[4], -127);
  EXPECT_EQ(q.values[3], 64);  // 63.5 rounds away from zero
  const float bad[] = {1, NAN};
  EXPECT_THROW(QuantizeRowsSymmetric(bad, 1, 2), ConvertError);
}

TEST(Sqnr, KnownValues) {
  const float x[] = {1, -1, 1, -1};
  const float y[] = {1.1f, -0.9f, 0.9f, -1.1f};
  EXPECT_NEAR(SqnrDb(x, y, 4), 20.0, 1e-5);  // noise 1% of signal power
  EXPECT_TRUE(std::isinf(SqnrDb(x, x, 4)) && SqnrDb(x, x, 4) > 0);
  const float zeros[] = {0, 0};
  EXPECT_TRUE(std::isinf(SqnrDb(zeros, zeros, 2)) && SqnrDb(zeros, zeros, 2) > 0);
  EXPECT_TRUE(std::isinf(SqnrDb(zeros, x, 2)) && SqnrDb(zeros, x, 2) < 0);
}

TEST(Requant, MultipliersReproduceTheRealFactor) {
  const std::vector<float> ws = {0.001f, 0.02f, 1.5f, 3e-7f};
  const RequantMultipliers r = ComputeRequantMultipliers(ws, 1.0f / 128, 1.0f, 20);
  for (size_t i = 0; i < ws.size(); ++i) {
    const double real = ws[i] / 128.0 * std::ldexp(1.0, 20);
    const double back = r.multiplier[i] * std::ldexp(1.0, r.shift[i] - 31);
    EXPECT_LE(std::fabs(back - real) / real, 1e-9) << i;
    // Applying it to an accumulator equals the real product to within 1 LSB.
    const int32_t acc = 12345;
    EXPECT_NEAR(fxp::MultiplyByQuantizedMultiplier(acc, r.multiplier[i], r.shift[i]), acc * real,
                1.0);
  }
  EXPECT_THROW(ComputeRequantMultipliers({1e30f}, 1e30f, 1e-30f, 0), ConvertError);
}

TEST(Requant, BiasFixedPoint) {
  const float b[] = {0.5f, -0.25f, 1e10f, -1e10f, 3.0f / (1 << 21)};
  const std::vector<int32_t> q = QuantizeBiasFixedPoint(b, 5, 20);
  EXPECT_EQ(q[0], 1 << 19);
  EXPECT_EQ(q[1], -(1 << 18));
  EXPECT_EQ(q[2], INT32_MAX);
  EXPECT_EQ(q[3], INT32_MIN);
  EXPECT_EQ(q[4], 2);  // 1.5 -> 2
}

TEST(Calibration, RangesMergeAndPowerOfTwoFormats) {
  CalibrationTable table;
  const float a[] = {-3.0f, 1.0f};
  const float b[] = {0.5f, 7.5f};
  table.Observe("decoder.layers.0.cell", a, 2);
  table.Observe("decoder.layers.0.cell", b, 2);
  const ActivationRange* r = table.Find("decoder.layers.0.cell");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->min, -3.0);
  EXPECT_EQ(r->max, 7.5);
  EXPECT_EQ(r->count, 4);
  EXPECT_EQ(r->abs_max(), 7.5);
  EXPECT_EQ(table.Find("missing"), nullptr);
  ActivationRange other;
  const float c[] = {-9.0f};
  other.Observe(c, 1);
  ActivationRange merged = *r;
  merged.Merge(other);
  EXPECT_EQ(merged.min, -9.0);
  EXPECT_EQ(merged.count, 5);
  EXPECT_EQ(PowerOfTwoIntegerBits(7.5, 1.0, 1, 6), 3);
  EXPECT_EQ(PowerOfTwoIntegerBits(7.5, 1.2, 1, 6), 4);
  EXPECT_EQ(PowerOfTwoIntegerBits(0.1, 1.2, 1, 6), 1);
  EXPECT_EQ(PowerOfTwoIntegerBits(1000, 1.2, 1, 6), 6);
}

TEST(Calibration, ReadsFirstTsvField) {
  const std::string path = ::testing::TempDir() + "/calib.tsv";
  {
    std::ofstream out(path);
    out << "abbs\tAE B Z\r\n\n   \nabell\tEY B AH L\nplain\n";
  }
  const auto all = ReadCalibrationSources(path, 0);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0], "abbs");
  EXPECT_EQ(all[1], "abell");
  EXPECT_EQ(all[2], "plain");
  EXPECT_EQ(ReadCalibrationSources(path, 2).size(), 2u);
  EXPECT_THROW(ReadCalibrationSources(path + ".missing", 0), ConvertError);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace edgenmt::converter
