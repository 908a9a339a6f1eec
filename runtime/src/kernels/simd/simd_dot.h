// The instruction-set-specific cores of the SIMD backend: batches of dot products of one
// activation row with `count` weight rows. Everything else of a product kernel (rows,
// quantizing the activations, requantizing the sums) is portable code in simd_product_drivers.h,
// shared by every instruction set and with the reference through kernels/product_outputs.h.
//
// Each Dot* function lives in its own file compiled with its instruction set's flags
// (runtime/CMakeLists.txt) and includes no project header with inline code, so no function
// compiled for AVX-512 can be picked by the linker for code that runs on a CPU without it.
// Callers run them only at a level simd_level.h reports for this CPU.
//
// Contract: acc[j] = sum_{k < depth} x[k] * w[j * w_stride + k] for j < count; depth >= 1,
// count >= 1, w_stride >= depth; no alignment beyond the element type's. Integer sums are
// exact for depth <= fxp::kMaxS8DotLength (Model::Load's bound); float sums differ from the
// reference only by the order of the additions (tolerance: tests/kernels_simd_test.cc).
#ifndef EDGENMT_KERNELS_SIMD_SIMD_DOT_H_
#define EDGENMT_KERNELS_SIMD_SIMD_DOT_H_

#include <stdint.h>

namespace edgenmt {
namespace simd {

using DotS8Fn = void (*)(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride,
                         int32_t count, int32_t* acc);
using DotF32Fn = void (*)(int32_t depth, const float* x, const float* w, int32_t w_stride,
                          int32_t count, float* acc);
// The same for 1 <= rows <= kDotRows activation rows (x_stride apart) at once, sums for row r at
// acc + r * acc_stride: lets a level read each weight once for several rows.
constexpr int32_t kDotRows = 4;
using DotS8RowsFn = void (*)(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                             const int8_t* w, int32_t w_stride, int32_t count, int32_t* acc,
                             int32_t acc_stride);
// Many activation rows against a panel of up to kPanelColumns weight rows, with no per-output
// reduction: 1 <= rows <= kPanelRows, 1 <= count <= kPanelColumns, x_sums[r] = the sum of row
// r's int8 values (exact int32), sums as DotS8RowsFn's. A level has one only where it beats
// kDotS8Rows on many rows (the batched products of Translator::TranslateBatch).
constexpr int32_t kPanelRows = 16;
constexpr int32_t kPanelColumns = 16;
using DotS8PanelFn = void (*)(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                              const int32_t* x_sums, const int8_t* w, int32_t w_stride,
                              int32_t count, int32_t* acc, int32_t acc_stride);

// The hybrid scheme's activation side: exactly ref_quantize_row_f32_s8 (same scale, same
// int8 values, bit for bit). Rows whose largest magnitude is 0, below 1e-30 (where ARMv7
// NEON's flush-to-zero would differ from IEEE) or infinite take the reference itself.
using QuantizeRowFn = float (*)(int32_t n, const float* x, int8_t* q);
constexpr float kQuantizeRowVectorMin = 1e-30f;

// The hybrid product kernels' outputs over a block of n dot products of one activation row:
// exactly StoreHybridOutput (kernels/product_outputs.h) for outputs 0..n-1 (the same float
// operations in the same order, so bit for bit).
using HybridOutputBlockFn = void (*)(int32_t n, const int32_t* dots, float x_scale,
                                     const float* w_scales, const float* bias, bool accumulate,
                                     float* y);

// The int8-full product kernels' per-output requantization over a block of n dot products,
// exactly StoreStridedS32Output / EmbeddingS32Output (kernels/product_outputs.h) for outputs
// 0..n-1 (pointers already offset to the block's first output).
using RequantizeColumnBlockFn = void (*)(int32_t n, const int32_t* dots, const int32_t* multiplier,
                                         const int32_t* shift, int32_t shift_offset,
                                         const int32_t* bias, bool accumulate, int32_t* y);
using RequantizeEmbeddingBlockFn = void (*)(int32_t n, const int32_t* dots, int32_t id,
                                            const int32_t* row_multiplier, const int32_t* row_shift,
                                            const int32_t* multiplier, const int32_t* shift,
                                            const int32_t* bias, int32_t* y);

#if defined(__x86_64__)
void RequantizeColumnBlockAvx512(int32_t n, const int32_t* dots, const int32_t* multiplier,
                                 const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                                 bool accumulate, int32_t* y);
void RequantizeColumnBlockAvx2(int32_t n, const int32_t* dots, const int32_t* multiplier,
                               const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                               bool accumulate, int32_t* y);
void RequantizeEmbeddingBlockAvx2(int32_t n, const int32_t* dots, int32_t id,
                                  const int32_t* row_multiplier, const int32_t* row_shift,
                                  const int32_t* multiplier, const int32_t* shift,
                                  const int32_t* bias, int32_t* y);
void RequantizeEmbeddingBlockAvx512(int32_t n, const int32_t* dots, int32_t id,
                                    const int32_t* row_multiplier, const int32_t* row_shift,
                                    const int32_t* multiplier, const int32_t* shift,
                                    const int32_t* bias, int32_t* y);
void DotS8Avx2(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride, int32_t count,
               int32_t* acc);
void DotS8RowsAvx512Vnni(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                         const int8_t* w, int32_t w_stride, int32_t count, int32_t* acc,
                         int32_t acc_stride);
void DotS8Avx512Vnni(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride,
                     int32_t count, int32_t* acc);
void HybridOutputBlockAvx512(int32_t n, const int32_t* dots, float x_scale, const float* w_scales,
                             const float* bias, bool accumulate, float* y);
// The panel (DotS8PanelFn): 16 weight rows transposed in registers 32 bytes of depth at a
// time, so each vpdpbusd takes one row's 4 activation bytes broadcast against 16 outputs.
void DotS8PanelAvx512Vnni(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                          const int32_t* x_sums, const int8_t* w, int32_t w_stride, int32_t count,
                          int32_t* acc, int32_t acc_stride);
void DotF32Avx2Fma(int32_t depth, const float* x, const float* w, int32_t w_stride, int32_t count,
                   float* acc);
float QuantizeRowAvx2(int32_t n, const float* x, int8_t* q);
void HybridOutputBlockAvx2(int32_t n, const int32_t* dots, float x_scale, const float* w_scales,
                           const float* bias, bool accumulate, float* y);
#endif
#if defined(__ARM_NEON)
void DotS8Neon(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride, int32_t count,
               int32_t* acc);
void DotF32Neon(int32_t depth, const float* x, const float* w, int32_t w_stride, int32_t count,
                float* acc);
void DotS8RowsNeon(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride, const int8_t* w,
                   int32_t w_stride, int32_t count, int32_t* acc, int32_t acc_stride);
float QuantizeRowNeon(int32_t n, const float* x, int8_t* q);
void RequantizeColumnBlockNeon(int32_t n, const int32_t* dots, const int32_t* multiplier,
                               const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                               bool accumulate, int32_t* y);
void RequantizeEmbeddingBlockNeon(int32_t n, const int32_t* dots, int32_t id,
                                  const int32_t* row_multiplier, const int32_t* row_shift,
                                  const int32_t* multiplier, const int32_t* shift,
                                  const int32_t* bias, int32_t* y);
#endif
#if defined(__aarch64__)  // ARMv8 NEON float is IEEE (ARMv7's flushes subnormals)
void HybridOutputBlockNeon(int32_t n, const int32_t* dots, float x_scale, const float* w_scales,
                           const float* bias, bool accumulate, float* y);
#endif
#if defined(__aarch64__)
void DotS8NeonDotprod(int32_t depth, const int8_t* x, const int8_t* w, int32_t w_stride,
                      int32_t count, int32_t* acc);
void DotS8RowsNeonDotprod(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                          const int8_t* w, int32_t w_stride, int32_t count, int32_t* acc,
                          int32_t acc_stride);
#endif

}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_SIMD_DOT_H_
