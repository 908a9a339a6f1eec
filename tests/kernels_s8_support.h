// Shared by the reference int8 kernel tests (kernels_s8_test.cc: quantization, embeddings,
// fully connected; kernels_s8_cells_test.cc: nonlinearities, softmax, cells, attention): edge
// depths, fixed-seed random inputs and the exact requantization they are checked against.
// 64-bit hosts only (__int128).
#ifndef EDGENMT_TESTS_KERNELS_S8_SUPPORT_H_
#define EDGENMT_TESTS_KERNELS_S8_SUPPORT_H_

#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <random>
#include <vector>

namespace edgenmt {
namespace s8_testing {

inline constexpr int32_t kEdgeK[] = {1, 3, 7, 17, 33, 127, 128, 255};

inline std::vector<int8_t> RandomS8(std::mt19937& rng, size_t n, int lo = -128, int hi = 127) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}
inline std::vector<float> RandomF32(std::mt19937& rng, size_t n, float range) {
  std::uniform_real_distribution<float> d(-range, range);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

// Exact requantization written out independently of fixed_point.h: saturating left shift,
// round(2 x m / 2^32) ties up, then round(/ 2^right) ties away from zero, in 128-bit math.
inline int32_t ExactRequantize(int64_t acc64, int32_t m, int shift) {
  const int32_t acc =
      static_cast<int32_t>(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, acc64)));
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

}  // namespace s8_testing
}  // namespace edgenmt

#endif  // EDGENMT_TESTS_KERNELS_S8_SUPPORT_H_
