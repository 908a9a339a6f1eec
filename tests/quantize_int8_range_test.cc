// converter/quantize_int8_range.h: per-tensor choice of a power-of-two int8 format by the
// squared error its saturating round-to-nearest makes over observed values.
#include "quantize_int8_range.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "edgenmt/internal/tensor_layout.h"
#include "quantize.h"

namespace edgenmt::converter {
namespace {

constexpr int32_t kOne = 1 << 20;  // 1.0 in Q11.20

// n values evenly spread over [-1, 1] in Q11.20.
std::vector<int32_t> Spread(int n) {
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = -kOne + static_cast<int32_t>((2.0 * kOne * i) / (n - 1));
  return v;
}

Int8RangeErrors OneSlot(int center) {
  Int8RangeErrors e;
  e.Reset({center}, {kMinTransformerInt8IntBits}, {kMaxTransformerIntBits}, {true});
  return e;
}

TEST(Int8RangeErrors, CompactValuesTakeTheFinestFormatThatHoldsThem) {
  Int8RangeErrors e = OneSlot(1);
  const std::vector<int32_t> v = Spread(10001);
  e.Add(0, v.data(), static_cast<int64_t>(v.size()), false);
  EXPECT_EQ(e.count(0), 10001);
  // s8 @ 2^-7 holds [-1, 0.99]: its rounding error beats 2^-6's coarser step, and 2^-8 clips
  // half the values.
  EXPECT_EQ(e.Best(0, 99), 0);
  EXPECT_LT(e.error(0, 0), e.error(0, 1));
  EXPECT_LT(e.error(0, 0), e.error(0, -1));
  EXPECT_EQ(e.error(0, 3), -1);  // not a candidate: center + 1 is the widest
  EXPECT_GE(e.error(0, -2), 0);  // center - 3 is the narrowest
  EXPECT_EQ(e.error(0, -3), -1);
}

TEST(Int8RangeErrors, ClipsARareOutlierThatTheMaxRuleWouldHold) {
  Int8RangeErrors e = OneSlot(1);
  std::vector<int32_t> v = Spread(100001);
  v.push_back(kOne + kOne / 2);  // one value at 1.5
  e.Add(0, v.data(), static_cast<int64_t>(v.size()), false);
  // The max rule keeps 1.5 (2^1 > 1.5 * kInt8Headroom); by error, one clipped value costs
  // (1.5 - 127/128)^2 = 0.26, less than doubling the step for 100,001 others.
  EXPECT_EQ(
      PowerOfTwoIntegerBits(1.5, kInt8Headroom, kMinTransformerInt8IntBits, kMaxTransformerIntBits),
      1);
  EXPECT_EQ(e.Best(0, 99), 0);
  // A hundred such values outweigh the step.
  Int8RangeErrors many = OneSlot(1);
  v.insert(v.end(), 99, kOne + kOne / 2);
  many.Add(0, v.data(), static_cast<int64_t>(v.size()), false);
  EXPECT_EQ(many.Best(0, 99), 1);
}

TEST(Int8RangeErrors, ReluSkipsNegatives) {
  // Values in [0, 1] and as many at -1.8: with relu the negatives become 0 whatever the format,
  // so 2^-7 wins; counted, they would saturate there and 2^-6 wins.
  std::vector<int32_t> v;
  for (int32_t x : Spread(20001)) {
    if (x >= 0) v.push_back(x);
  }
  v.insert(v.end(), v.size(), -kOne * 9 / 5);
  Int8RangeErrors relu = OneSlot(1), plain = OneSlot(1);
  relu.Add(0, v.data(), static_cast<int64_t>(v.size()), true);
  plain.Add(0, v.data(), static_cast<int64_t>(v.size()), false);
  EXPECT_EQ(relu.Best(0, 99), 0);
  EXPECT_EQ(plain.Best(0, 99), 1);
}

TEST(Int8RangeErrors, CandidatesStayInTheAllowedRangeAndTiesGoWider) {
  Int8RangeErrors e;
  e.Reset({kMinTransformerInt8IntBits + 1}, {kMinTransformerInt8IntBits}, {kMaxTransformerIntBits},
          {true});
  const std::vector<int32_t> v = {kOne / 1024, kOne / 512};
  e.Add(0, v.data(), static_cast<int64_t>(v.size()), false);
  EXPECT_EQ(e.error(0, kMinTransformerInt8IntBits - 1), -1);  // below the allowed range
  // 2^-10 and 2^-9 are exact at every candidate (steps 2^-15 to 2^-13): all tie at zero, and a
  // tie goes to the widest.
  for (int m = kMinTransformerInt8IntBits; m <= kMinTransformerInt8IntBits + 2; ++m) {
    EXPECT_EQ(e.error(0, m), 0) << m;
  }
  EXPECT_EQ(e.error(0, kMinTransformerInt8IntBits + 3), -1);
  EXPECT_EQ(e.Best(0, 99), kMinTransformerInt8IntBits + 2);
}

TEST(Int8RangeErrors, NothingSeenOrNotInt8KeepsTheFallback) {
  Int8RangeErrors e;
  e.Reset({2, 5}, {-8, 0}, {10, 10}, {true, false});
  EXPECT_EQ(e.Best(0, 4), 4);  // nothing observed
  const std::vector<int32_t> v = Spread(101);
  e.Add(1, v.data(), static_cast<int64_t>(v.size()), false);  // an int16 slot: ignored
  e.Add(7, v.data(), static_cast<int64_t>(v.size()), false);  // out of range: ignored
  EXPECT_EQ(e.count(1), 0);
  EXPECT_EQ(e.Best(1, 5), 5);
  EXPECT_EQ(e.error(1, 5), -1);
}

}  // namespace
}  // namespace edgenmt::converter
