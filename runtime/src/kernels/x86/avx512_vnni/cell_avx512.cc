// AVX-512F int8-full LSTM and GRU cells and tanh (simd_cell.h). The LSTM cell and tanh look the
// int16 activations up in activation_table_s16.h's tables (16 units per gather) for cell formats
// with at least 3 int bits; the GRU cell computes its Q0.31 activations: each function below
// mirrors the scalar function of edgenmt/internal/fixed_point.h with the same name, on 8 int32
// values in int64 lanes (fixed_point_avx512.h).
#if defined(__x86_64__)
#include "kernels/x86/avx512_vnni/avx512_intrinsics.h"
#include "kernels/kernels_s8.h"
#include "kernels/simd/activation_table_s16.h"
#include "kernels/x86/avx512_vnni/fixed_point_avx512.h"
#include "kernels/x86/avx512_vnni/fixed_point_exp_avx512.h"
#include "kernels/simd/simd_cell.h"

namespace edgenmt {
namespace simd {
namespace {

inline V OneOverOnePlusXQ31(V x) {
  const V half_denominator = _mm512_srai_epi64(_mm512_add_epi64(x, Set(kQ31One + 1)), 1);
  V r = _mm512_add_epi64(Set(1515870810),
                         SaturatingRoundingDoublingHighMul(half_denominator, Set(-1010580540)));
  for (int i = 0; i < 3; ++i) {
    const V d_times_r = SaturatingRoundingDoublingHighMul(half_denominator, r);
    const V one_minus = _mm512_sub_epi64(Set(1 << 29), d_times_r);
    const V correction = SaturatingRoundingDoublingHighMul(r, one_minus);
    r = SaturatingAdd(r, SaturatingLeftShift(correction, 2));
  }
  return SaturatingLeftShift(r, 1);
}

inline V AbsSaturated(V a) { return Clamp(_mm512_abs_epi64(a), 0, kInt32Max); }

inline V LogisticQ31(V a, int int_bits) {
  const V e =
      ExpOnNegativeValuesQ31(_mm512_sub_epi64(_mm512_setzero_si512(), AbsSaturated(a)), int_bits);
  const V positive = OneOverOnePlusXQ31(e);
  const __mmask8 is_positive = _mm512_cmpgt_epi64_mask(a, _mm512_setzero_si512());
  const __mmask8 is_zero = _mm512_cmpeq_epi64_mask(a, _mm512_setzero_si512());
  const V y =
      _mm512_mask_blend_epi64(is_positive, _mm512_sub_epi64(Set(kQ31One), positive), positive);
  return _mm512_mask_blend_epi64(is_zero, y, Set(kQ31Half));
}

inline V TanhQ31(V a, int int_bits) {
  const V e = ExpOnNegativeValuesQ31(_mm512_sub_epi64(_mm512_setzero_si512(), AbsSaturated(a)),
                                     int_bits + 1);
  const V r = OneOverOnePlusXQ31(e);
  const V positive = SaturatingLeftShift(_mm512_sub_epi64(r, Set(kQ31Half)), 1);
  const __mmask8 is_positive = _mm512_cmpgt_epi64_mask(a, _mm512_setzero_si512());
  const __mmask8 is_zero = _mm512_cmpeq_epi64_mask(a, _mm512_setzero_si512());
  const V y = _mm512_mask_blend_epi64(is_positive,
                                      _mm512_sub_epi64(_mm512_setzero_si512(), positive), positive);
  return _mm512_mask_blend_epi64(is_zero, y, _mm512_setzero_si512());
}

inline V LoadS16(const int16_t* p) {
  return _mm512_cvtepi16_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
inline void StoreS16(int16_t* p, V v) {  // v within int16
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi64_epi16(v));
}
inline void StoreS8(int8_t* p, V v) {  // v within int8
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm512_cvtepi64_epi8(v));
}

// Eight units of ref_gru_cell_s16 (gate blocks `hidden` apart), line by line.
inline void GruCell8(const int16_t* gi, const int16_t* gh, int32_t hidden, int16_t* state,
                     int8_t* h_s8) {
  const V r = LogisticQ31(_mm512_slli_epi64(_mm512_add_epi64(LoadS16(gi), LoadS16(gh)), 15), 4);
  const V z = LogisticQ31(
      _mm512_slli_epi64(_mm512_add_epi64(LoadS16(gi + hidden), LoadS16(gh + hidden)), 15), 4);
  const V r_ghn =
      SaturatingRoundingDoublingHighMul(r, _mm512_slli_epi64(LoadS16(gh + 2 * hidden), 15));
  const V n = TanhQ31(_mm512_add_epi64(_mm512_slli_epi64(LoadS16(gi + 2 * hidden), 15), r_ghn), 4);
  const V n_q30 = RoundingDivideByPOT(n, 1);
  const V h_minus_n = _mm512_sub_epi64(_mm512_slli_epi64(LoadS16(state), 15), n_q30);
  const V h_new_q30 = _mm512_add_epi64(n_q30, SaturatingRoundingDoublingHighMul(z, h_minus_n));
  const V h16 = Clamp(RoundingDivideByPOT(h_new_q30, 15), -32768, 32767);
  StoreS16(state, h16);
  StoreS8(h_s8, Clamp(RoundingDivideByPOT(h16, 8), -128, 127));
}

// ---- the table path (activation_table_s16.h): 16 units in int32 lanes -------------------
// Every product below fits int32 (|Q0.15 * int16| <= 2^30), so 32-bit lanes round exactly as
// the scalar reference does.
using W = __m512i;

inline W SetW(int32_t v) { return _mm512_set1_epi32(v); }
inline W ClampW(W x, int32_t lo, int32_t hi) {
  return _mm512_min_epi32(_mm512_max_epi32(x, SetW(lo)), SetW(hi));
}
// fxp::RoundingDivideByPOT (ties away from zero) for exponent >= 1.
inline W RoundingDivideByPOTW(W x, int exponent) {
  const W negative_one = _mm512_srai_epi32(x, 31);
  const W biased = _mm512_add_epi32(_mm512_add_epi32(x, SetW(1 << (exponent - 1))), negative_one);
  return _mm512_sra_epi32(biased, _mm_cvtsi32_si128(exponent));
}
// 16 int16 values (lanes past `mask` read as 0), sign-extended.
inline W LoadS16W(const int16_t* p, __mmask32 mask) {
  return _mm512_cvtepi16_epi32(_mm512_castsi512_si256(_mm512_maskz_loadu_epi16(mask, p)));
}
inline void StoreS16W(int16_t* p, __mmask32 mask, W v) {  // v within int16
  _mm512_mask_storeu_epi16(p, mask, _mm512_castsi256_si512(_mm512_cvtepi32_epi16(v)));
}
inline void StoreS8W(int8_t* p, __mmask64 mask, W v) {  // v within int8
  _mm512_mask_storeu_epi8(p, mask, _mm512_castsi128_si512(_mm512_cvtepi32_epi8(v)));
}
// table[x] for x within int16: a gather of 4-byte words at 2-byte steps, low half kept.
inline W Lookup(const int16_t* table, W x) {
  const W words =
      _mm512_i32gather_epi32(_mm512_add_epi32(x, SetW(kActivationTableOffset)), table, 2);
  return _mm512_srai_epi32(_mm512_slli_epi32(words, 16), 16);
}
// The tanh table's input for a Q(int_bits) value, int_bits in [3, 15].
inline W ToTableInput(W x, int int_bits) {
  return ClampW(_mm512_sll_epi32(x, _mm_cvtsi32_si128(int_bits - 3)), -32768, 32767);
}

inline void LstmCell16Table(const ActivationTablesS16& t, const int16_t* gates, int32_t hidden,
                            int cell_int_bits, int16_t* cell, int8_t* h, int16_t* h16,
                            int32_t count) {
  const __mmask32 mask = count >= 16 ? 0xFFFFu : (1u << count) - 1;
  const W i = Lookup(t.logistic, LoadS16W(gates, mask));
  const W f = Lookup(t.logistic, LoadS16W(gates + hidden, mask));
  const W g = Lookup(t.tanh, LoadS16W(gates + 2 * hidden, mask));
  const W o = Lookup(t.logistic, LoadS16W(gates + 3 * hidden, mask));
  const W f_c = RoundingDivideByPOTW(_mm512_mullo_epi32(f, LoadS16W(cell, mask)), 15);
  const W i_g = RoundingDivideByPOTW(_mm512_mullo_epi32(i, g), 15 + cell_int_bits);
  const W c_new = ClampW(_mm512_add_epi32(f_c, i_g), -32768, 32767);
  StoreS16W(cell, mask, c_new);
  const W o_tanh_c = _mm512_mullo_epi32(o, Lookup(t.tanh, ToTableInput(c_new, cell_int_bits)));
  StoreS8W(h, mask, ClampW(RoundingDivideByPOTW(o_tanh_c, 23), -128, 127));
  if (h16 != nullptr)
    StoreS16W(h16, mask, ClampW(RoundingDivideByPOTW(o_tanh_c, 15), -32768, 32767));
}

}  // namespace

void LstmCellS16Avx512(int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell,
                       int8_t* h, int16_t* h16) {
  if (cell_int_bits < kTableMinIntBits || cell_int_bits > kTableMaxIntBits) {
    // No shipped model keeps its cell in fewer than 3 int bits: the reference's scalar
    // interpolation (fixed_point.h) serves those formats.
    ref_lstm_cell_s16(hidden, gates, cell_int_bits, cell, h, h16);
    return;
  }
  const ActivationTablesS16& tables = GetActivationTablesS16();
  for (int32_t j = 0; j < hidden; j += 16) {
    LstmCell16Table(tables, gates + j, hidden, cell_int_bits, cell + j, h + j,
                    h16 != nullptr ? h16 + j : nullptr, hidden - j);
  }
}

void GruCellS16Avx512(int32_t hidden, const int16_t* gi, const int16_t* gh, int16_t* state,
                      int8_t* h_s8) {
  int32_t j = 0;
  for (; j + 8 <= hidden; j += 8) GruCell8(gi + j, gh + j, hidden, state + j, h_s8 + j);
  if (j < hidden) {  // the last units through padded copies of their gates and state
    const int32_t n = hidden - j;
    int16_t gi_block[3 * 8] = {}, gh_block[3 * 8] = {}, state_block[8] = {};
    int8_t h_block[8];
    for (int32_t t = 0; t < n; ++t) {
      for (int32_t gate = 0; gate < 3; ++gate) {
        gi_block[gate * 8 + t] = gi[gate * hidden + j + t];
        gh_block[gate * 8 + t] = gh[gate * hidden + j + t];
      }
      state_block[t] = state[j + t];
    }
    GruCell8(gi_block, gh_block, 8, state_block, h_block);
    for (int32_t t = 0; t < n; ++t) {
      state[j + t] = state_block[t];
      h_s8[j + t] = h_block[t];
    }
  }
}

void TanhS16Avx512(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y) {
  if (input_int_bits < kTableMinIntBits || input_int_bits > kTableMaxIntBits) {
    ref_tanh_s16(n, x, input_int_bits, y);  // as the cell above
    return;
  }
  const int16_t* table = GetActivationTablesS16().tanh;
  for (int32_t i = 0; i < n; i += 16) {
    const __mmask32 mask = n - i >= 16 ? 0xFFFFu : (1u << (n - i)) - 1;
    StoreS16W(y + i, mask, Lookup(table, ToTableInput(LoadS16W(x + i, mask), input_int_bits)));
  }
}

}  // namespace simd
}  // namespace edgenmt
#endif  // defined(__x86_64__)
