// The int8-full gate activations of the x86 SIMD levels as tables: fxp::LogisticS16(x, 3) and
// fxp::TanhS16(x, 3) of every Q3.12 input, computed once by the reference functions themselves
// (so a lookup is bit-exact by construction), 128 KiB each, in static storage of the host
// library (never on a microcontroller: x86-64 only).
//
// The same tanh table serves the cell state of any format Q(m).(15 - m) with m >= 3: the
// reference's TanhS16(x, m) equals TanhS16(saturate16(x * 2^(m - 3)), 3) for every int16 x and
// m in [3, 15] (tests/kernels_simd_test.cc compares tanh_s16 on all 65,536 inputs at every m
// with the reference, at each x86 level). Formats with m < 3 cannot
// be rescaled exactly and keep the computed path.
#ifndef EDGENMT_KERNELS_SIMD_ACTIVATION_TABLE_S16_H_
#define EDGENMT_KERNELS_SIMD_ACTIVATION_TABLE_S16_H_

#include <stdint.h>

namespace edgenmt {
namespace simd {

#if defined(__x86_64__)
// Entry x + 32768 is the activation of x. One spare entry past the end lets a vector gather of
// 4-byte words (AVX-512 / AVX2 gathers have no 16-bit form) read entry 65,535 in bounds.
constexpr int32_t kActivationTableOffset = 32768;
constexpr int32_t kActivationTableEntries = 65536 + 2;
struct ActivationTablesS16 {
  int16_t logistic[kActivationTableEntries];
  int16_t tanh[kActivationTableEntries];
};

// The tables, filled at the first call (thread-safe static initialization, about 10 ms; the
// x86 SIMD kernel tables call it, so it happens when a session picks the backend, at Init).
const ActivationTablesS16& GetActivationTablesS16();

// Lowest and highest input int bits the tanh table serves (see above).
constexpr int32_t kTableMinIntBits = 3;
constexpr int32_t kTableMaxIntBits = 15;

// ref_lstm_cell_s16 and ref_tanh_s16 (kernels/kernels_s8.h) with scalar table lookups where the
// formats allow (the AVX2 level's cell; plain C++), the reference elsewhere.
void LstmCellS16Table(int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell,
                      int8_t* h, int16_t* h16);
void TanhS16Table(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y);
#endif

}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_ACTIVATION_TABLE_S16_H_
