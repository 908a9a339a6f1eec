// Vectorised int8-full cell arithmetic of the SIMD backend (KernelTable::lstm_cell_s16,
// gru_cell_s16, tanh_s16 and the narrowing steps): the fixed-point logistic / tanh of
// edgenmt/internal/fixed_point.h evaluated on several values at once: AVX-512 holds each int32
// intermediate sign-extended in a 64-bit lane (8 at a time) so that 32x32 -> 64-bit products
// and roundings are exactly the scalar ones; NEON has those primitives as instructions on 4
// int32 lanes (fixed_point_neon.h). Bit-exact with the
// reference for every input (tests/kernels_simd_test.cc tries all 65,536 int16 values).
// Same file rules as simd_dot.h: the fixed-point constants are restated in the .cc, because
// including fixed_point.h's inline functions into an AVX-512 file could hand the linker an
// AVX-512 copy of them for code that runs anywhere.
#ifndef EDGENMT_KERNELS_SIMD_SIMD_CELL_H_
#define EDGENMT_KERNELS_SIMD_SIMD_CELL_H_

#include <stdint.h>

namespace edgenmt {
namespace simd {

#if defined(__x86_64__)
// Contracts of ref_lstm_cell_s16 and ref_tanh_s16 (kernels/kernels_s8.h); int bits outside
// what the vector path handles (cell_int_bits / input_int_bits > 15) go to the reference.
void LstmCellS16Avx512(int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell,
                       int8_t* h, int16_t* h16);
void TanhS16Avx512(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y);
// Contract of ref_gru_cell_s16: its Q31 logistic / tanh on 8 units at a time.
void GruCellS16Avx512(int32_t hidden, const int16_t* gi, const int16_t* gh, int16_t* state,
                      int8_t* h_s8);
// Contracts of ref_narrow_s32_s16 and ref_requantize_s16_s8 (narrow_avx512.cc).
void NarrowS32S16Avx512(int32_t n, const int32_t* x, int32_t shift, int16_t* y);
void RequantizeS16S8Avx512(int32_t n, const int16_t* x, int32_t shift, int8_t* y);
// The same on AVX2, 8 at a time (narrow_avx2.cc).
void NarrowS32S16Avx2(int32_t n, const int32_t* x, int32_t shift, int16_t* y);
void RequantizeS16S8Avx2(int32_t n, const int16_t* x, int32_t shift, int8_t* y);
#endif
#if defined(__ARM_NEON)
void LstmCellS16Neon(int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell,
                     int8_t* h, int16_t* h16);
void TanhS16Neon(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y);
// Contract of ref_gru_cell_s16: its Q31 logistic / tanh on 4 units at a time (gru_cell_neon.cc).
void GruCellS16Neon(int32_t hidden, const int16_t* gi, const int16_t* gh, int16_t* state,
                    int8_t* h_s8);
// Contracts of ref_narrow_s32_s16 and ref_requantize_s16_s8 (narrow_neon.cc).
void NarrowS32S16Neon(int32_t n, const int32_t* x, int32_t shift, int16_t* y);
void RequantizeS16S8Neon(int32_t n, const int16_t* x, int32_t shift, int8_t* y);
#endif

}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_SIMD_CELL_H_
