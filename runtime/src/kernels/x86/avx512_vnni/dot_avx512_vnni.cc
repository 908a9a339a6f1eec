// AVX-512 VNNI int8 dot products (simd_dot.h): vpdpbusd multiplies unsigned by signed bytes,
// so the weights are offset to unsigned (w ^ 0x80 = w + 128, exact for every int8) and
// 128 * sum(x) is subtracted at the end. The sums may wrap in 32 bits on the way (|w + 128| up
// to 255), but the result fits and arithmetic modulo 2^32 gives it exactly. Depth tails use
// masked loads (zero activations contribute nothing). Four weight rows share each load of x.
#if defined(__x86_64__)
#include "kernels/x86/avx512_vnni/avx512_intrinsics.h"
#include "kernels/simd/simd_dot.h"

namespace edgenmt {
namespace simd {
namespace {

inline __m512i LoadTail(const int8_t* p, __mmask64 mask) {
  return _mm512_maskz_loadu_epi8(mask, p);
}

inline __m256i Fold(__m512i a) {
  return _mm256_add_epi32(_mm512_castsi512_si256(a), _mm512_extracti64x4_epi64(a, 1));
}

inline __m128i SumLanes4(__m512i a0, __m512i a1, __m512i a2, __m512i a3) {
  const __m256i s = _mm256_hadd_epi32(_mm256_hadd_epi32(Fold(a0), Fold(a1)),
                                      _mm256_hadd_epi32(Fold(a2), Fold(a3)));
  return _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
}

// 128 * sum(x), modulo 2^32.
uint32_t OffsetCorrection(int32_t depth, const int8_t* x) {
  uint32_t sum = 0;
  for (int32_t k = 0; k < depth; ++k) sum += static_cast<uint32_t>(static_cast<int32_t>(x[k]));
  return sum << 7;
}

// Rows x rows of activations against groups of 4 weight rows: each weight load serves every
// activation row (16 accumulators for 4 rows).
template <int32_t kRows>
void DotRows(int32_t depth, const int8_t* x, int32_t x_stride, const int8_t* w, int32_t w_stride,
             int32_t count, int32_t* acc, int32_t acc_stride) {
  const int32_t vector_depth = depth & ~63;
  const int32_t tail = depth - vector_depth;
  const __mmask64 tail_mask = tail == 0 ? 0 : (~0ULL >> (64 - tail));
  const __m512i offset = _mm512_set1_epi8(static_cast<char>(0x80));
  uint32_t correction[kRows];
  for (int32_t r = 0; r < kRows; ++r)
    correction[r] = OffsetCorrection(depth, x + static_cast<int64_t>(r) * x_stride);
  int32_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const int8_t* w0 = w + static_cast<int64_t>(j) * w_stride;
    __m512i a[kRows][4];
    for (int32_t r = 0; r < kRows; ++r) {
      for (int32_t i = 0; i < 4; ++i) a[r][i] = _mm512_setzero_si512();
    }
    const auto step = [&](int32_t k, __mmask64 mask) {
      __m512i wv[4];
      for (int32_t i = 0; i < 4; ++i) {
        wv[i] =
            _mm512_xor_si512(LoadTail(w0 + static_cast<int64_t>(i) * w_stride + k, mask), offset);
      }
      for (int32_t r = 0; r < kRows; ++r) {
        const __m512i xv = LoadTail(x + static_cast<int64_t>(r) * x_stride + k, mask);
        for (int32_t i = 0; i < 4; ++i) a[r][i] = _mm512_dpbusd_epi32(a[r][i], wv[i], xv);
      }
    };
    for (int32_t k = 0; k < vector_depth; k += 64) step(k, ~0ULL);
    if (tail != 0) step(vector_depth, tail_mask);
    for (int32_t r = 0; r < kRows; ++r) {
      const __m128i sums = _mm_sub_epi32(SumLanes4(a[r][0], a[r][1], a[r][2], a[r][3]),
                                         _mm_set1_epi32(static_cast<int32_t>(correction[r])));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(acc + static_cast<int64_t>(r) * acc_stride + j),
                       sums);
    }
  }
  if (j < count) {  // the last 1-3 weight rows, one activation row at a time
    for (int32_t r = 0; r < kRows; ++r) {
      DotS8Avx512Vnni(depth, x + static_cast<int64_t>(r) * x_stride,
                      w + static_cast<int64_t>(j) * w_stride, w_stride, count - j,
                      acc + static_cast<int64_t>(r) * acc_stride + j);
    }
  }
}

}  // namespace

void DotS8RowsAvx512Vnni(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                         const int8_t* w, int32_t w_stride, int32_t count, int32_t* acc,
                         int32_t acc_stride) {
  switch (rows) {
    case 1: return DotRows<1>(depth, x, x_stride, w, w_stride, count, acc, acc_stride);
    case 2: return DotRows<2>(depth, x, x_stride, w, w_stride, count, acc, acc_stride);
    case 3: return DotRows<3>(depth, x, x_stride, w, w_stride, count, acc, acc_stride);
    default: return DotRows<4>(depth, x, x_stride, w, w_stride, count, acc, acc_stride);
  }
}

void DotS8Avx512Vnni(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride,
                     int32_t count, int32_t* acc) {
  const int32_t vector_depth = depth & ~63;
  const int32_t tail = depth - vector_depth;
  const __mmask64 tail_mask = tail == 0 ? 0 : (~0ULL >> (64 - tail));
  const __m512i offset = _mm512_set1_epi8(static_cast<char>(0x80));
  const uint32_t correction = OffsetCorrection(depth, x);
  int32_t j = 0;
  for (; j + 4 <= count; j += 4) {
    const int8_t* w0 = w + static_cast<int64_t>(j) * w_stride;
    const int8_t* w1 = w0 + w_stride;
    const int8_t* w2 = w1 + w_stride;
    const int8_t* w3 = w2 + w_stride;
    __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
    for (int32_t k = 0; k < vector_depth; k += 64) {
      const __m512i xv = _mm512_loadu_si512(x + k);
      a0 = _mm512_dpbusd_epi32(a0, _mm512_xor_si512(_mm512_loadu_si512(w0 + k), offset), xv);
      a1 = _mm512_dpbusd_epi32(a1, _mm512_xor_si512(_mm512_loadu_si512(w1 + k), offset), xv);
      a2 = _mm512_dpbusd_epi32(a2, _mm512_xor_si512(_mm512_loadu_si512(w2 + k), offset), xv);
      a3 = _mm512_dpbusd_epi32(a3, _mm512_xor_si512(_mm512_loadu_si512(w3 + k), offset), xv);
    }
    if (tail != 0) {
      const __m512i xv = LoadTail(x + vector_depth, tail_mask);
      a0 = _mm512_dpbusd_epi32(a0, _mm512_xor_si512(LoadTail(w0 + vector_depth, tail_mask), offset),
                               xv);
      a1 = _mm512_dpbusd_epi32(a1, _mm512_xor_si512(LoadTail(w1 + vector_depth, tail_mask), offset),
                               xv);
      a2 = _mm512_dpbusd_epi32(a2, _mm512_xor_si512(LoadTail(w2 + vector_depth, tail_mask), offset),
                               xv);
      a3 = _mm512_dpbusd_epi32(a3, _mm512_xor_si512(LoadTail(w3 + vector_depth, tail_mask), offset),
                               xv);
    }
    const __m128i sums =
        _mm_sub_epi32(SumLanes4(a0, a1, a2, a3), _mm_set1_epi32(static_cast<int32_t>(correction)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(acc + j), sums);
  }
  for (; j < count; ++j) {
    const int8_t* w0 = w + static_cast<int64_t>(j) * w_stride;
    __m512i a0 = _mm512_setzero_si512();
    for (int32_t k = 0; k < vector_depth; k += 64) {
      a0 = _mm512_dpbusd_epi32(a0, _mm512_xor_si512(_mm512_loadu_si512(w0 + k), offset),
                               _mm512_loadu_si512(x + k));
    }
    if (tail != 0) {
      a0 = _mm512_dpbusd_epi32(a0, _mm512_xor_si512(LoadTail(w0 + vector_depth, tail_mask), offset),
                               LoadTail(x + vector_depth, tail_mask));
    }
    const uint32_t sum = static_cast<uint32_t>(_mm512_reduce_add_epi32(a0)) - correction;
    acc[j] = static_cast<int32_t>(sum);
  }
}

// StoreHybridOutput over a block, 16 outputs at a time (tail masked): the operations of
// HybridOutputBlockAvx2 in the same order, so bit for bit.
void HybridOutputBlockAvx512(int32_t n, const int32_t* dots, float x_scale, const float* w_scales,
                             const float* bias, bool accumulate, float* y) {
  const __m512 xs = _mm512_set1_ps(x_scale);
  for (int32_t i = 0; i < n; i += 16) {
    const __mmask16 lanes = static_cast<__mmask16>(n - i >= 16 ? 0xFFFF : (1u << (n - i)) - 1u);
    const __m512 scale = _mm512_mul_ps(xs, _mm512_maskz_loadu_ps(lanes, w_scales + i));
    __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_maskz_loadu_epi32(lanes, dots + i)), scale);
    if (bias != nullptr) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(lanes, bias + i));
    if (accumulate) v = _mm512_add_ps(_mm512_maskz_loadu_ps(lanes, y + i), v);
    _mm512_mask_storeu_ps(y + i, lanes, v);
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
