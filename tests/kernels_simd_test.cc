// The SIMD backend against the reference, at every instruction-set level this CPU supports
// (x86-64: AVX2+FMA, AVX-512 VNNI; ARM: NEON, NEON dot product; under QEMU for the ARM builds),
// on random and edge shapes from fixed seeds: depths below, at and past each vector width, output
// counts that are not multiples of the 4-row groups or the 64-output blocks, strides wider than
// the depth, int8 extremes (-128 everywhere). Integer products and the hybrid scheme must be
// bit-exact; float32 is within 1e-5 * (1 + sqrt(depth)) of the reference (summation order).
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

class SimdKernelsTest : public SimdKernelsFixture {};

TEST_P(SimdKernelsTest, FullyConnectedF32WithinTolerance) {
  std::mt19937 rng(101);
  for (const Shape& s : kShapes) {
    const auto x = RandomF32(&rng, static_cast<size_t>(s.rows) * s.depth);
    const auto w = RandomF32(&rng, static_cast<size_t>(s.out) * s.depth);
    const auto bias = RandomF32(&rng, s.out);
    const auto initial = RandomF32(&rng, static_cast<size_t>(s.rows) * s.out);
    for (int variant = 0; variant < 4; ++variant) {
      const bool with_bias = variant & 1, accumulate = variant & 2;
      std::vector<float> expected = initial, actual = initial;
      ref_.fully_connected_f32(s.rows, s.depth, s.out, x.data(), w.data(),
                               with_bias ? bias.data() : nullptr, expected.data(), accumulate);
      simd_->fully_connected_f32(s.rows, s.depth, s.out, x.data(), w.data(),
                                 with_bias ? bias.data() : nullptr, actual.data(), accumulate);
      for (size_t i = 0; i < expected.size(); ++i) {
        ASSERT_NEAR(actual[i], expected[i], 1e-5 * (1.0 + sqrt(static_cast<double>(s.depth))))
            << s.rows << "x" << s.depth << "->" << s.out << " variant " << variant << " at " << i;
      }
    }
  }
}

TEST_P(SimdKernelsTest, HybridS8BitExact) {
  std::mt19937 rng(202);
  for (const Shape& s : kShapes) {
    for (int extremes = 0; extremes < 2; ++extremes) {
      auto x = RandomF32(&rng, static_cast<size_t>(s.rows) * s.depth);
      if (extremes) x[0] = 0.0f;  // a row with one zero and the rest at +-max
      const auto w = RandomS8(&rng, static_cast<size_t>(s.out) * s.depth, extremes != 0);
      const auto scales = RandomF32(&rng, s.out);
      const auto bias = RandomF32(&rng, s.out);
      const auto initial = RandomF32(&rng, static_cast<size_t>(s.rows) * s.out);
      for (int variant = 0; variant < 4; ++variant) {
        const bool with_bias = variant & 1, accumulate = variant & 2;
        std::vector<float> expected = initial, actual = initial;
        // Odd variants: the scratch of a batched session (more rows at once).
        const int32_t scratch_rows =
            variant == 1 || variant == 3 ? kHybridBatchScratchRows : kHybridScratchRows;
        std::vector<int8_t> scratch(static_cast<size_t>(scratch_rows) * s.depth);
        ref_.fully_connected_s8_hybrid(s.rows, s.depth, s.out, x.data(), w.data(), scales.data(),
                                       with_bias ? bias.data() : nullptr, expected.data(),
                                       accumulate, scratch.data(), scratch_rows);
        simd_->fully_connected_s8_hybrid(s.rows, s.depth, s.out, x.data(), w.data(), scales.data(),
                                         with_bias ? bias.data() : nullptr, actual.data(),
                                         accumulate, scratch.data(), scratch_rows);
        ASSERT_EQ(actual, expected) << s.rows << "x" << s.depth << "->" << s.out << " variant "
                                    << variant << " extremes " << extremes;
      }
    }
  }
}

// Rows the activation quantizer must treat exactly like the reference: NaN (ignored by the max,
// quantized to 0), infinities, denormals beside normal values, a largest magnitude just above
// and below the vector path's 1e-30 floor, all zeros, and values landing exactly on .5 ties.
TEST_P(SimdKernelsTest, HybridQuantizationEdgesBitExact) {
  std::mt19937 rng(606);
  const int32_t depth = 37, out = 9;
  std::vector<std::vector<float>> rows;
  const auto random_row = [&] { return RandomF32(&rng, depth); };
  auto row = random_row();
  row[3] = NAN;
  rows.push_back(row);
  row = random_row();
  row[36] = INFINITY;
  row[5] = -INFINITY;
  rows.push_back(row);
  row = random_row();
  for (int i = 0; i < depth; i += 2) row[i] = 1e-40f;  // denormals among normal values
  rows.push_back(row);
  for (float top : {2e-30f, 5e-31f, 1e-37f}) {
    row = random_row();
    for (float& v : row) v *= top;
    row[0] = top;
    rows.push_back(row);
  }
  rows.push_back(std::vector<float>(depth, 0.0f));
  row.assign(depth, 0.0f);  // scale 1: x = k + 0.5 lands on ties after * 127 / 127
  for (int i = 0; i < depth; ++i) row[i] = (i % 2 ? -1.0f : 1.0f) * ((i % 127) + 0.5f);
  row[0] = 127.0f;
  rows.push_back(row);
  const auto w = RandomS8(&rng, static_cast<size_t>(out) * depth, false);
  const auto scales = RandomF32(&rng, out);
  for (const auto& x : rows) {
    std::vector<float> expected(out), actual(out);
    std::vector<int8_t> expected_q(depth), actual_q(depth);
    ref_.fully_connected_s8_hybrid(1, depth, out, x.data(), w.data(), scales.data(), nullptr,
                                   expected.data(), false, expected_q.data(), kHybridScratchRows);
    simd_->fully_connected_s8_hybrid(1, depth, out, x.data(), w.data(), scales.data(), nullptr,
                                     actual.data(), false, actual_q.data(), kHybridScratchRows);
    EXPECT_EQ(actual_q, expected_q) << "first value " << x[0];
    EXPECT_EQ(memcmp(actual.data(), expected.data(), out * sizeof(float)), 0)
        << "first value " << x[0];
  }
}

TEST_P(SimdKernelsTest, IntegerColumnBlockBitExact) {
  std::mt19937 rng(303);
  for (const Shape& s : kShapes) {
    for (int extremes = 0; extremes < 2; ++extremes) {
      // Strided: the block is columns [3, 3 + depth) of rows 3 + depth + 5 wide (x and w).
      const int32_t stride = s.depth + 8;
      const auto x = RandomS8(&rng, static_cast<size_t>(s.rows) * stride, extremes != 0);
      const auto w = RandomS8(&rng, static_cast<size_t>(s.out) * stride, extremes != 0);
      const auto multiplier = RandomS32(&rng, s.out, 1 << 30, 0x7fffffff);
      // Shifts over the whole range, offsets that push them past both clamps, sums that saturate.
      const auto shift = RandomS32(&rng, s.out, -31, 30);
      const auto bias = RandomS32(&rng, s.out, -(1 << 30), 1 << 30);
      const auto initial =
          RandomS32(&rng, static_cast<size_t>(s.rows) * s.out, -0x7fffffff, 0x7fffffff);
      for (int variant = 0; variant < 16; ++variant) {
        const bool with_bias = variant & 1, accumulate = variant & 2;
        const int32_t offsets[4] = {2, -3, 40, -40};
        const int32_t shift_offset = offsets[variant >> 2];
        std::vector<int32_t> expected = initial, actual = initial;
        ref_.fully_connected_s8_s32(s.rows, s.depth, s.out, x.data() + 3, stride, w.data() + 3,
                                    stride, multiplier.data(), shift.data(), shift_offset,
                                    with_bias ? bias.data() : nullptr, expected.data(), accumulate);
        simd_->fully_connected_s8_s32(s.rows, s.depth, s.out, x.data() + 3, stride, w.data() + 3,
                                      stride, multiplier.data(), shift.data(), shift_offset,
                                      with_bias ? bias.data() : nullptr, actual.data(), accumulate);
        ASSERT_EQ(actual, expected) << s.rows << "x" << s.depth << "->" << s.out << " variant "
                                    << variant << " extremes " << extremes;
      }
    }
  }
}

TEST_P(SimdKernelsTest, EmbeddingProductBitExact) {
  std::mt19937 rng(404);
  for (const Shape& s : kShapes) {
    const int32_t vocab = 7, stride = s.depth + 5;
    auto table = RandomS8(&rng, static_cast<size_t>(vocab) * s.depth, false);
    for (int32_t k = 0; k < s.depth; ++k) table[k] = -128;  // row 0 at the extreme
    auto row_multiplier = RandomS32(&rng, vocab, 1 << 30, 0x7fffffff);
    auto row_shift = RandomS32(&rng, vocab, -31, 24);
    // Rows 3 and 4: the single rounding's exact ties (product dot * 2^30 over 2^31 or 2^32:
    // every odd dot, every dot = 2 mod 4), of both signs; rows 5 and 6: the widest right
    // shifts (63: the result is 0; 62).
    row_multiplier[3] = row_multiplier[4] = 1 << 30;
    row_shift[3] = -6;
    row_shift[4] = -7;
    row_shift[5] = -38;
    row_shift[6] = -37;
    const auto w = RandomS8(&rng, static_cast<size_t>(s.out) * stride, false);
    const auto multiplier = RandomS32(&rng, s.out, 1 << 30, 0x7fffffff);
    const auto shift = RandomS32(&rng, s.out, -25, 30);
    const auto bias = RandomS32(&rng, s.out, -(1 << 30), 1 << 30);
    std::vector<int32_t> ids(s.rows);
    for (int32_t first = 0; first < vocab; ++first) {  // every row of the table
      for (int32_t r = 0; r < s.rows; ++r) ids[r] = (first + r) % vocab;
      for (int with_bias = 0; with_bias < 2; ++with_bias) {
        std::vector<int32_t> expected(static_cast<size_t>(s.rows) * s.out, 7), actual = expected;
        ref_.embedding_fully_connected_s8_s32(
            s.rows, ids.data(), table.data(), row_multiplier.data(), row_shift.data(), s.depth,
            s.out, w.data(), stride, multiplier.data(), shift.data(),
            with_bias ? bias.data() : nullptr, expected.data());
        simd_->embedding_fully_connected_s8_s32(
            s.rows, ids.data(), table.data(), row_multiplier.data(), row_shift.data(), s.depth,
            s.out, w.data(), stride, multiplier.data(), shift.data(),
            with_bias ? bias.data() : nullptr, actual.data());
        ASSERT_EQ(actual, expected) << s.rows << "x" << s.depth << "->" << s.out << " id " << first;
      }
    }
  }
}

TEST_P(SimdKernelsTest, IntegerAttentionProductsBitExact) {
  std::mt19937 rng(919);
  std::uniform_int_distribution<int> any16(-32768, 32767), weight(0, 32767);
  std::uniform_int_distribution<int> any8(-127, 127);
  for (int32_t dim : {1, 7, 15, 16, 17, 64, 320, 333}) {
    for (int32_t count : {1, 2, 7, 31, 300}) {
      for (int kind = 0; kind < 4; ++kind) {
        // kind 3: memory 2^8 m, weights +-2^14: each sum is 2^22 times an integer, an exact tie
        // of the context's rounding whenever that integer is odd (both signs).
        const auto draw = [&] {
          return static_cast<int16_t>(kind == 1   ? -32768
                                      : kind == 3 ? 256 * any8(rng)
                                                  : any16(rng));
        };
        std::vector<int16_t> memory(static_cast<size_t>(count) * dim), query(dim), weights(count);
        for (int16_t& v : memory) v = draw();
        for (int16_t& v : query) v = draw();
        // Attention weights are non-negative and sum to about 1 (kind 2: one weight of 1).
        for (int16_t& w : weights) w = static_cast<int16_t>(kind >= 2 ? 0 : weight(rng) / count);
        if (kind == 2) weights[count / 2] = 32767;
        if (kind == 3) {
          for (int32_t s = 0; s < count; ++s)
            weights[s] = static_cast<int16_t>(s % 3 ? 16384 : -16384);
        }
        for (int32_t to_q20 : {-40, -23, -2, 0, 3, 20}) {
          const int32_t lo = count / 3, hi = count - 1;
          std::vector<int32_t> expected(count + 1, 9), actual(count + 1, 9);
          ref_.score_window_s16(query.data(), memory.data(), dim, lo, hi, to_q20, expected.data());
          simd_->score_window_s16(query.data(), memory.data(), dim, lo, hi, to_q20, actual.data());
          ASSERT_EQ(actual, expected)
              << "scores dim " << dim << " count " << count << " shift " << to_q20;
        }
        std::vector<int8_t> expected(dim + 1, 9), actual(dim + 1, 9);
        ref_.context_s16_s8(count, weights.data(), memory.data(), dim, expected.data());
        simd_->context_s16_s8(count, weights.data(), memory.data(), dim, actual.data());
        ASSERT_EQ(actual, expected)
            << "context dim " << dim << " count " << count << " kind " << kind;
        // Any int16 weights (the kernel's sums are exact whatever their sign or size).
        for (int16_t& w : weights) w = draw();
        ref_.context_s16_s8(count, weights.data(), memory.data(), dim, expected.data());
        simd_->context_s16_s8(count, weights.data(), memory.data(), dim, actual.data());
        ASSERT_EQ(actual, expected) << "context, any weights, dim " << dim << " count " << count;
      }
    }
  }
  // The largest sums of int32 lanes (a level may sum in int32 while sum |weights| <= 65535):
  // weights summing to 65535 and past int32 (68,534) over memory at -32768 and at 32767.
  for (int16_t m : {int16_t{-32768}, int16_t{32767}}) {
    for (int16_t last : {int16_t{1}, int16_t{3000}}) {
      const int32_t dim = 9;
      const std::vector<int16_t> weights = {32767, 32767, last}, memory(3 * dim, m);
      std::vector<int8_t> expected(dim), actual(dim);
      ref_.context_s16_s8(3, weights.data(), memory.data(), dim, expected.data());
      simd_->context_s16_s8(3, weights.data(), memory.data(), dim, actual.data());
      ASSERT_EQ(actual, expected) << "context at the int32 bound, memory " << m << " last " << last;
    }
  }
}

// int8-full's narrowing steps (Q11.20 gates to Q3.12, Q0.15 to int8): rounding ties away from
// zero and saturating, at every shift, on random values and the int32 / int16 extremes, at
// lengths across the 16-lane blocks.
TEST_P(SimdKernelsTest, IntegerNarrowingBitExact) {
  std::mt19937 rng(909);
  std::uniform_int_distribution<int32_t> any32(INT32_MIN, INT32_MAX);
  std::uniform_int_distribution<int> any16(-32768, 32767);
  const int32_t edges32[] = {INT32_MIN, INT32_MIN + 1, -65536, -32769, -32768,        -1,       0,
                             1,         32767,         32768,  65535,  INT32_MAX - 1, INT32_MAX};
  for (int32_t n : {1, 7, 15, 16, 17, 33, 100, 1024}) {
    std::vector<int32_t> x32(n);
    std::vector<int16_t> x16(n);
    for (int32_t i = 0; i < n; ++i) {
      x32[i] = i < 13 && n > 13 ? edges32[i] : any32(rng) >> (i % 24);
      x16[i] = static_cast<int16_t>(i % 5 == 0 ? (i % 2 ? 32767 : -32768) : any16(rng));
    }
    for (int32_t shift = 0; shift <= 31; ++shift) {
      std::vector<int16_t> expected16(n + 1, 7), actual16(n + 1, 7);  // + 1: nothing past n
      ref_.narrow_s32_s16(n, x32.data(), shift, expected16.data());
      simd_->narrow_s32_s16(n, x32.data(), shift, actual16.data());
      ASSERT_EQ(actual16, expected16) << "narrow n " << n << " shift " << shift;
      std::vector<int8_t> expected8(n + 1, 7), actual8(n + 1, 7);
      ref_.requantize_s16_s8(n, x16.data(), shift, expected8.data());
      simd_->requantize_s16_s8(n, x16.data(), shift, actual8.data());
      ASSERT_EQ(actual8, expected8) << "requantize n " << n << " shift " << shift;
    }
  }
}

// int8-full's cell arithmetic: every int16 input of tanh at every int-bits value a model can
// use, and LSTM cells with random and extreme gates and states at every cell format.

INSTANTIATE_TEST_SUITE_P(Levels, SimdKernelsTest, ::testing::ValuesIn(SupportedLevels()),
                         LevelName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SimdKernelsTest);

TEST(SimdLevelTest, DetectionAndRefusal) {
  const KernelTable* table = nullptr;
  EXPECT_EQ(GetSimdKernelTable(SimdLevel::kNone, &table), Status::kInvalidArgument);
  EXPECT_EQ(GetSimdKernelTable(SimdLevel::kAvx2Fma, nullptr), Status::kInvalidArgument);
  for (SimdLevel level : kSimdLevels) {
    const Status status = GetSimdKernelTable(level, &table);
    if (SimdLevelSupported(level)) {
      EXPECT_EQ(status, Status::kOk) << SimdLevelName(level);
    } else {  // never handed out on a CPU (or build) without it
      EXPECT_EQ(status, Status::kUnsupported) << SimdLevelName(level);
      EXPECT_EQ(table, nullptr);
    }
  }
  const SimdLevel best = BestSimdLevel();
  EXPECT_EQ(KernelBackendAvailable(KernelBackend::kSimd), best != SimdLevel::kNone);
  if (best != SimdLevel::kNone) {
    EXPECT_TRUE(SimdLevelSupported(best));
    EXPECT_STREQ(KernelBackendVariant(KernelBackend::kSimd), SimdLevelName(best));
  }
#if defined(__x86_64__) || defined(__aarch64__) || (defined(__ARM_NEON) && defined(__linux__))
  // Every Linux target this project builds for has at least its baseline level.
  EXPECT_NE(best, SimdLevel::kNone);
#endif
  EXPECT_STREQ(KernelBackendVariant(KernelBackend::kReference), "portable");
}

}  // namespace
}  // namespace edgenmt
