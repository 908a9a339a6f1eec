// The scalar end of a dot-product core (simd_dot.h) for depths that are not a multiple of its
// vector width. Header-only and in an anonymous namespace: each instruction-set file gets its
// own copy, compiled with its own flags, so no copy is shared across them.
#ifndef EDGENMT_KERNELS_SIMD_DOT_TAIL_H_
#define EDGENMT_KERNELS_SIMD_DOT_TAIL_H_

#include <stdint.h>

namespace edgenmt {
namespace simd {
namespace {

// sums[i] += sum_{from <= k < depth} x[k] * w[i * w_stride + k] for i < 4.
template <typename T, typename Sum>
inline void AddTail4(int32_t from, int32_t depth, const T* x, const T* w, int32_t w_stride,
                     Sum* sums) {
  for (int32_t k = from; k < depth; ++k) {
    for (int32_t i = 0; i < 4; ++i) sums[i] += x[k] * w[static_cast<int64_t>(i) * w_stride + k];
  }
}

// sum += sum_{from <= k < depth} x[k] * w[k].
template <typename T, typename Sum>
inline Sum AddTail1(int32_t from, int32_t depth, const T* x, const T* w, Sum sum) {
  for (int32_t k = from; k < depth; ++k) sum += x[k] * w[k];
  return sum;
}

}  // namespace
}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_DOT_TAIL_H_
