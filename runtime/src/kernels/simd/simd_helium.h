// The Helium (Armv8.1-M MVE: Cortex-M55, M85) level of the SIMD backend: its dot-product cores
// (the contracts of simd_dot.h) and its vector versions of the int8-full operations (each the
// contract of its ref_<name>, kernels/kernels_s8.h). Bit-exact with the reference for integer
// outputs: tests/kernels_simd_test.cc, on the host build nowhere, in the Cortex-M55 firmware's
// kernel test under qemu-system-arm.
#ifndef EDGENMT_KERNELS_SIMD_SIMD_HELIUM_H_
#define EDGENMT_KERNELS_SIMD_SIMD_HELIUM_H_

#include <stdint.h>

namespace edgenmt {
namespace simd {

#if defined(__ARM_FEATURE_MVE)
void DotS8Helium(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride, int32_t count,
                 int32_t* acc);
void DotS8RowsHelium(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                     const int8_t* w, int32_t w_stride, int32_t count, int32_t* acc,
                     int32_t acc_stride);
void DotF32Helium(int32_t depth, const float* x, const float* w, int32_t w_stride, int32_t count,
                  float* acc);
void RequantizeColumnBlockHelium(int32_t n, const int32_t* dots, const int32_t* multiplier,
                                 const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                                 bool accumulate, int32_t* y);
void RequantizeEmbeddingBlockHelium(int32_t n, const int32_t* dots, int32_t id,
                                    const int32_t* row_multiplier, const int32_t* row_shift,
                                    const int32_t* multiplier, const int32_t* shift,
                                    const int32_t* bias, int32_t* y);
void NarrowS32S16Helium(int32_t n, const int32_t* x, int32_t shift, int16_t* y);
void ContextS16S8Helium(int32_t count, const int16_t* weights, const int16_t* memory, int32_t dim,
                        int8_t* context);
void RequantizeS16S8Helium(int32_t n, const int16_t* x, int32_t shift, int8_t* y);
void ScoreWindowS16Helium(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo,
                          int32_t hi, int32_t to_q20, int32_t* scores);
void SoftmaxS32S16Helium(int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y);
void LogSoftmaxS32Helium(int32_t n, const int32_t* x, int32_t input_int_bits, int32_t* y);
void LstmCellS16Helium(int32_t hidden, const int16_t* gates, int32_t cell_int_bits, int16_t* cell,
                       int8_t* h, int16_t* h16);
void TanhS16Helium(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y);
#endif

}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_SIMD_HELIUM_H_
