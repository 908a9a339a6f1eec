// AVX2 versions of the int8-full Transformer's kernels (simd_transformer_s8.h): 8 int32 lanes
// (4 int64 lanes where the scalar code multiplies in 64 bits), scalar tails from
// kernels/transformer_s8_elements.h; exact integer sums, the scalar rounding per lane.
#if defined(__x86_64__)
#include <immintrin.h>

#include "edgenmt/internal/fixed_point.h"
#include "edgenmt/internal/fixed_point_gelu_table.h"
#include "kernels/kernels_s8.h"
#include "kernels/transformer_s8_elements.h"
#include "kernels/simd/simd_transformer_s8.h"

namespace edgenmt {
namespace simd {
namespace {

// fxp::RoundingDivideByPOT on 8 lanes, exponent in [0, 31]: (x >> e) + (remainder > threshold).
inline __m256i RoundingDivideByPOT(__m256i x, int exponent) {
  if (exponent <= 0) return x;
  const __m256i mask = _mm256_set1_epi32(static_cast<int32_t>((int64_t{1} << exponent) - 1));
  const __m256i remainder = _mm256_and_si256(x, mask);
  const __m256i negative = _mm256_cmpgt_epi32(_mm256_setzero_si256(), x);  // -1 where x < 0
  const __m256i threshold = _mm256_sub_epi32(_mm256_srli_epi32(mask, 1), negative);
  const __m256i up = _mm256_cmpgt_epi32(remainder, threshold);  // -1 where rounding up
  const __m128i count = _mm_cvtsi32_si128(exponent);
  return _mm256_sub_epi32(_mm256_sra_epi32(x, count), up);
}

inline int32_t Sum8(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
  return _mm_cvtsi128_si32(s);
}

inline __m256i Load8(const int32_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

// fxp::RoundingDivideByPOT64 on 4 int64 lanes, exponent in [0, 62]. AVX2 has no arithmetic
// 64-bit shift: the logical one, with the sign bits put back.
inline __m256i RoundingDivideByPOT64(__m256i x, int exponent) {
  if (exponent <= 0) return x;
  const __m256i mask = _mm256_set1_epi64x((int64_t{1} << exponent) - 1);
  const __m256i negative = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);  // -1 where x < 0
  const __m256i threshold = _mm256_sub_epi64(_mm256_srli_epi64(mask, 1), negative);
  const __m256i up = _mm256_cmpgt_epi64(_mm256_and_si256(x, mask), threshold);
  const __m256i shifted =
      _mm256_or_si256(_mm256_srl_epi64(x, _mm_cvtsi32_si128(exponent)),
                      _mm256_sll_epi64(negative, _mm_cvtsi32_si128(64 - exponent)));
  return _mm256_sub_epi64(shifted, up);
}

// fxp::SaturateToInt32 of 4 int64 lanes, the results in the low 128 bits.
inline __m128i SaturateToInt32(__m256i x) {
  const __m256i hi = _mm256_set1_epi64x(fxp::kInt32Max), lo = _mm256_set1_epi64x(fxp::kInt32Min);
  x = _mm256_blendv_epi8(x, hi, _mm256_cmpgt_epi64(x, hi));
  x = _mm256_blendv_epi8(x, lo, _mm256_cmpgt_epi64(lo, x));
  return _mm256_castsi256_si128(
      _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
}

// fxp::MultiplyByQuantizedMultiplier(x, multiplier, shift) on 8 lanes, multiplier in [0, 2^31)
// (so never the INT32_MIN * INT32_MIN case), shift in [-31, 30].
inline __m256i MultiplyByQuantizedMultiplier(__m256i x, int32_t multiplier, int shift) {
  if (shift > 0) {  // the saturating left shift
    const __m256i shifted = _mm256_sll_epi32(x, _mm_cvtsi32_si128(shift));
    const __m256i over = _mm256_cmpgt_epi32(x, _mm256_set1_epi32(fxp::kInt32Max >> shift));
    const __m256i under = _mm256_cmpgt_epi32(_mm256_set1_epi32(fxp::kInt32Min >> shift), x);
    x = _mm256_blendv_epi8(_mm256_blendv_epi8(shifted, _mm256_set1_epi32(fxp::kInt32Max), over),
                           _mm256_set1_epi32(fxp::kInt32Min), under);
  }
  // SaturatingRoundingDoublingHighMul on magnitudes: (|x| m + 2^30 - [x < 0]) >> 31, sign back.
  const __m256i m = _mm256_set1_epi64x(multiplier);
  __m128i halves[2];
  for (int h = 0; h < 2; ++h) {
    const __m256i v =
        _mm256_cvtepi32_epi64(h == 0 ? _mm256_castsi256_si128(x) : _mm256_extracti128_si256(x, 1));
    const __m256i negative = _mm256_cmpgt_epi64(_mm256_setzero_si256(), v);
    const __m256i magnitude = _mm256_sub_epi64(_mm256_xor_si256(v, negative), negative);
    const __m256i product =
        _mm256_add_epi64(_mm256_mul_epu32(magnitude, m),
                         _mm256_add_epi64(_mm256_set1_epi64x(int64_t{1} << 30), negative));
    const __m256i high = _mm256_srli_epi64(product, 31);
    const __m256i with_sign = _mm256_sub_epi64(_mm256_xor_si256(high, negative), negative);
    halves[h] = _mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(with_sign, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
  }
  const __m256i high_mul = _mm256_inserti128_si256(_mm256_castsi128_si256(halves[0]), halves[1], 1);
  return RoundingDivideByPOT(high_mul, shift > 0 ? 0 : -shift);
}

// Packs 32 int32 lanes into int8 with saturation, in order.
inline void StoreSaturatedS8(const __m256i r[4], int8_t* y) {
  const __m256i packed =
      _mm256_packs_epi16(_mm256_packs_epi32(r[0], r[1]), _mm256_packs_epi32(r[2], r[3]));
  _mm256_storeu_si256(
      reinterpret_cast<__m256i*>(y),
      _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
}

// fxp::GeluQ20 on 8 lanes: both table entries of a lane come from one 32-bit gather (the table
// is int16 and 4-byte aligned; index 255 reads entries 255 and 256, the last). x * Phi / 2^15
// is split at bit 15 of x so every product fits 32 bits: x = hi 2^15 + lo, lo in [0, 2^15).
inline __m256i GeluQ20(__m256i x) {
  const __m256i low = _mm256_set1_epi32(-4 * (1 << 20));
  const __m256i t =
      _mm256_min_epi32(_mm256_max_epi32(_mm256_sub_epi32(x, low), _mm256_setzero_si256()),
                       _mm256_set1_epi32((8 << 20) - 1));
  const __m256i frac_mask = _mm256_set1_epi32((1 << 15) - 1);
  const __m256i pair = _mm256_i32gather_epi32(reinterpret_cast<const int*>(fxp::kNormalCdfTableQ15),
                                              _mm256_srli_epi32(t, 15), 2);
  const __m256i a = _mm256_srai_epi32(_mm256_slli_epi32(pair, 16), 16);
  const __m256i b = _mm256_srai_epi32(pair, 16);
  const __m256i phi = _mm256_add_epi32(
      a, RoundingDivideByPOT(
             _mm256_mullo_epi32(_mm256_sub_epi32(b, a), _mm256_and_si256(t, frac_mask)), 15));
  const __m256i lo_product = _mm256_mullo_epi32(_mm256_and_si256(x, frac_mask), phi);  // < 2^30
  const __m256i negative = _mm256_cmpgt_epi32(_mm256_setzero_si256(), x);
  const __m256i up =
      _mm256_cmpgt_epi32(_mm256_and_si256(lo_product, frac_mask),
                         _mm256_sub_epi32(_mm256_set1_epi32((1 << 14) - 1), negative));
  const __m256i gelu =
      _mm256_sub_epi32(_mm256_add_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(x, 15), phi),
                                        _mm256_srai_epi32(lo_product, 15)),
                       up);
  const __m256i below =
      _mm256_cmpgt_epi32(_mm256_add_epi32(low, _mm256_set1_epi32(1)), x);             // x <= low
  const __m256i above = _mm256_cmpgt_epi32(x, _mm256_set1_epi32(4 * (1 << 20) - 1));  // x >= -low
  return _mm256_blendv_epi8(_mm256_andnot_si256(below, gelu), x, above);
}

}  // namespace

void RequantizeS32S8Avx2(int32_t n, const int32_t* x, int32_t shift, bool relu, int8_t* y) {
  const __m256i floor = relu ? _mm256_setzero_si256() : _mm256_set1_epi32(fxp::kInt32Min);
  int32_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i r[4];
    for (int k = 0; k < 4; ++k)
      r[k] = RoundingDivideByPOT(_mm256_max_epi32(Load8(x + i + 8 * k), floor), shift);
    StoreSaturatedS8(r, y + i);  // saturating packs keep each value's int8 saturation
  }
  for (; i < n; ++i) y[i] = transformer_s8::Requantize(x[i], shift, relu);
}

void ResidualAddS32S16Avx2(int32_t n, const int32_t* x, int32_t shift, int16_t* residual) {
  // |v| beyond 2^16 saturates the sum either way; clamping first keeps the int32 add exact.
  const __m256i lo = _mm256_set1_epi32(-65536), hi = _mm256_set1_epi32(65536);
  int32_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256i sum[2];
    for (int k = 0; k < 2; ++k) {
      const __m256i v = RoundingDivideByPOT(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i + 8 * k)), shift);
      const __m256i r = _mm256_cvtepi16_epi32(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(residual + i + 8 * k)));
      sum[k] = _mm256_add_epi32(r, _mm256_min_epi32(_mm256_max_epi32(v, lo), hi));
    }
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(sum[0], sum[1]), 0xd8);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(residual + i), packed);
  }
  for (; i < n; ++i) residual[i] = transformer_s8::ResidualAdd(residual[i], x[i], shift);
}

void AttentionScoresS8Avx2(int32_t n, const int8_t* query, const int8_t* const* rows,
                           int32_t offset, int32_t dim, int32_t multiplier, int32_t shift,
                           int32_t* scores) {
  const int32_t blocks = dim / 16 * 16;
  for (int32_t j = 0; j < n; ++j) {
    const int8_t* key = rows[j] + offset;
    __m256i acc = _mm256_setzero_si256();
    for (int32_t i = 0; i < blocks; i += 16) {
      const __m256i q =
          _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(query + i)));
      const __m256i k =
          _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(key + i)));
      acc = _mm256_add_epi32(acc, _mm256_madd_epi16(q, k));
    }
    int32_t dot = Sum8(acc);
    for (int32_t i = blocks; i < dim; ++i) dot += static_cast<int32_t>(query[i]) * key[i];
    scores[j] = fxp::MultiplyByQuantizedMultiplier(dot, multiplier, shift);
  }
}

void AttentionContextS8Avx2(int32_t n, const int16_t* weights, const int8_t* const* rows,
                            int32_t offset, int32_t dim, int8_t* out) {
  int32_t i = 0;
  for (; i + 8 <= dim; i += 8) {
    __m256i acc = _mm256_setzero_si256();
    for (int32_t j = 0; j < n; ++j) {
      const __m256i v = _mm256_cvtepi8_epi32(
          _mm_loadl_epi64(reinterpret_cast<const __m128i*>(rows[j] + offset + i)));
      acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(v, _mm256_set1_epi32(weights[j])));
    }
    alignas(32) int32_t sums[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(sums), RoundingDivideByPOT(acc, 15));
    for (int k = 0; k < 8; ++k) out[i + k] = fxp::SaturateToInt8(sums[k]);
  }
  for (; i < dim; ++i) out[i] = transformer_s8::ContextColumn(n, weights, rows, offset + i);
}

void GeluS32S8Avx2(int32_t n, const int32_t* x, int32_t shift, int8_t* y) {
  int32_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i r[4];
    for (int k = 0; k < 4; ++k) r[k] = RoundingDivideByPOT(GeluQ20(Load8(x + i + 8 * k)), shift);
    StoreSaturatedS8(r, y + i);
  }
  for (; i < n; ++i) y[i] = transformer_s8::Gelu(x[i], shift);
}

void EmbeddingLookupS8S32Avx2(int32_t count, const int32_t* ids, const int8_t* table,
                              const int32_t* row_multiplier, const int32_t* row_shift, int32_t dim,
                              int32_t scale_multiplier, int32_t scale_shift, int32_t* out,
                              int32_t out_stride) {
  transformer_s8::EmbeddingLookupRows(
      count, ids, table, row_multiplier, row_shift, dim, scale_multiplier, scale_shift, out,
      out_stride, [&](const int8_t* row, int32_t* dst, int32_t row_m, int32_t row_s) {
        int32_t d = 0;
        for (; d + 8 <= dim; d += 8) {
          const __m256i v =
              _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(row + d)));
          const __m256i scaled = MultiplyByQuantizedMultiplier(v, row_m, row_s);
          _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + d),
                              MultiplyByQuantizedMultiplier(scaled, scale_multiplier, scale_shift));
        }
        return d;
      });
}

void LayerNormS32Avx2(int32_t n, const int32_t* x, int32_t x_frac_bits, const int32_t* gain,
                      const int32_t* shift, int32_t* y) {
  const int32_t blocks = n / 8 * 8;
  // Pass 1: sum (int64 lanes), minimum and maximum.
  __m256i sum = _mm256_setzero_si256();
  __m256i lowest = _mm256_set1_epi32(x[0]), highest = lowest;
  for (int32_t i = 0; i < blocks; i += 8) {
    const __m256i v = Load8(x + i);
    lowest = _mm256_min_epi32(lowest, v);
    highest = _mm256_max_epi32(highest, v);
    sum = _mm256_add_epi64(sum,
                           _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)),
                                            _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1))));
  }
  alignas(32) int64_t sums[4];
  alignas(32) int32_t lows[8], highs[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(sums), sum);
  _mm256_store_si256(reinterpret_cast<__m256i*>(lows), lowest);
  _mm256_store_si256(reinterpret_cast<__m256i*>(highs), highest);
  transformer_s8::LayerNormStats stats{sums[0] + sums[1] + sums[2] + sums[3], x[0], x[0]};
  stats.AddLanes(lows, highs, 8);
  stats = transformer_s8::AddLayerNormStats(stats, x, blocks, n);
  if (!stats.CentersFitInt32()) {  // the reference's steps, in int64
    ref_layer_norm_s32(n, x, x_frac_bits, gain, shift, y);
    return;
  }
  const transformer_s8::LayerNormCentering centering = transformer_s8::CenterLayerNorm(stats, n);
  const __m256i mean = _mm256_set1_epi32(static_cast<int32_t>(centering.mean));
  // Pass 2: the squares of the centered values (|c| < 2^25), exact in int64 lanes.
  __m256i squares = _mm256_setzero_si256();
  for (int32_t i = 0; i < blocks; i += 8) {
    const __m256i c = RoundingDivideByPOT(_mm256_sub_epi32(Load8(x + i), mean), centering.pre);
    const __m256i odd = _mm256_srli_epi64(c, 32);
    squares = _mm256_add_epi64(
        squares, _mm256_add_epi64(_mm256_mul_epi32(c, c), _mm256_mul_epi32(odd, odd)));
  }
  _mm256_store_si256(reinterpret_cast<__m256i*>(sums), squares);
  const int64_t square_sum = transformer_s8::AddLayerNormSquares(
      sums[0] + sums[1] + sums[2] + sums[3], x, blocks, n, centering);
  const fxp::InverseSqrt inv =
      transformer_s8::LayerNormInverseSqrt(square_sum, n, x_frac_bits, centering.pre);
  // Pass 3, 4 int64 lanes: c r = c 2^31 + c (r - 2^31) with r - 2^31 in [0, 2^31) (r = 2^32,
  // a variance of exactly a power of 4, takes the scalar step).
  int32_t i = 0;
  if (inv.r < (int64_t{1} << 32)) {
    const __m256i r_low = _mm256_set1_epi64x(inv.r - (int64_t{1} << 31));
    for (; i < blocks; i += 8) {
      const __m256i c8 = RoundingDivideByPOT(_mm256_sub_epi32(Load8(x + i), mean), centering.pre);
      const __m256i g8 = Load8(gain + i), b8 = Load8(shift + i);
      __m128i out[2];
      for (int h = 0; h < 2; ++h) {
        const __m256i c = _mm256_cvtepi32_epi64(h == 0 ? _mm256_castsi256_si128(c8)
                                                       : _mm256_extracti128_si256(c8, 1));
        const __m256i g = _mm256_cvtepi32_epi64(h == 0 ? _mm256_castsi256_si128(g8)
                                                       : _mm256_extracti128_si256(g8, 1));
        const __m256i b = _mm256_cvtepi32_epi64(h == 0 ? _mm256_castsi256_si128(b8)
                                                       : _mm256_extracti128_si256(b8, 1));
        const __m256i cr = _mm256_add_epi64(_mm256_slli_epi64(c, 31), _mm256_mul_epi32(c, r_low));
        const __m256i z = RoundingDivideByPOT64(cr, 42 - inv.q);  // |z| < 2^27: fits int32
        out[h] =
            SaturateToInt32(_mm256_add_epi64(RoundingDivideByPOT64(_mm256_mul_epi32(z, g), 20), b));
      }
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i),
                          _mm256_inserti128_si256(_mm256_castsi128_si256(out[0]), out[1], 1));
    }
  }
  transformer_s8::LayerNormOutputs(x, i, n, centering, inv, gain, shift, y);
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
