// DSP-extension (SIMD32) versions of the int8-full Transformer's attention (simd_transformer_s8.h),
// for Cortex-M4 / M7 / M33: the two operations with multiply-accumulates in them. Scores: each
// query word sign-extended once (SXTB16, both byte pairs) and shared by 4 key rows, 2 SMLAD per
// row and word (as dot_dsp.cc). Context: two value rows at a time, their bytes of 4 columns
// paired by PKHBT / PKHTB and SXTB16 into (row j, row j + 1) halves, one SMLAD per column with the
// two weights packed once: 8 MACs in 12 instructions against 16 for the scalar loop. The sums
// are the reference's exact int32 ones (|weight| <= 2^15, |value| <= 2^7); the elementwise
// operations stay portable (simd_dsp.h).
#if defined(__ARM_FEATURE_DSP) && !defined(__ARM_FEATURE_MVE) && !defined(__ARM_NEON) && \
    !defined(__aarch64__)
#include <arm_acle.h>

#include "edgenmt/internal/fixed_point.h"
#include "kernels/arm_m/dsp/dsp_words.h"
#include "kernels/simd/simd_transformer_s8.h"
#include "kernels/transformer_s8_elements.h"

namespace edgenmt {
namespace simd {
namespace {

template <int kRows>
void ScoreRows(const int8_t* query, const int8_t* const* keys, int32_t dim, int32_t multiplier,
               int32_t shift, int32_t* scores) {
  int32_t sums[kRows] = {};
  int32_t i = 0;
  for (; i + 4 <= dim; i += 4) {
    const uint32_t q = LoadWord(query + i);
    const uint32_t q_even = __sxtb16(q), q_odd = ExtendOdd(q);
    for (int r = 0; r < kRows; ++r) {
      sums[r] = Smlad4(q_even, q_odd, LoadWord(keys[r] + i), sums[r]);
    }
  }
  for (; i < dim; ++i) {
    for (int r = 0; r < kRows; ++r) sums[r] += static_cast<int32_t>(query[i]) * keys[r][i];
  }
  for (int r = 0; r < kRows; ++r)
    scores[r] = fxp::MultiplyByQuantizedMultiplier(sums[r], multiplier, shift);
}

}  // namespace

void AttentionScoresS8Dsp(int32_t n, const int8_t* query, const int8_t* const* rows, int32_t offset,
                          int32_t dim, int32_t multiplier, int32_t shift, int32_t* scores) {
  int32_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const int8_t* keys[4] = {rows[j] + offset, rows[j + 1] + offset, rows[j + 2] + offset,
                             rows[j + 3] + offset};
    ScoreRows<4>(query, keys, dim, multiplier, shift, scores + j);
  }
  for (; j < n; ++j) {
    const int8_t* key = rows[j] + offset;
    ScoreRows<1>(query, &key, dim, multiplier, shift, scores + j);
  }
}

void AttentionContextS8Dsp(int32_t n, const int16_t* weights, const int8_t* const* rows,
                           int32_t offset, int32_t dim, int8_t* out) {
  int32_t i = 0;
  for (; i + 4 <= dim; i += 4) {
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int32_t j = 0;
    for (; j + 2 <= n; j += 2) {
      const uint32_t w =
          static_cast<uint16_t>(weights[j]) | (static_cast<uint32_t>(weights[j + 1]) << 16);
      const uint32_t a = LoadWord(rows[j] + offset + i), b = LoadWord(rows[j + 1] + offset + i);
      const uint32_t low = (a & 0xFFFFu) | (b << 16);       // a0 a1 b0 b1 (PKHBT)
      const uint32_t high = (a >> 16) | (b & 0xFFFF0000u);  // a2 a3 b2 b3 (PKHTB)
      s0 = __smlad(__sxtb16(low), w, s0);                   // a0 * w_j + b0 * w_j+1
      s1 = __smlad(ExtendOdd(low), w, s1);
      s2 = __smlad(__sxtb16(high), w, s2);
      s3 = __smlad(ExtendOdd(high), w, s3);
    }
    if (j < n) {
      const int32_t w = weights[j];
      const int8_t* row = rows[j] + offset + i;
      s0 += w * row[0];
      s1 += w * row[1];
      s2 += w * row[2];
      s3 += w * row[3];
    }
    out[i] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(s0, 15));
    out[i + 1] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(s1, 15));
    out[i + 2] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(s2, 15));
    out[i + 3] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(s3, 15));
  }
  for (; i < dim; ++i) out[i] = transformer_s8::ContextColumn(n, weights, rows, offset + i);
}

}  // namespace simd
}  // namespace edgenmt
#endif
