// Shared by the SIMD-against-reference kernel tests (kernels_simd_test.cc: products;
// kernels_simd_elementwise_test.cc: activations, normalization, softmax, cells): the shapes, the
// fixed-seed random inputs, the levels this CPU supports and the fixture that holds the reference
// and one level's table. Also linked into the Cortex-M kernel-test firmware.
#ifndef EDGENMT_TESTS_KERNELS_SIMD_SUPPORT_H_
#define EDGENMT_TESTS_KERNELS_SIMD_SUPPORT_H_

#include <stddef.h>
#include <stdint.h>

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/kernel_table.h"
#include "kernels/simd/simd_level.h"

namespace edgenmt {
namespace simd_testing {

struct Shape {
  int32_t rows, depth, out;
};
inline constexpr Shape kShapes[] = {{1, 1, 1},
                                    {1, 3, 5},
                                    {2, 15, 4},
                                    {1, 16, 7},
                                    {3, 17, 9},
                                    {1, 31, 3},
                                    {1, 32, 64},
                                    {2, 33, 65},
                                    {1, 63, 66},
                                    {4, 64, 4},
                                    {1, 65, 1},
                                    {2, 127, 130},
                                    {1, 128, 5},
                                    {1, 160, 640},
                                    {5, 64, 33},
                                    {6, 50, 7},
                                    {3, 129, 12},
                                    {4, 320, 1024},
                                    {1, 576, 256},
                                    {1, 1000, 43},
                                    {2, 48, 45},
                                    {1, 16, 9},
                                    {3, 80, 21},
                                    // Batched products (the panel cores): 8 to 40 rows, edge depths
                                    // and output counts around the 16-output panel.
                                    {8, 33, 17},
                                    {16, 64, 16},
                                    {17, 35, 15},
                                    {32, 256, 40},
                                    {40, 321, 33},
                                    {23, 5, 70},
                                    {19, 160, 1}};

inline std::vector<int8_t> RandomS8(std::mt19937* rng, size_t n, bool extremes) {
  std::uniform_int_distribution<int> dist(-128, 127);
  std::vector<int8_t> v(n);
  for (int8_t& x : v) x = extremes ? -128 : static_cast<int8_t>(dist(*rng));
  return v;
}

inline std::vector<float> RandomF32(std::mt19937* rng, size_t n) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(*rng);
  return v;
}

inline std::vector<int32_t> RandomS32(std::mt19937* rng, size_t n, int32_t lo, int32_t hi) {
  std::uniform_int_distribution<int32_t> dist(lo, hi);
  std::vector<int32_t> v(n);
  for (int32_t& x : v) x = dist(*rng);
  return v;
}

inline std::vector<SimdLevel> SupportedLevels() {
  std::vector<SimdLevel> levels;
  for (SimdLevel level : kSimdLevels) {
    if (SimdLevelSupported(level)) levels.push_back(level);
  }
  return levels;
}

class SimdKernelsFixture : public ::testing::TestWithParam<SimdLevel> {
 protected:
  void SetUp() override {
    ASSERT_EQ(GetSimdKernelTable(GetParam(), &simd_), Status::kOk);
    ASSERT_EQ(simd_->backend, KernelBackend::kSimd);
  }
  const KernelTable& ref_ = ReferenceKernelTable();
  const KernelTable* simd_ = nullptr;
};

inline std::string LevelName(const ::testing::TestParamInfo<SimdLevel>& info) {
  std::string name = SimdLevelName(info.param);
  for (char& c : name) c = c == '-' ? '_' : c;
  return name;
}

}  // namespace simd_testing
}  // namespace edgenmt

#endif  // EDGENMT_TESTS_KERNELS_SIMD_SUPPORT_H_
