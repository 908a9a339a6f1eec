// The SIMD backend's product drivers (simd_kernel_table.cc's only includer): portable loops
// over a level L's dot-product cores (simd_dot.h) and its per-output steps, shared by every
// instruction set. Integer results are bit-identical to the reference (the per-output
// arithmetic is kernels/product_outputs.h); float ones differ only by summation order.
#ifndef EDGENMT_KERNELS_SIMD_SIMD_PRODUCT_DRIVERS_H_
#define EDGENMT_KERNELS_SIMD_SIMD_PRODUCT_DRIVERS_H_

#include <stdint.h>

#include "kernels/kernel_table.h"
#include "kernels/product_outputs.h"
#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd_drivers {

static_assert(simd::kDotRows <= kHybridScratchRows, "hybrid scratch holds one group of rows");

// Outputs per call of a dot core; the sums of up to kDotRows rows wait on the stack (512 B).
constexpr int32_t kOutputBlock = 32;
// One activation row (greedy steps, the recurrences) takes the whole 512 B: 128 outputs a call,
// a quarter of the calls and loop set-ups.
inline int32_t OutputBlockFor(int32_t group) {
  return group == 1 ? simd::kDotRows * kOutputBlock : kOutputBlock;
}
// float32 sums of one row waiting to be added into y (512 B).
constexpr int32_t kF32OutputBlock = 128;

inline int32_t BlockSize(int32_t total, int32_t start, int32_t block) {
  return total - start < block ? total - start : block;
}

// ---- portable parts of the drivers ----------------------------------------------------------

template <simd::DotS8Fn Dot>
void DotRowsOneByOne(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                     const int8_t* w, int32_t w_stride, int32_t count, int32_t* acc,
                     int32_t acc_stride) {
  for (int32_t r = 0; r < rows; ++r) {
    Dot(depth, x + static_cast<int64_t>(r) * x_stride, w, w_stride, count,
        acc + static_cast<int64_t>(r) * acc_stride);
  }
}

// The portable output steps, for the levels without vector ones (unused in builds that have
// none of those levels).
[[maybe_unused]] inline void HybridOutputBlock(int32_t n, const int32_t* dots, float x_scale,
                                               const float* w_scales, const float* bias,
                                               bool accumulate, float* y) {
  for (int32_t i = 0; i < n; ++i)
    StoreHybridOutput(dots[i], x_scale, w_scales, bias, i, accumulate, &y[i]);
}

// Unrolled on aarch64 only (fewer loop instructions per word); the boards keep the code small.
#if defined(__aarch64__)
#define EDGENMT_UNROLL_ON_A64 _Pragma("GCC unroll 8")
#else
#define EDGENMT_UNROLL_ON_A64
#endif

// StoreF32Output's arithmetic over a row, a loop per case so that each vectorizes (y never
// overlaps the sums or the bias): dot + bias, and y + (dot + bias).
inline void AddF32Bias(int32_t n, const float* __restrict bias, float* __restrict y) {
  EDGENMT_UNROLL_ON_A64
  for (int32_t i = 0; i < n; ++i) y[i] = y[i] + bias[i];
}

inline void AccumulateF32Outputs(int32_t n, const float* __restrict dots,
                                 const float* __restrict bias, float* __restrict y) {
  if (bias == nullptr) {
    EDGENMT_UNROLL_ON_A64
    for (int32_t i = 0; i < n; ++i) y[i] = y[i] + dots[i];
  } else {
    EDGENMT_UNROLL_ON_A64
    for (int32_t i = 0; i < n; ++i) y[i] = y[i] + (dots[i] + bias[i]);
  }
}

[[maybe_unused]] inline void RequantizeColumnBlock(int32_t n, const int32_t* dots,
                                                   const int32_t* multiplier, const int32_t* shift,
                                                   int32_t shift_offset, const int32_t* bias,
                                                   bool accumulate, int32_t* y) {
  for (int32_t i = 0; i < n; ++i) {
    StoreStridedS32Output(dots[i], multiplier, shift, shift_offset, bias, i, accumulate, &y[i]);
  }
}

[[maybe_unused]] inline void RequantizeEmbeddingBlock(int32_t n, const int32_t* dots, int32_t id,
                                                      const int32_t* row_multiplier,
                                                      const int32_t* row_shift,
                                                      const int32_t* multiplier,
                                                      const int32_t* shift, const int32_t* bias,
                                                      int32_t* y) {
  for (int32_t i = 0; i < n; ++i) {
    y[i] = EmbeddingS32Output(dots[i], id, row_multiplier, row_shift, multiplier, shift, bias, i);
  }
}

// ---- drivers, over a level L (the structs at the end) ---------------------------------------

template <typename L>
void FullyConnectedF32(int32_t rows, int32_t in_features, int32_t out_features, const float* x,
                       const float* w, const float* bias, float* y, bool accumulate) {
  for (int32_t r = 0; r < rows; ++r) {
    const float* x_row = x + static_cast<int64_t>(r) * in_features;
    float* y_row = y + static_cast<int64_t>(r) * out_features;
    if (!accumulate) {  // the sums go straight to y, then the bias: one call per row
      L::kDotF32(in_features, x_row, w, in_features, out_features, y_row);
      if (bias != nullptr) AddF32Bias(out_features, bias, y_row);
      continue;
    }
    float dots[kF32OutputBlock];
    for (int32_t m0 = 0; m0 < out_features; m0 += kF32OutputBlock) {
      const int32_t n = BlockSize(out_features, m0, kF32OutputBlock);
      L::kDotF32(in_features, x_row, w + static_cast<int64_t>(m0) * in_features, in_features, n,
                 dots);
      AccumulateF32Outputs(n, dots, bias != nullptr ? bias + m0 : nullptr, y_row + m0);
    }
  }
}

// Products of at least this many rows take a level's panel core where it has one.
constexpr int32_t kPanelMinRows = 8;

// rows (<= kPanelRows) activation rows against every output, 16 outputs at a time through the
// level's panel core; store(r, m0, n, dots) takes row r's sums of outputs [m0, m0 + n). Only
// batched products come here (hosts and Linux boards), so its 1 KiB block of sums may exceed
// the runtime's 1 KiB frame limit, which is for the microcontrollers' single-row paths.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstack-usage="
template <typename L, typename Store>
__attribute__((noinline)) void PanelProduct(int32_t rows, int32_t depth, const int8_t* x,
                                            int32_t x_stride, const int8_t* w, int32_t w_stride,
                                            int32_t out_features, const Store& store) {
  int32_t dots[simd::kPanelRows][simd::kPanelColumns];
  int32_t sums[simd::kPanelRows];
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* row = x + static_cast<int64_t>(r) * x_stride;
    int32_t sum = 0;
    for (int32_t k = 0; k < depth; ++k) sum += row[k];
    sums[r] = sum;
  }
  for (int32_t m0 = 0; m0 < out_features; m0 += simd::kPanelColumns) {
    const int32_t n = BlockSize(out_features, m0, simd::kPanelColumns);
    L::kDotS8Panel(rows, depth, x, x_stride, sums, w + static_cast<int64_t>(m0) * w_stride,
                   w_stride, n, &dots[0][0], simd::kPanelColumns);
    for (int32_t r = 0; r < rows; ++r) store(r, m0, n, dots[r]);
  }
}
#pragma GCC diagnostic pop

template <typename L>
void FullyConnectedS8Hybrid(int32_t rows, int32_t in_features, int32_t out_features, const float* x,
                            const int8_t* w, const float* w_scales, const float* bias, float* y,
                            bool accumulate, int8_t* x_scratch, int32_t x_scratch_rows) {
  if constexpr (L::kHasPanel) {
    if (rows >= kPanelMinRows && x_scratch_rows >= simd::kPanelRows) {
      float scales[simd::kPanelRows];
      for (int32_t r0 = 0; r0 < rows; r0 += simd::kPanelRows) {
        const int32_t group = BlockSize(rows, r0, simd::kPanelRows);
        for (int32_t r = 0; r < group; ++r) {
          scales[r] = L::kQuantizeRow(in_features, x + static_cast<int64_t>(r0 + r) * in_features,
                                      x_scratch + static_cast<int64_t>(r) * in_features);
        }
        PanelProduct<L>(group, in_features, x_scratch, in_features, w, in_features, out_features,
                        [&](int32_t r, int32_t m0, int32_t n, const int32_t* dots) {
                          L::kHybridOutputBlock(
                              n, dots, scales[r], w_scales + m0,
                              bias != nullptr ? bias + m0 : nullptr, accumulate,
                              y + static_cast<int64_t>(r0 + r) * out_features + m0);
                        });
      }
      return;
    }
  }
  int32_t dots[simd::kDotRows * kOutputBlock];
  float x_scales[simd::kDotRows];
  for (int32_t r0 = 0; r0 < rows; r0 += simd::kDotRows) {
    const int32_t group = BlockSize(rows, r0, simd::kDotRows);
    const int32_t block = OutputBlockFor(group);
    for (int32_t r = 0; r < group; ++r) {
      x_scales[r] = L::kQuantizeRow(in_features, x + static_cast<int64_t>(r0 + r) * in_features,
                                    x_scratch + static_cast<int64_t>(r) * in_features);
    }
    for (int32_t m0 = 0; m0 < out_features; m0 += block) {
      const int32_t n = BlockSize(out_features, m0, block);
      L::kDotS8Rows(group, in_features, x_scratch, in_features,
                    w + static_cast<int64_t>(m0) * in_features, in_features, n, dots, block);
      for (int32_t r = 0; r < group; ++r) {
        L::kHybridOutputBlock(n, dots + r * block, x_scales[r], w_scales + m0,
                              bias != nullptr ? bias + m0 : nullptr, accumulate,
                              y + static_cast<int64_t>(r0 + r) * out_features + m0);
      }
    }
  }
}

template <typename L>
void FullyConnectedS8S32(int32_t rows, int32_t in_features, int32_t out_features, const int8_t* x,
                         int32_t x_stride, const int8_t* w, int32_t w_stride,
                         const int32_t* multiplier, const int32_t* shift, int32_t shift_offset,
                         const int32_t* bias, int32_t* y, bool accumulate) {
  if constexpr (L::kHasPanel) {
    if (rows >= kPanelMinRows) {
      for (int32_t r0 = 0; r0 < rows; r0 += simd::kPanelRows) {
        const int32_t group = BlockSize(rows, r0, simd::kPanelRows);
        PanelProduct<L>(
            group, in_features, x + static_cast<int64_t>(r0) * x_stride, x_stride, w, w_stride,
            out_features, [&](int32_t r, int32_t m0, int32_t n, const int32_t* dots) {
              L::kRequantizeColumnBlock(n, dots, multiplier + m0, shift + m0, shift_offset,
                                        bias != nullptr ? bias + m0 : nullptr, accumulate,
                                        y + static_cast<int64_t>(r0 + r) * out_features + m0);
            });
      }
      return;
    }
  }
  int32_t dots[simd::kDotRows * kOutputBlock];
  for (int32_t r0 = 0; r0 < rows; r0 += simd::kDotRows) {
    const int32_t group = BlockSize(rows, r0, simd::kDotRows);
    const int32_t block = OutputBlockFor(group);
    for (int32_t m0 = 0; m0 < out_features; m0 += block) {
      const int32_t n = BlockSize(out_features, m0, block);
      L::kDotS8Rows(group, in_features, x + static_cast<int64_t>(r0) * x_stride, x_stride,
                    w + static_cast<int64_t>(m0) * w_stride, w_stride, n, dots, block);
      for (int32_t r = 0; r < group; ++r) {
        L::kRequantizeColumnBlock(n, dots + r * block, multiplier + m0, shift + m0, shift_offset,
                                  bias != nullptr ? bias + m0 : nullptr, accumulate,
                                  y + static_cast<int64_t>(r0 + r) * out_features + m0);
      }
    }
  }
}

template <typename L>
void EmbeddingFullyConnectedS8S32(int32_t rows, const int32_t* ids, const int8_t* table,
                                  const int32_t* row_multiplier, const int32_t* row_shift,
                                  int32_t dim, int32_t out_features, const int8_t* w,
                                  int32_t w_stride, const int32_t* multiplier, const int32_t* shift,
                                  const int32_t* bias, int32_t* y) {
  // 32 outputs a call here (128 B): this frame adds to the boards' measured stack peak.
  constexpr int32_t block = kOutputBlock;
  int32_t dots[block];
  for (int32_t r = 0; r < rows; ++r) {
    const int32_t id = ids[r];
    const int8_t* x_row = table + static_cast<int64_t>(id) * dim;
    int32_t* y_row = y + static_cast<int64_t>(r) * out_features;
    for (int32_t m0 = 0; m0 < out_features; m0 += block) {
      const int32_t n = BlockSize(out_features, m0, block);
      L::kDotS8(dim, x_row, w + static_cast<int64_t>(m0) * w_stride, w_stride, n, dots);
      L::kRequantizeEmbeddingBlock(n, dots, id, row_multiplier, row_shift, multiplier + m0,
                                   shift + m0, bias != nullptr ? bias + m0 : nullptr, y_row + m0);
    }
  }
}

}  // namespace simd_drivers
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_SIMD_PRODUCT_DRIVERS_H_
