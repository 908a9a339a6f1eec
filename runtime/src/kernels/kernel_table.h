// The kernel interface every layer computes through: a table of function pointers chosen once
// at Init by KernelBackend (tflite-micro / CMSIS-NN style: one contract, several builds).
//
// Contract shared by all backends (the reference in kernels/reference/ defines it):
// - All matrices are dense and row-major; float32 unless the name says otherwise.
// - Kernels never allocate, never fail and never read outside the sizes given; callers
//   validate shapes and ids before calling (at Prepare time, or ids before a step).
// - Elementwise kernels allow output == input (in place); other kernels require output not to
//   overlap any input unless stated.
// - Pointers need only natural (4-byte) alignment; arena buffers are 16-byte aligned and model
//   tensors 64-byte aligned, which backends may exploit with aligned loads where they check.
#ifndef EDGENMT_KERNELS_KERNEL_TABLE_H_
#define EDGENMT_KERNELS_KERNEL_TABLE_H_

#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/kernel_backend.h"
#include "edgenmt/status.h"

namespace edgenmt {

// Rows of the hybrid product's activation scratch (KernelTable::fully_connected_s8_hybrid).
constexpr int32_t kHybridScratchRows = 4;

struct KernelTable {
  KernelBackend backend;

  // ---- float32 ---------------------------------------------------------------------------
  // y[r][m] = (accumulate ? y[r][m] : 0) + sum_k x[r][k] * w[m][k] + (bias ? bias[m] : 0)
  // for r < rows, m < out_features, k < in_features. x: [rows, in_features], w: [out_features,
  // in_features] (PyTorch nn.Linear layout, y = x W^T + b), bias: [out_features] or null,
  // y: [rows, out_features]. rows, in_features, out_features >= 1.
  void (*fully_connected_f32)(int32_t rows, int32_t in_features, int32_t out_features,
                              const float* x, const float* w, const float* bias, float* y,
                              bool accumulate);
  // y[i] = 1 / (1 + exp(-x[i])), i < n.
  void (*sigmoid_f32)(int32_t n, const float* x, float* y);
  // y[i] = tanh(x[i]), i < n.
  void (*tanh_f32)(int32_t n, const float* x, float* y);
  // y = softmax(x) over n >= 1 values (max subtracted first; exp(-inf) = 0).
  void (*softmax_f32)(int32_t n, const float* x, float* y);
  // y = log_softmax(x) = x - max - log(sum exp(x - max)) over n >= 1 values.
  void (*log_softmax_f32)(int32_t n, const float* x, float* y);
  // out[i * out_stride + d] = table[ids[i] * dim + d] for i < count, d < dim. ids must be in
  // [0, table rows); out_stride >= dim (lets callers write into a wider concatenation).
  void (*embedding_lookup_f32)(int32_t count, const int32_t* ids, const float* table,
                               int32_t dim, float* out, int32_t out_stride);

  // ---- int8 (docs/INT8.md) ---------------------------------------------------------------
  // Quantized entries are appended here by the int8 work, with the same conventions (names
  // <op>_<types>, e.g. fully_connected_s8_f32 for int8 weights with float activations). A
  // backend that lacks an entry leaves it null, and layers needing it return kUnsupported at
  // Prepare, never at Eval.

  // Hybrid y = x W^T + b with int8 W (per-row scales), x quantized per row into x_scratch
  // ([kHybridScratchRows, in_features] int8: a backend may quantize several rows before reading
  // the weights once for all of them); see ref_fully_connected_s8_hybrid in kernels/kernels_s8.h.
  void (*fully_connected_s8_hybrid)(int32_t rows, int32_t in_features, int32_t out_features,
                                    const float* x, const int8_t* w, const float* w_scales,
                                    const float* bias, float* y, bool accumulate,
                                    int8_t* x_scratch);
  // Embedding rows of an int8 table with per-row scales, dequantized to float.
  void (*embedding_lookup_s8_f32)(int32_t count, const int32_t* ids, const int8_t* table,
                                  const float* row_scales, int32_t dim, float* out,
                                  int32_t out_stride);

  // ---- int8-full, integer only (docs/INT8.md "int8-full"; semantics in kernels/kernels_s8.h,
  // ref_<name>) -------------------------------------------------------------------------------
  void (*fully_connected_s8_s32)(int32_t rows, int32_t in_features, int32_t out_features,
                                 const int8_t* x, int32_t x_stride, const int8_t* w,
                                 int32_t w_stride, const int32_t* multiplier,
                                 const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                                 int32_t* y, bool accumulate);
  void (*embedding_fully_connected_s8_s32)(int32_t rows, const int32_t* ids, const int8_t* table,
                                           const int32_t* row_multiplier,
                                           const int32_t* row_shift, int32_t dim,
                                           int32_t out_features, const int8_t* w,
                                           int32_t w_stride, const int32_t* multiplier,
                                           const int32_t* shift, const int32_t* bias,
                                           int32_t* y);
  void (*narrow_s32_s16)(int32_t n, const int32_t* x, int32_t shift, int16_t* y);
  void (*tanh_s16)(int32_t n, const int16_t* x, int32_t input_int_bits, int16_t* y);
  void (*requantize_s16_s8)(int32_t n, const int16_t* x, int32_t shift, int8_t* y);
  void (*lstm_cell_s16)(int32_t hidden, const int16_t* gates, int32_t cell_int_bits,
                        int16_t* cell, int8_t* h, int16_t* h16);
  void (*gru_cell_s16)(int32_t hidden, const int16_t* gi, const int16_t* gh, int16_t* state,
                       int8_t* h_s8);
  void (*softmax_s32_s16)(int32_t n, const int32_t* x, int32_t input_int_bits, int16_t* y);
  void (*log_softmax_s32)(int32_t n, const int32_t* x, int32_t input_int_bits, int32_t* y);
  int32_t (*local_p_position_q16)(int32_t logit, int32_t logit_int_bits, int32_t source_length);
  void (*local_p_window)(int32_t p_q16, int32_t half_width, int32_t source_length, int32_t* lo,
                         int32_t* hi);
  void (*local_p_gaussian_s16)(int32_t lo, int32_t hi, int32_t p_q16, int32_t half_width,
                               int16_t* weights);
  void (*score_window_s16)(const int16_t* query, const int16_t* memory, int32_t dim, int32_t lo,
                           int32_t hi, int32_t to_q20, int32_t* scores);
  void (*context_s16_s8)(int32_t count, const int16_t* weights, const int16_t* memory,
                         int32_t dim, int8_t* context);

  // ---- weights packed at Init (optional: null in a backend that reads weights as stored) ---
  // Packs w [out_features, in_features] for packed_fully_connected_f32 into persistent arena
  // memory and sets *packed (valid as long as the arena); in a measuring or overflowed arena it
  // counts the same bytes and sets *packed = nullptr. Called at Init only; may use the heap
  // there (kernels/xnnpack/). kInternal when the backend cannot pack, kUnsupported when it
  // cannot pack into the arena.
  Status (*pack_fully_connected_f32)(int32_t in_features, int32_t out_features, const float* w,
                                     Arena* arena, const void** packed);
  // y = x W^T + (bias ? bias : 0) over every output of a packed W: x [rows, in_features],
  // y [rows, out_features], not overlapping. Same tolerance as fully_connected_f32.
  void (*packed_fully_connected_f32)(const void* packed, int32_t rows, const float* x,
                                     const float* bias, float* y);
  // Products of at least this many rows use the packed weights, fewer use fully_connected_f32
  // (auto: where each measured faster, tools/bench/kernel_bench.cc). Unused without packing.
  int32_t packed_min_rows;
};

// The portable reference table (static storage): what every other backend starts from.
const KernelTable& ReferenceKernelTable();

// Returns the table for `backend` in *out (static storage, valid forever). kUnsupported when
// the backend is not compiled into this build; kInvalidArgument for a null out or a value
// outside the enum.
Status GetKernelTable(KernelBackend backend, const KernelTable** out);

}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_KERNEL_TABLE_H_
