// AVX-512 exp terms of int8-full's softmax and log-softmax (simd_softmax.h): the reference's
// ExpOfDifference on 8 int32 inputs at a time in int64 lanes, bit-exact.
#if defined(__x86_64__)
#include "kernels/x86/avx512_vnni/avx512_intrinsics.h"
#include "kernels/x86/avx512_vnni/fixed_point_avx512.h"
#include "kernels/x86/avx512_vnni/fixed_point_exp_avx512.h"
#include "kernels/simd/simd_softmax.h"

namespace edgenmt {
namespace simd {
namespace {

// Lanes [0, count) of 8 (count <= 8).
inline __mmask8 Lanes(int32_t count) {
  return count >= 8 ? 0xFF : static_cast<__mmask8>((1u << count) - 1);
}

// exp(x - max) in Q0.31 for x, max in Q(int_bits).(31 - int_bits): the difference is halved
// (rounded, ties away from zero) and read as Q(int_bits + 1), as the reference does.
inline V ExpOfDifference(const int32_t* x, __mmask8 lanes, int32_t max, int32_t int_bits) {
  const V xv = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(_mm512_maskz_loadu_epi32(lanes, x)));
  const V diff = _mm512_sub_epi64(xv, Set(max));  // in [-2^32, 0] on live lanes
  return ExpOnNegativeValuesQ31(RoundingDivideByPOT(diff, 1), int_bits + 1);
}

}  // namespace

uint64_t SumExpOfDifferenceAvx512(int32_t n, const int32_t* x, int32_t max,
                                  int32_t input_int_bits) {
  V sum = _mm512_setzero_si512();
  for (int32_t i = 0; i < n; i += 8) {
    const __mmask8 lanes = Lanes(n - i);
    sum =
        _mm512_mask_add_epi64(sum, lanes, sum, ExpOfDifference(x + i, lanes, max, input_int_bits));
  }
  return static_cast<uint64_t>(_mm512_reduce_add_epi64(sum));
}

void SoftmaxOutputsAvx512(int32_t n, const int32_t* x, int32_t max, int32_t input_int_bits,
                          int32_t mantissa, int32_t shift, int16_t* y) {
  for (int32_t i = 0; i < n; i += 8) {
    const __mmask8 lanes = Lanes(n - i);
    const V e = ExpOfDifference(x + i, lanes, max, input_int_bits);
    const V scaled =
        RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(e, Set(mantissa)), shift);
    _mm512_mask_storeu_epi16(
        y + i, lanes, _mm512_castsi128_si512(_mm512_cvtepi64_epi16(Clamp(scaled, -32768, 32767))));
  }
}

void GaussianWeightsAvx512(int32_t n, const int32_t* r_squared, int16_t* weights) {
  const __mmask8 lanes = Lanes(n);
  const V r2 =
      _mm512_cvtepi32_epi64(_mm512_castsi512_si256(_mm512_maskz_loadu_epi32(lanes, r_squared)));
  const V gaussian = ExpOnNegativeValuesQ31(_mm512_sub_epi64(_mm512_setzero_si512(), r2), 3);
  const V w =
      _mm512_cvtepi16_epi64(_mm512_castsi512_si128(_mm512_maskz_loadu_epi16(lanes, weights)));
  _mm512_mask_storeu_epi16(weights, lanes,
                           _mm512_castsi128_si512(_mm512_cvtepi64_epi16(
                               SaturatingRoundingDoublingHighMul(w, gaussian))));
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
