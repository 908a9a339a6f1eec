// The integer scheme's tensors (docs/INT8.md "int8-full"): int8 matrices and embeddings bound
// from a verified Model together with the per-row requantization constants the converter stored
// beside them (flash, not the arena; Model::Load recomputed each), Q11.20 biases, and the
// power-of-two rescale helper. Internal.
#ifndef EDGENMT_NUMERICS_INTEGER_TENSORS_H_
#define EDGENMT_NUMERICS_INTEGER_TENSORS_H_

#include <stdint.h>

#include "edgenmt/internal/int8_requantization.h"
#include "edgenmt/model.h"
#include "error_detail.h"

namespace edgenmt {

constexpr uint32_t kOneBits = fxp::kOneFloatBits;  // 1.0f
constexpr int32_t kAccIntBits = 11;                // Q11.20
constexpr int32_t kHiddenShiftOffset = -7;         // inputs that are s8 @ 2^-7
constexpr int32_t kGateIntBits = 3;                // Q3.12

// An int8 [rows, cols] weight with per-row (multiplier, shift) for a given input scale, so that
// MBQM(acc, multiplier, shift) is acc * input_scale * weight_scale[row] in Q11.20. All pointers
// are into the model buffer.
struct IntMatrix {
  int32_t rows = 0;
  int32_t cols = 0;
  const int8_t* w = nullptr;
  const int32_t* multiplier = nullptr;  // [rows]
  const int32_t* shift = nullptr;       // [rows]
};

// An int8 embedding table with per-row scales, rescaled on lookup to one shared scale (the
// largest scale of a row that is not all zero) by per-row multipliers.
struct IntEmbedding {
  int32_t rows = 0;
  int32_t cols = 0;
  const int8_t* table = nullptr;
  const int32_t* multiplier = nullptr;
  const int32_t* shift = nullptr;
  uint32_t scale_bits = 0;  // float32 bit pattern of the shared scale
};

// Binds `name` as an int8 per-row [rows, cols] matrix whose input has scale input_scale_bits
// (a float32 bit pattern), with its stored constants for that input scale.
Status BindIntMatrix(const Model& model, const char* name, int32_t rows, int32_t cols,
                     uint32_t input_scale_bits, IntMatrix* out, ErrorDetail* detail);
// Binds an int32 Q11.20 bias vector.
Status BindBiasQ20(const Model& model, const char* name, int32_t size, const int32_t** out,
                   ErrorDetail* detail);
// Binds an int32 Q11.20 [rows, cols] matrix (an int8-full Transformer's position table).
Status BindMatrixQ20(const Model& model, const char* name, int32_t rows, int32_t cols,
                     const int32_t** out, ErrorDetail* detail);
// Binds an int8 per-row embedding table and its stored rescale constants to the shared scale.
Status BindIntEmbedding(const Model& model, const char* name, int32_t rows, int32_t cols,
                        IntEmbedding* out, ErrorDetail* detail);

// Smallest k >= 0 with round(max|v| / 2^k) <= limit: a power-of-two scale chosen per call
// (limit 127 for int8, 32767 for int16).
int32_t PowerOfTwoShift(int32_t n, const int32_t* v, int32_t limit);

}  // namespace edgenmt

#endif  // EDGENMT_NUMERICS_INTEGER_TENSORS_H_
