// Helium (MVE) requantization, narrowing, attention scores and context (simd_helium.h),
// bit-exact with the reference: VQRDMULH is fxp::SaturatingRoundingDoublingHighMul, VQSHL a
// saturating left shift, and a rounding shift (ties up) of x - [x < 0] is
// fxp::RoundingDivideByPOT (ties away from zero). Four int32 lanes per step; the last 1-3
// outputs take the portable definitions (kernels/product_outputs.h, the reference kernels) or a
// predicated vector. (Inline project code is safe here, unlike in the x86 files: a Cortex-M
// build compiles everything for its one core.)
#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>

#include "kernels/kernels_s8.h"
#include "kernels/product_outputs.h"
#include "kernels/score_scale.h"
#include "kernels/arm_m/helium/fixed_point_helium.h"
#include "kernels/simd/simd_helium.h"

namespace edgenmt {
namespace simd {

namespace {

// A vector of `value` made in the loop, where it is used: MVE's 8 vector registers cannot
// hold the loop's constants beside its values, and GCC would hoist an ordinary VDUP or VMOV
// and then spill it to the stack (two instructions per reload, against one here).
inline V LoopVector(int32_t value) {
  V v;
  __asm__ volatile("vdup.32 %q0, %1" : "=w"(v) : "r"(value));
  return v;
}
template <int32_t kValue>
inline V LoopConstant() {
  return LoopVector(kValue);
}

// StoreStridedS32Output on the 4 outputs at the pointers.
template <bool kBias, bool kAccumulate>
inline void RequantizeColumns4(const int32_t* dots, const int32_t* multiplier, const int32_t* shift,
                               int32_t shift_offset, const int32_t* bias, int32_t* y) {
  const V sh = vaddq_n_s32(vldrwq_s32(shift), shift_offset);
  const V clamped = vminq_s32(vmaxq_s32(sh, LoopConstant<-31>()), LoopConstant<30>());
  V v = MultiplyByQuantizedMultiplier(vldrwq_s32(dots), vldrwq_s32(multiplier), clamped);
  if (kBias) v = vqaddq_s32(v, vldrwq_s32(bias));
  if (kAccumulate) v = vqaddq_s32(vldrwq_s32(y), v);
  vstrwq_s32(y, v);
}

// The whole vectors of a block (the last 1-3 outputs are the caller's), bias and
// accumulation fixed so that the loop tests neither; loads and stores unpredicated.
template <bool kBias, bool kAccumulate>
void RequantizeColumns(int32_t n, const int32_t* dots, const int32_t* multiplier,
                       const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                       int32_t* y) {
  const int32_t* const end = dots + (n & ~3);
  for (; dots < end; dots += 4, multiplier += 4, shift += 4, bias += kBias ? 4 : 0, y += 4) {
    RequantizeColumns4<kBias, kAccumulate>(dots, multiplier, shift, shift_offset, bias, y);
  }
}

}  // namespace

// StoreStridedS32Output (kernels/product_outputs.h) for outputs 0..n-1: whole vectors, then
// the last 1-3 outputs by that portable definition itself (no second, predicated copy of the
// vector code in a microcontroller's flash).
void RequantizeColumnBlockHelium(int32_t n, const int32_t* dots, const int32_t* multiplier,
                                 const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                                 bool accumulate, int32_t* y) {
  const auto columns =
      bias != nullptr
          ? (accumulate ? RequantizeColumns<true, true> : RequantizeColumns<true, false>)
          : (accumulate ? RequantizeColumns<false, true> : RequantizeColumns<false, false>);
  columns(n, dots, multiplier, shift, shift_offset, bias, y);
  for (int32_t i = n & ~3; i < n; ++i) {
    StoreStridedS32Output(dots[i], multiplier, shift, shift_offset, bias, i, accumulate, &y[i]);
  }
}

// fxp::MultiplyByQuantizedMultiplierSingleRounding(x, multiplier, shift) on 4 lanes, given
// right = 31 - shift in [1, 62]: the exact 64-bit product as VMULH (high word, signed) and VMUL
// (low word), the rounding nudge 2^(right-1) - [product < 0] added with its carry (ties away
// from zero), the 64-bit shift, and saturation where the result leaves int32.
inline V SingleRoundingRescale(V x, int32_t multiplier, int32_t right) {
  const V m = Set(multiplier);
  const V hi = vmulhq_s32(x, m);
  const uint32x4_t lo = vreinterpretq_u32_s32(vmulq_s32(x, m));
  const mve_pred16_t negative = vcmpltq_n_s32(hi, 0);
  // The nudge's words for a positive product, and for a negative one (one less).
  const uint32_t up_lo = right <= 32 ? (1u << (right - 1)) : 0u;
  const int32_t up_hi = right <= 32 ? 0 : (1 << (right - 33));
  const uint32_t down_lo = up_lo - 1u;
  const int32_t down_hi = up_lo == 0u ? up_hi - 1 : up_hi;
  const uint32x4_t nudge_lo = vpselq_u32(vdupq_n_u32(down_lo), vdupq_n_u32(up_lo), negative);
  const V nudge_hi = vpselq_s32(Set(down_hi), Set(up_hi), negative);
  const uint32x4_t sum_lo = vaddq_u32(lo, nudge_lo);
  const mve_pred16_t carry = vcmphiq_u32(lo, sum_lo);  // the low words wrapped
  const V sum_hi = vaddq_m_n_s32(vaddq_s32(hi, nudge_hi), vaddq_s32(hi, nudge_hi), 1, carry);
  if (right >= 32) return vshlq_s32(sum_hi, Set(32 - right));  // arithmetic; fits int32
  const V result_lo = vreinterpretq_s32_u32(vorrq_u32(
      vshlq_u32(sum_lo, Set(-right)), vreinterpretq_u32_s32(vshlq_s32(sum_hi, Set(32 - right)))));
  const V result_hi = vshlq_s32(sum_hi, Set(-right));
  const mve_pred16_t fits = vcmpeqq_s32(result_hi, vshrq_n_s32(result_lo, 31));
  const V saturated = vpselq_s32(Set(-2147483647 - 1), Set(2147483647), vcmpltq_n_s32(sum_hi, 0));
  return vpselq_s32(result_lo, saturated, fits);
}

namespace {

// SingleRoundingRescale for right in [1, 31] (the embedding row scales of converted models),
// where the nudge 2^(right-1) - [product < 0] lies in the low word. Every loop constant but m
// enters as a scalar operand (the _n / _r forms): MVE has 8 vector registers, and constants
// held in them would be spilled to the stack and reloaded in the loop.
inline V SingleRoundingRescaleNarrow(V x, V m, int32_t row_m, int32_t right) {
  const V hi = vmulhq_s32(x, m);
  const uint32x4_t lo = vreinterpretq_u32_s32(vmulq_n_s32(x, row_m));
  const uint32x4_t sum_lo =
      vaddq_u32(lo, vreinterpretq_u32_s32(vaddq_n_s32(vshrq_n_s32(hi, 31), 1 << (right - 1))));
  const V sum_hi = vaddq_m_n_s32(hi, hi, 1, vcmphiq_u32(lo, sum_lo));  // the low word's carry
  const V result_lo = vreinterpretq_s32_u32(vorrq_u32(
      vshlq_r_u32(sum_lo, -right), vreinterpretq_u32_s32(vshlq_r_s32(sum_hi, 32 - right))));
  const mve_pred16_t fits = vcmpeqq_s32(vshlq_r_s32(sum_hi, -right), vshrq_n_s32(result_lo, 31));
  // INT32_MAX + [sum < 0], wrapping: INT32_MIN for a negative product.
  const V saturated = vaddq_n_s32(
      vreinterpretq_s32_u32(vshrq_n_u32(vreinterpretq_u32_s32(sum_hi), 31)), 2147483647);
  return vpselq_s32(result_lo, saturated, fits);
}

// EmbeddingS32Output on the 4 outputs at the pointers, for right = 31 - (row shift + 6) in
// [1, 31].
template <bool kBias>
inline void EmbeddingOutputs4(const int32_t* dots, int32_t row_m, int32_t right,
                              const int32_t* multiplier, const int32_t* shift, const int32_t* bias,
                              int32_t* y) {
  constexpr int32_t kExtraBits = 6;  // as EmbeddingS32Output
  const V scaled = SingleRoundingRescaleNarrow(vldrwq_s32(dots), LoopVector(row_m), row_m, right);
  const V sh = vmaxq_s32(vsubq_n_s32(vldrwq_s32(shift), kExtraBits), LoopConstant<-31>());
  V v = MultiplyByQuantizedMultiplier(scaled, vldrwq_s32(multiplier), sh);
  if (kBias) v = vqaddq_s32(v, vldrwq_s32(bias));
  vstrwq_s32(y, v);
}

// The whole vectors of a block (the last 1-3 outputs are the caller's).
template <bool kBias>
void EmbeddingOutputs(int32_t n, const int32_t* dots, int32_t row_m, int32_t right,
                      const int32_t* multiplier, const int32_t* shift, const int32_t* bias,
                      int32_t* y) {
  const int32_t* const end = dots + (n & ~3);
  for (; dots < end; dots += 4, multiplier += 4, shift += 4, bias += kBias ? 4 : 0, y += 4) {
    EmbeddingOutputs4<kBias>(dots, row_m, right, multiplier, shift, bias, y);
  }
}

}  // namespace

// EmbeddingS32Output (kernels/product_outputs.h) for outputs 0..n-1.
void RequantizeEmbeddingBlockHelium(int32_t n, const int32_t* dots, int32_t id,
                                    const int32_t* row_multiplier, const int32_t* row_shift,
                                    const int32_t* multiplier, const int32_t* shift,
                                    const int32_t* bias, int32_t* y) {
  constexpr int32_t kExtraBits = 6;  // as EmbeddingS32Output
  const int32_t right = 31 - (row_shift[id] + kExtraBits);
  if (right >= 1 && right <= 31) {
    const auto outputs = bias != nullptr ? EmbeddingOutputs<true> : EmbeddingOutputs<false>;
    outputs(n, dots, row_multiplier[id], right, multiplier, shift, bias, y);
    for (int32_t i = n & ~3; i < n; ++i) {  // the last 1-3 by the portable definition
      y[i] = EmbeddingS32Output(dots[i], id, row_multiplier, row_shift, multiplier, shift, bias, i);
    }
    return;
  }
  // Other shifts: the general rescale (a nudge reaching the high word), or the scalar formula.
  const int64_t row_m = row_multiplier[id];
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    V scaled;
    if (right >= 1 && right <= 62) {
      scaled = SingleRoundingRescale(vldrwq_z_s32(dots + i, p), row_multiplier[id], right);
    } else {  // shifts no legal model file has (Model::Load bounds them): the scalar formula
      int32_t lanes[4] = {0, 0, 0, 0};
      for (int32_t l = 0; l < 4 && i + l < n; ++l) {
        const int64_t product = dots[i + l] * row_m;
        const int64_t r = right > 62 ? 0 : product;  // right <= 0: no shift (RoundingDivideByPOT64)
        lanes[l] = r > 2147483647
                       ? 2147483647
                       : (r < -2147483647 - 1 ? -2147483647 - 1 : static_cast<int32_t>(r));
      }
      scaled = vldrwq_s32(lanes);
    }
    const V sh = vmaxq_s32(vsubq_s32(vldrwq_z_s32(shift + i, p), Set(kExtraBits)), Set(-31));
    V v = MultiplyByQuantizedMultiplier(scaled, vldrwq_z_s32(multiplier + i, p), sh);
    if (bias != nullptr) v = vqaddq_s32(v, vldrwq_z_s32(bias + i, p));
    vstrwq_p_s32(y + i, v, p);
  }
}

// The saturation to int16 is VQMOVNB into each lane's low half, which VSTRH.32 stores; the
// rounding shift takes its exponent as a scalar (RoundingDivideByPOT's vector form would
// hold -shift in a vector register). Full vectors unpredicated.
void NarrowS32S16Helium(int32_t n, const int32_t* x, int32_t shift, int16_t* y) {
  const auto narrow = [shift](V v) {
    const V fixup = vshrq_n_s32(vandq_s32(v, LoopVector(-shift)), 31);  // -1: v < 0, shift > 0
    const V rounded = vrshlq_n_s32(vqaddq_s32(v, fixup), -shift);
    return vreinterpretq_s32_s16(vqmovnbq_s32(vreinterpretq_s16_s32(rounded), rounded));
  };
  const int32_t full = n & ~3;
  for (int32_t i = 0; i < full; i += 4) vstrhq_s32(y + i, narrow(vldrwq_s32(x + i)));
  if (full < n) ref_narrow_s32_s16(n - full, x + full, shift, y + full);
}

void RequantizeS16S8Helium(int32_t n, const int16_t* x, int32_t shift, int8_t* y) {
  const V minus_shift = Set(-shift);
  for (int32_t i = 0; i < n; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(n - i));
    const V v = RoundingDivideByPOT(vldrhq_z_s32(x + i, p), minus_shift);
    vstrbq_p_s32(y + i, Clamp(v, -128, 127), p);
  }
}

// VMLALDAVA.S16: 8 int16 products summed into a 64-bit scalar, exact as the reference's int64.
void ScoreWindowS16Helium(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo,
                          int32_t hi, int32_t to_q20, int32_t* scores) {
  const int32_t full = dim & ~7;
  const mve_pred16_t p = vctp16q(static_cast<uint32_t>(dim - full));
  for (int32_t s = lo; s <= hi; ++s) {
    const int16_t* h = memory + s * dim;
    int64_t acc = 0;
    for (int32_t j = 0; j < full; j += 8)
      acc = vmlaldavaq_s16(acc, vldrhq_s16(query + j), vldrhq_s16(h + j));
    if (full < dim)
      acc = vmlaldavaq_s16(acc, vldrhq_z_s16(query + full, p), vldrhq_z_s16(h + full, p));
    scores[s] = ScaleScoreQ20(acc, to_q20);
  }
}

// ref_context_s16_s8 sums in int64; MVE has no int64 lanes, but when sum |weights| <= 65535
// (softmax weights in Q0.15 sum to about 2^15) every partial sum of weights[s] * memory (each
// |memory| <= 32768) stays below 2^31, so int32 lanes (VMLA by a scalar weight) give the
// same sums exactly. Larger weights take the reference.
void ContextS16S8Helium(int32_t count, const int16_t* weights, const int16_t* memory, int32_t dim,
                        int8_t* context) {
  int32_t weight_sum = 0;
  for (int32_t s = 0; s < count && weight_sum <= 65535; ++s) {
    weight_sum += weights[s] < 0 ? -static_cast<int32_t>(weights[s]) : weights[s];
  }
  if (weight_sum > 65535) {
    ref_context_s16_s8(count, weights, memory, dim, context);
    return;
  }
  for (int32_t j = 0; j < dim; j += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(dim - j));
    V acc = vdupq_n_s32(0);
    for (int32_t s = 0; s < count; ++s) {
      acc = vmlaq_n_s32(acc, vldrhq_z_s32(memory + s * dim + j, p), weights[s]);
    }
    vstrbq_p_s32(context + j, SaturateS8LowByte(RoundingRightShift(acc, 23)), p);
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__ARM_FEATURE_MVE)
