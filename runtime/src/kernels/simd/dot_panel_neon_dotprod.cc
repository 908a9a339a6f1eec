// ARMv8.2 dot-product panel product (simd_dot.h, DotS8PanelFn): each 16-byte slice of 8 weight
// rows is transposed in registers (dword g of 4 weight rows in one vector), then every
// activation row's 16 bytes feed `sdot by element` (vdotq_laneq_s32): one instruction adds 4
// bytes of the row against 4 outputs, and each row's 8 sums build up in two registers with no
// reduction at the end. Signed by signed, exact: x_sums is not needed. Compiled with +dotprod;
// run only where the CPU reports it (simd_level.cc).
#if defined(__aarch64__)
#include <arm_neon.h>
#include <string.h>

#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {
namespace {

constexpr int32_t kColumns = 8;  // outputs of one micro-panel
constexpr int32_t kMaxRows = 8;  // rows of one micro-panel: 16 accumulators + 8 weights

// Weight rows [0, count) of 8 (the rest zero), 16 bytes from k (n <= 16 of them, zero past n),
// transposed: v[q][g] lane j = weight row 4q + j's bytes [k + 4g, k + 4g + 4).
inline void TransposeSlice(const int8_t* w, int32_t w_stride, int32_t count, int32_t k, int32_t n,
                           int8x16_t v[2][4]) {
  int8x16_t rows[kColumns];
  for (int32_t i = 0; i < kColumns; ++i) {
    if (i >= count) {
      rows[i] = vdupq_n_s8(0);
    } else if (n == 16) {
      rows[i] = vld1q_s8(w + static_cast<int64_t>(i) * w_stride + k);
    } else {
      int8_t tail[16] = {0};
      memcpy(tail, w + static_cast<int64_t>(i) * w_stride + k, static_cast<size_t>(n));
      rows[i] = vld1q_s8(tail);
    }
  }
  for (int32_t q = 0; q < 2; ++q) {
    const int32x4_t r0 = vreinterpretq_s32_s8(rows[4 * q]), r1 = vreinterpretq_s32_s8(rows[4 * q + 1]);
    const int32x4_t r2 = vreinterpretq_s32_s8(rows[4 * q + 2]), r3 = vreinterpretq_s32_s8(rows[4 * q + 3]);
    const int32x4_t t0 = vtrn1q_s32(r0, r1), t1 = vtrn2q_s32(r0, r1);
    const int32x4_t t2 = vtrn1q_s32(r2, r3), t3 = vtrn2q_s32(r2, r3);
    const int64x2_t a0 = vreinterpretq_s64_s32(t0), a1 = vreinterpretq_s64_s32(t1);
    const int64x2_t a2 = vreinterpretq_s64_s32(t2), a3 = vreinterpretq_s64_s32(t3);
    v[q][0] = vreinterpretq_s8_s64(vtrn1q_s64(a0, a2));
    v[q][1] = vreinterpretq_s8_s64(vtrn1q_s64(a1, a3));
    v[q][2] = vreinterpretq_s8_s64(vtrn2q_s64(a0, a2));
    v[q][3] = vreinterpretq_s8_s64(vtrn2q_s64(a1, a3));
  }
}

inline int8x16_t LoadRow(const int8_t* x, int32_t k, int32_t n) {
  if (n == 16) return vld1q_s8(x + k);
  int8_t tail[16] = {0};
  memcpy(tail, x + k, static_cast<size_t>(n));
  return vld1q_s8(tail);
}

template <int32_t kRows>
void MicroPanel(int32_t depth, const int8_t* x, int32_t x_stride, const int8_t* w,
                int32_t w_stride, int32_t count, int32_t* acc, int32_t acc_stride) {
  int32x4_t sum[kRows][2];
  for (int32_t r = 0; r < kRows; ++r) sum[r][0] = sum[r][1] = vdupq_n_s32(0);
  for (int32_t k = 0; k < depth; k += 16) {
    const int32_t n = depth - k < 16 ? depth - k : 16;
    int8x16_t v[2][4];
    TransposeSlice(w, w_stride, count, k, n, v);
    for (int32_t r = 0; r < kRows; ++r) {
      const int8x16_t xr = LoadRow(x + static_cast<int64_t>(r) * x_stride, k, n);
      for (int32_t q = 0; q < 2; ++q) {
        sum[r][q] = vdotq_laneq_s32(sum[r][q], v[q][0], xr, 0);
        sum[r][q] = vdotq_laneq_s32(sum[r][q], v[q][1], xr, 1);
        sum[r][q] = vdotq_laneq_s32(sum[r][q], v[q][2], xr, 2);
        sum[r][q] = vdotq_laneq_s32(sum[r][q], v[q][3], xr, 3);
      }
    }
  }
  for (int32_t r = 0; r < kRows; ++r) {
    int32_t out[kColumns];
    vst1q_s32(out, sum[r][0]);
    vst1q_s32(out + 4, sum[r][1]);
    memcpy(acc + static_cast<int64_t>(r) * acc_stride, out,
           sizeof(int32_t) * static_cast<size_t>(count < kColumns ? count : kColumns));
  }
}

void MicroPanelRows(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                    const int8_t* w, int32_t w_stride, int32_t count, int32_t* acc,
                    int32_t acc_stride) {
  switch (rows) {
#define EDGENMT_MICRO_PANEL(n) \
  case n: return MicroPanel<n>(depth, x, x_stride, w, w_stride, count, acc, acc_stride);
    EDGENMT_MICRO_PANEL(1) EDGENMT_MICRO_PANEL(2) EDGENMT_MICRO_PANEL(3) EDGENMT_MICRO_PANEL(4)
    EDGENMT_MICRO_PANEL(5) EDGENMT_MICRO_PANEL(6) EDGENMT_MICRO_PANEL(7)
    default: return MicroPanel<8>(depth, x, x_stride, w, w_stride, count, acc, acc_stride);
#undef EDGENMT_MICRO_PANEL
  }
}

}  // namespace

void DotS8PanelNeonDotprod(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                           const int32_t* x_sums, const int8_t* w, int32_t w_stride,
                           int32_t count, int32_t* acc, int32_t acc_stride) {
  (void)x_sums;  // signed by signed: no offset to correct
  for (int32_t r0 = 0; r0 < rows; r0 += kMaxRows) {
    const int32_t group = rows - r0 < kMaxRows ? rows - r0 : kMaxRows;
    for (int32_t c0 = 0; c0 < count; c0 += kColumns) {
      MicroPanelRows(group, depth, x + static_cast<int64_t>(r0) * x_stride, x_stride,
                     w + static_cast<int64_t>(c0) * w_stride, w_stride, count - c0,
                     acc + static_cast<int64_t>(r0) * acc_stride + c0, acc_stride);
    }
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__aarch64__)
