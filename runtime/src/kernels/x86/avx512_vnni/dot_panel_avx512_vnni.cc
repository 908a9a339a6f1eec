// AVX-512 VNNI panel product (simd_dot.h, DotS8PanelFn): for 16 outputs and up to 16 activation
// rows, each 32-byte slice of the 16 weight rows is transposed in registers (dword g of every
// weight row in one vector), then every activation row's dword g is broadcast into one
// vpdpbusd per slice group: the 16 sums of a row build up in one register, with no horizontal
// reduction at the end. Weights are offset to unsigned like DotS8Avx512Vnni (w ^ 0x80 = w + 128,
// 128 * sum(x) subtracted at the end), so the result is the exact int32 sum.
#if defined(__x86_64__)
#include <string.h>

#include "kernels/x86/avx512_vnni/avx512_intrinsics.h"
#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {
namespace {

// Weight rows `count` of 16 (the rest zero) over depth bytes [k, k + n), n <= 32, offset to
// unsigned (zero past n), transposed: v[g] lane j = weight row j's bytes [k + 4g, k + 4g + 4).
inline void TransposeSlice(const int8_t* w, int32_t w_stride, int32_t count, int32_t k, int32_t n,
                           __m512i v[8]) {
  // Full slices: plain loads, offset after the transpose (a byte-wise xor commutes with it);
  // the tail: 512-bit masked loads of n bytes (AVX-512 BW without VL), zero past n.
  const bool full = n >= 32 && count >= 16;
  const __mmask64 mask = n >= 32 ? 0xFFFFFFFFull : ((1ull << n) - 1ull);
  const __m512i offset = _mm512_set1_epi8(static_cast<char>(0x80));
  const auto load = [&](int32_t row) {
    const int8_t* p = w + static_cast<int64_t>(row) * w_stride + k;
    if (full) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    if (row >= count) return _mm512_castsi512_si256(_mm512_setzero_si512());
    const __m512i bytes = _mm512_maskz_loadu_epi8(mask, p);
    return _mm512_castsi512_si256(_mm512_maskz_mov_epi8(mask, _mm512_xor_si512(bytes, offset)));
  };
  __m512i z[8];
#pragma GCC unroll 8
  for (int32_t i = 0; i < 8; ++i) {
    z[i] = _mm512_inserti64x4(_mm512_castsi256_si512(load(i)), load(i + 8), 1);
  }
  // An 8 x 8 dword transpose in each 256-bit half (weight rows i and i + 8).
  __m512i t[8], u[8];
#pragma GCC unroll 2
  for (int32_t i = 0; i < 8; i += 4) {
    t[i] = _mm512_unpacklo_epi32(z[i], z[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi32(z[i], z[i + 1]);
    t[i + 2] = _mm512_unpacklo_epi32(z[i + 2], z[i + 3]);
    t[i + 3] = _mm512_unpackhi_epi32(z[i + 2], z[i + 3]);
    u[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);          // dwords 0, 4 of rows i..i+3
    u[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);      // 1, 5
    u[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);  // 2, 6
    u[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);  // 3, 7
  }
  const __m512i first = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
  const __m512i second = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
#pragma GCC unroll 4
  for (int32_t g = 0; g < 4; ++g) {
    v[g] = _mm512_permutex2var_epi64(u[g], first, u[g + 4]);
    v[g + 4] = _mm512_permutex2var_epi64(u[g], second, u[g + 4]);
  }
  if (full) {
#pragma GCC unroll 8
    for (int32_t g = 0; g < 8; ++g) v[g] = _mm512_xor_si512(v[g], offset);
  }
}

// Row r's bytes [k, k + 4) as one dword, zero past depth (never read beyond the row).
inline int32_t XDword(const int8_t* x, int32_t k, int32_t depth) {
  int32_t v = 0;
  memcpy(&v, x + k, static_cast<size_t>(depth - k >= 4 ? 4 : depth - k));
  return v;
}

template <int32_t kRows>
void Panel(int32_t depth, const int8_t* x, int32_t x_stride, const int32_t* x_sums, const int8_t* w,
           int32_t w_stride, int32_t count, int32_t* acc, int32_t acc_stride) {
  __m512i sum[kRows];
#pragma GCC unroll 16
  for (int32_t r = 0; r < kRows; ++r) sum[r] = _mm512_setzero_si512();
  const int32_t full = depth & ~31;
  int32_t k = 0;
  for (; k < full; k += 32) {
    __m512i v[8];
    TransposeSlice(w, w_stride, count, k, 32, v);
#pragma GCC unroll 8
    for (int32_t g = 0; g < 8; ++g) {
#pragma GCC unroll 16
      for (int32_t r = 0; r < kRows; ++r) {
        int32_t dword;
        memcpy(&dword, x + static_cast<int64_t>(r) * x_stride + k + 4 * g, sizeof(dword));
        sum[r] = _mm512_dpbusd_epi32(sum[r], v[g], _mm512_set1_epi32(dword));
      }
    }
  }
  if (k < depth) {
    __m512i v[8];
    TransposeSlice(w, w_stride, count, k, depth - k, v);
    for (int32_t g = 0; 4 * g < depth - k; ++g) {
#pragma GCC unroll 16
      for (int32_t r = 0; r < kRows; ++r) {
        const int32_t dword = XDword(x + static_cast<int64_t>(r) * x_stride, k + 4 * g, depth);
        sum[r] = _mm512_dpbusd_epi32(sum[r], v[g], _mm512_set1_epi32(dword));
      }
    }
  }
  const __mmask16 store = static_cast<__mmask16>(count >= 16 ? 0xFFFF : (1u << count) - 1u);
#pragma GCC unroll 16
  for (int32_t r = 0; r < kRows; ++r) {
    // 128 * sum(x), modulo 2^32 like the sums.
    const uint32_t correction = static_cast<uint32_t>(x_sums[r]) << 7;
    const __m512i result =
        _mm512_sub_epi32(sum[r], _mm512_set1_epi32(static_cast<int32_t>(correction)));
    _mm512_mask_storeu_epi32(acc + static_cast<int64_t>(r) * acc_stride, store, result);
  }
}

}  // namespace

void DotS8PanelAvx512Vnni(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                          const int32_t* x_sums, const int8_t* w, int32_t w_stride, int32_t count,
                          int32_t* acc, int32_t acc_stride) {
  // clang-format off
  switch (rows) {
#define EDGENMT_PANEL_ROWS(n) \
  case n: return Panel<n>(depth, x, x_stride, x_sums, w, w_stride, count, acc, acc_stride);
    EDGENMT_PANEL_ROWS(1) EDGENMT_PANEL_ROWS(2) EDGENMT_PANEL_ROWS(3) EDGENMT_PANEL_ROWS(4)
    EDGENMT_PANEL_ROWS(5) EDGENMT_PANEL_ROWS(6) EDGENMT_PANEL_ROWS(7) EDGENMT_PANEL_ROWS(8)
    EDGENMT_PANEL_ROWS(9) EDGENMT_PANEL_ROWS(10) EDGENMT_PANEL_ROWS(11) EDGENMT_PANEL_ROWS(12)
    EDGENMT_PANEL_ROWS(13) EDGENMT_PANEL_ROWS(14) EDGENMT_PANEL_ROWS(15)
    default: return Panel<16>(depth, x, x_stride, x_sums, w, w_stride, count, acc, acc_stride);
#undef EDGENMT_PANEL_ROWS
  }
  // clang-format on
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
