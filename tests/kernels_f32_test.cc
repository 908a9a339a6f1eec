// Float32 kernels of every compiled-in backend against straightforward loops (double
// accumulation), on random shapes from fixed seeds: K below/above/not a multiple of 4 and 8,
// one row, one output. Backend selection: a backend not compiled in is kUnsupported.
#include <math.h>

#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/kernel_table.h"

namespace edgenmt {
namespace {

// The first kArenaAlignment-aligned element of v (which holds kArenaAlignment bytes to spare).
float* AlignedFloats(std::vector<float>* v) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(v->data());
  const uintptr_t aligned =
      (at + (kArenaAlignment - 1)) & ~static_cast<uintptr_t>(kArenaAlignment - 1);
  return v->data() + (aligned - at) / sizeof(float);
}

std::vector<float> RandomVector(std::mt19937* rng, size_t n, float lo = -1.0f, float hi = 1.0f) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(*rng);
  return v;
}

std::vector<KernelBackend> CompiledBackends() {
  std::vector<KernelBackend> backends;
  for (KernelBackend b : kKernelBackends) {
    if (KernelBackendAvailable(b)) backends.push_back(b);
  }
  return backends;
}

class KernelsF32Test : public ::testing::TestWithParam<KernelBackend> {
 protected:
  void SetUp() override { ASSERT_EQ(GetKernelTable(GetParam(), &k_), Status::kOk); }
  const KernelTable* k_ = nullptr;
};

TEST_P(KernelsF32Test, FullyConnectedMatchesLoops) {
  std::mt19937 rng(1234);
  const int32_t shapes[][3] = {// rows, in (K), out (M)
                               {1, 1, 1},   {1, 3, 5},    {1, 4, 4},   {1, 7, 3},   {2, 8, 9},
                               {3, 9, 1},   {1, 15, 17},  {5, 16, 16}, {4, 17, 31}, {1, 33, 2},
                               {6, 63, 65}, {2, 100, 43}, {1, 257, 7}};
  for (const auto& shape : shapes) {
    const int32_t rows = shape[0], in = shape[1], out = shape[2];
    const std::vector<float> x = RandomVector(&rng, static_cast<size_t>(rows) * in);
    const std::vector<float> w = RandomVector(&rng, static_cast<size_t>(out) * in);
    const std::vector<float> bias = RandomVector(&rng, static_cast<size_t>(out));
    const std::vector<float> initial = RandomVector(&rng, static_cast<size_t>(rows) * out);
    for (int variant = 0; variant < 4; ++variant) {
      const bool with_bias = variant & 1;
      const bool accumulate = variant & 2;
      std::vector<float> y = initial;
      k_->fully_connected_f32(rows, in, out, x.data(), w.data(), with_bias ? bias.data() : nullptr,
                              y.data(), accumulate);
      for (int32_t r = 0; r < rows; ++r) {
        for (int32_t m = 0; m < out; ++m) {
          double expected = accumulate ? initial[r * out + m] : 0.0;
          for (int32_t i = 0; i < in; ++i)
            expected += static_cast<double>(x[r * in + i]) * w[m * in + i];
          if (with_bias) expected += bias[m];
          ASSERT_NEAR(y[r * out + m], expected, 1e-5 * (1.0 + sqrt(static_cast<double>(in))))
              << "rows " << rows << " in " << in << " out " << out << " variant " << variant
              << " at [" << r << "," << m << "]";
        }
      }
    }
  }
}

// Backends that pack weights at Init (xnnpack, auto with XNNPACK): the packed product against
// double loops at the same tolerance, its arena bytes exact (measured == placed) and a
// one-block-short arena counted, never written. x and y are exactly sized heap blocks, so an
// over-read past the last input row (XNNPACK reads up to XNN_EXTRA_BYTES beyond its input)
// would be caught by AddressSanitizer (make asan).
TEST_P(KernelsF32Test, PackedFullyConnectedMatchesLoops) {
  if (k_->pack_fully_connected_f32 == nullptr) GTEST_SKIP() << "backend reads weights as stored";
  ASSERT_NE(k_->packed_fully_connected_f32, nullptr);
  ASSERT_GE(k_->packed_min_rows, 1);
  std::mt19937 rng(4321);
  const int32_t shapes[][3] = {// rows, in (K), out (M)
                               {1, 1, 1},    {1, 3, 5},    {2, 8, 9},   {3, 9, 1},    {1, 15, 17},
                               {5, 16, 16},  {4, 17, 31},  {6, 63, 65}, {2, 100, 43}, {1, 257, 7},
                               {5, 320, 70}, {1, 1000, 3}, {6, 999, 33}};
  for (const auto& shape : shapes) {
    const int32_t rows = shape[0], in = shape[1], out = shape[2];
    const std::vector<float> w = RandomVector(&rng, static_cast<size_t>(out) * in);
    const std::vector<float> bias = RandomVector(&rng, static_cast<size_t>(out));
    Arena measure;
    const void* packed = reinterpret_cast<const void*>(1);
    ASSERT_EQ(k_->pack_fully_connected_f32(in, out, w.data(), &measure, &packed), Status::kOk);
    EXPECT_EQ(packed, nullptr);
    const size_t bytes = measure.used();
    ASSERT_GT(bytes, sizeof(float) * static_cast<size_t>(in));
    ASSERT_FALSE(measure.overflowed());

    // Arena memory must be kArenaAlignment-aligned; a vector's data() is only 8-aligned on
    // 32-bit targets, so each buffer is over-allocated and used from an aligned offset.
    const size_t pad = kArenaAlignment / sizeof(float);
    std::vector<float> short_storage(bytes / sizeof(float) + pad);
    float* short_memory = AlignedFloats(&short_storage);
    Arena too_small(short_memory, bytes - kArenaAlignment);
    const std::vector<float> untouched = short_storage;
    ASSERT_EQ(k_->pack_fully_connected_f32(in, out, w.data(), &too_small, &packed), Status::kOk);
    EXPECT_EQ(packed, nullptr);
    EXPECT_TRUE(too_small.overflowed());
    EXPECT_EQ(too_small.used(), bytes);
    EXPECT_EQ(short_storage, untouched);  // nothing written into an arena that cannot hold it

    std::vector<float> storage(bytes / sizeof(float) + pad);
    Arena arena(AlignedFloats(&storage), bytes);
    ASSERT_EQ(k_->pack_fully_connected_f32(in, out, w.data(), &arena, &packed), Status::kOk);
    ASSERT_NE(packed, nullptr);
    EXPECT_EQ(arena.used(), bytes);
    EXPECT_FALSE(arena.overflowed());

    for (int32_t r_count = 1; r_count <= rows; ++r_count) {
      const std::vector<float> x = RandomVector(&rng, static_cast<size_t>(r_count) * in);
      for (const bool with_bias : {false, true}) {
        std::vector<float> y(static_cast<size_t>(r_count) * out, 42.0f);
        k_->packed_fully_connected_f32(packed, r_count, x.data(), with_bias ? bias.data() : nullptr,
                                       y.data());
        for (int32_t r = 0; r < r_count; ++r) {
          for (int32_t m = 0; m < out; ++m) {
            double expected = with_bias ? bias[m] : 0.0;
            for (int32_t i = 0; i < in; ++i)
              expected += static_cast<double>(x[r * in + i]) * w[m * in + i];
            ASSERT_NEAR(y[r * out + m], expected, 1e-5 * (1.0 + sqrt(static_cast<double>(in))))
                << "rows " << r_count << " in " << in << " out " << out << " at [" << r << "," << m
                << "]";
          }
        }
      }
    }
  }
}

TEST_P(KernelsF32Test, SigmoidAndTanhMatchLibm) {
  std::mt19937 rng(7);
  std::vector<float> x = RandomVector(&rng, 257, -30.0f, 30.0f);
  x.push_back(0.0f);
  x.push_back(-100.0f);
  x.push_back(100.0f);
  const int32_t n = static_cast<int32_t>(x.size());
  std::vector<float> y(x.size());
  k_->sigmoid_f32(n, x.data(), y.data());
  for (int32_t i = 0; i < n; ++i) {
    ASSERT_NEAR(y[i], 1.0 / (1.0 + exp(-static_cast<double>(x[i]))), 1e-6) << x[i];
  }
  k_->tanh_f32(n, x.data(), y.data());
  for (int32_t i = 0; i < n; ++i) ASSERT_NEAR(y[i], tanh(static_cast<double>(x[i])), 1e-6) << x[i];
  // In place.
  std::vector<float> z = x;
  k_->tanh_f32(n, z.data(), z.data());
  EXPECT_EQ(z, y);
}

TEST_P(KernelsF32Test, SoftmaxAndLogSoftmaxAreStable) {
  std::mt19937 rng(99);
  for (int32_t n : {1, 2, 3, 7, 8, 43, 100}) {
    for (float scale : {1.0f, 50.0f, 1000.0f}) {
      const std::vector<float> x = RandomVector(&rng, static_cast<size_t>(n), -scale, scale);
      std::vector<float> p(x.size()), lp(x.size());
      k_->softmax_f32(n, x.data(), p.data());
      k_->log_softmax_f32(n, x.data(), lp.data());
      double max_x = x[0];
      for (float v : x) max_x = v > max_x ? v : max_x;
      double sum = 0.0;
      for (float v : x) sum += exp(static_cast<double>(v) - max_x);
      double total = 0.0;
      for (int32_t i = 0; i < n; ++i) {
        const double expected_lp = x[i] - max_x - log(sum);
        ASSERT_TRUE(isfinite(lp[i])) << "n " << n << " scale " << scale;
        ASSERT_NEAR(lp[i], expected_lp, 1e-5 * (1.0 + fabs(expected_lp)));
        ASSERT_NEAR(p[i], exp(expected_lp), 1e-6);
        total += p[i];
      }
      EXPECT_NEAR(total, 1.0, 1e-5);
    }
  }
  // -inf entries get probability 0 and stay -inf in log space.
  const float x[3] = {-INFINITY, 0.0f, 0.0f};
  float p[3], lp[3];
  k_->softmax_f32(3, x, p);
  k_->log_softmax_f32(3, x, lp);
  EXPECT_EQ(p[0], 0.0f);
  EXPECT_FLOAT_EQ(p[1], 0.5f);
  EXPECT_TRUE(isinf(lp[0]) && lp[0] < 0);
  EXPECT_FLOAT_EQ(lp[2], logf(0.5f));
}

// The Transformer's layer norm against double-precision loops, over widths around the SIMD
// block sizes, rows with a large mean (cancellation) and a constant row (variance 0: eps alone).
TEST_P(KernelsF32Test, LayerNormMatchesDoubleLoops) {
  std::mt19937 rng(25);
  for (int32_t n : {1, 3, 8, 16, 17, 64, 127, 256}) {
    for (float offset : {0.0f, 1000.0f}) {
      std::vector<float> x = RandomVector(&rng, n, offset - 2.0f, offset + 2.0f);
      const std::vector<float> gain = RandomVector(&rng, n, 0.5f, 1.5f);
      const std::vector<float> shift = RandomVector(&rng, n);
      if (n == 17) std::fill(x.begin(), x.end(), 3.0f);
      double mean = 0.0, var = 0.0;
      for (float v : x) mean += v;
      mean /= n;
      for (float v : x) var += (v - mean) * (v - mean);
      var /= n;
      std::vector<float> y(n);
      k_->layer_norm_f32(n, x.data(), gain.data(), shift.data(), 1e-5f, y.data());
      for (int32_t i = 0; i < n; ++i) {
        const double want = (x[i] - mean) / sqrt(var + 1e-5) * gain[i] + shift[i];
        // float32 sums of n values near `offset`: relative error ~ n * 2^-24 of the offset.
        EXPECT_NEAR(y[i], want, 1e-4 + 1e-6 * offset * n) << "n=" << n << " i=" << i;
      }
      k_->layer_norm_f32(n, x.data(), gain.data(), shift.data(), 1e-5f, x.data());  // in place
      for (int32_t i = 0; i < n; ++i) EXPECT_EQ(x[i], y[i]) << "in place, n=" << n;
    }
  }
}

TEST_P(KernelsF32Test, ReluAndGeluMatchLibm) {
  std::mt19937 rng(26);
  const std::vector<float> x = RandomVector(&rng, 1000, -8.0f, 8.0f);
  std::vector<float> relu(x.size()), gelu(x.size());
  k_->relu_f32(static_cast<int32_t>(x.size()), x.data(), relu.data());
  k_->gelu_f32(static_cast<int32_t>(x.size()), x.data(), gelu.data());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(relu[i], x[i] > 0.0f ? x[i] : 0.0f);
    const double want = 0.5 * x[i] * (1.0 + erf(x[i] / sqrt(2.0)));
    EXPECT_NEAR(gelu[i], want, 1e-6 + 1e-6 * fabs(want)) << x[i];
  }
}

TEST_P(KernelsF32Test, EmbeddingLookupGathersRows) {
  std::mt19937 rng(5);
  const int32_t vocab = 11, dim = 5, stride = 9;
  const std::vector<float> table = RandomVector(&rng, static_cast<size_t>(vocab) * dim);
  const int32_t ids[4] = {3, 0, 10, 3};
  std::vector<float> out(4 * stride, 42.0f);
  k_->embedding_lookup_f32(4, ids, table.data(), dim, out.data(), stride);
  for (int32_t i = 0; i < 4; ++i) {
    for (int32_t d = 0; d < dim; ++d) ASSERT_EQ(out[i * stride + d], table[ids[i] * dim + d]);
    for (int32_t d = dim; d < stride; ++d) ASSERT_EQ(out[i * stride + d], 42.0f);  // untouched
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, KernelsF32Test, ::testing::ValuesIn(CompiledBackends()),
                         [](const ::testing::TestParamInfo<KernelBackend>& info) {
                           return std::string(KernelBackendName(info.param));
                         });

TEST(KernelBackendTest, ReferenceAlwaysPresentOthersNeverSilentlyFallBack) {
  const KernelTable* table = nullptr;
  ASSERT_EQ(GetKernelTable(KernelBackend::kReference, &table), Status::kOk);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->backend, KernelBackend::kReference);
  for (KernelBackend b : {KernelBackend::kXnnpack, KernelBackend::kSimd, KernelBackend::kAuto}) {
    const Status status = GetKernelTable(b, &table);
    if (KernelBackendAvailable(b)) {
      ASSERT_EQ(status, Status::kOk);
      EXPECT_EQ(table->backend, b);  // the backend asked for, never the reference
    } else {
      EXPECT_EQ(status, Status::kUnsupported);
      EXPECT_EQ(table, nullptr);
    }
  }
  EXPECT_EQ(GetKernelTable(static_cast<KernelBackend>(77), &table), Status::kInvalidArgument);
  EXPECT_EQ(GetKernelTable(KernelBackend::kReference, nullptr), Status::kInvalidArgument);
  EXPECT_STREQ(KernelBackendName(KernelBackend::kReference), "reference");
  EXPECT_TRUE(KernelBackendAvailable(KernelBackend::kAuto));  // falls back by design, per operation
  for (KernelBackend b : kKernelBackends) {
    KernelBackend parsed = KernelBackend::kReference;
    EXPECT_TRUE(KernelBackendFromName(KernelBackendName(b), &parsed));
    EXPECT_EQ(parsed, b);
  }
  KernelBackend unchanged = KernelBackend::kSimd;
  EXPECT_FALSE(KernelBackendFromName("neon", &unchanged));
  EXPECT_FALSE(KernelBackendFromName("", &unchanged));
  EXPECT_FALSE(KernelBackendFromName(nullptr, &unchanged));
  EXPECT_EQ(unchanged, KernelBackend::kSimd);
}

}  // namespace
}  // namespace edgenmt
