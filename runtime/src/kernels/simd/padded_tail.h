// The last, partial block of an elementwise vector loop: the n - from (< Width) values left
// after the whole blocks go through a zero-padded copy on the stack, so they take the same
// vector code as the rest and nothing is read or written past n. Header-only and in an
// anonymous namespace, like dot_tail.h: each instruction-set file gets its own copy, compiled
// with its own flags.
#ifndef EDGENMT_KERNELS_SIMD_PADDED_TAIL_H_
#define EDGENMT_KERNELS_SIMD_PADDED_TAIL_H_

#include <stdint.h>

namespace edgenmt {
namespace simd {
namespace {

// block(in, out) reads Width values of in and writes Width values of out; it runs once, on
// x[from, n) padded with zeros, and y[from, n) receives the first n - from values it wrote.
template <int Width, typename In, typename Out, typename Block>
inline void PaddedTail(int32_t from, int32_t n, const In* x, Out* y, Block block) {
  if (from >= n) return;
  In in[Width] = {};
  Out out[Width] = {};
  for (int32_t j = 0; j < n - from; ++j) in[j] = x[from + j];
  block(in, out);
  for (int32_t j = 0; j < n - from; ++j) y[from + j] = out[j];
}

}  // namespace
}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_PADDED_TAIL_H_
