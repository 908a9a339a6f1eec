// The int8-full decoder's weights and the products over them (docs/INT8.md "int8-full"): int8
// matrices and embeddings bound from a verified Model with per-row requantization multipliers
// derived in integers from the file's float32 scales, and the Q11.20 products, tanh narrowing
// and power-of-two rescales the encoder, attention and decoder step share. Internal.
#ifndef EDGENMT_DECODER_INTEGER_OPS_H_
#define EDGENMT_DECODER_INTEGER_OPS_H_

#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"

namespace edgenmt {

constexpr uint32_t kOneBits = 0x3F800000u;        // 1.0f
constexpr int32_t kAccIntBits = 11;               // Q11.20
constexpr int32_t kHiddenShiftOffset = -7;        // inputs that are s8 @ 2^-7
constexpr int32_t kGateIntBits = 3;               // Q3.12

// An int8 [rows, cols] weight with per-row (multiplier, shift) for a given input scale, so that
// MBQM(acc, multiplier, shift) is acc * input_scale * weight_scale[row] in Q11.20.
struct IntMatrix {
  int32_t rows = 0;
  int32_t cols = 0;
  const int8_t* w = nullptr;
  int32_t* multiplier = nullptr;  // [rows], arena
  int32_t* shift = nullptr;       // [rows], arena
};

// An int8 embedding table with per-row scales, rescaled on lookup to one shared scale (the
// largest scale of a row that is not all zero) by per-row multipliers.
struct IntEmbedding {
  int32_t rows = 0;
  int32_t cols = 0;
  const int8_t* table = nullptr;
  int32_t* multiplier = nullptr;
  int32_t* shift = nullptr;
  uint32_t scale_bits = 0;  // float32 bit pattern of the shared scale
};

// Binds `name` as an int8 per-row [rows, cols] matrix whose input has scale input_scale_bits
// (a float32 bit pattern), with multipliers into Q11.20. Multipliers live in the arena.
Status BindIntMatrix(const Model& model, const char* name, int32_t rows, int32_t cols,
                     uint32_t input_scale_bits, Arena* arena, IntMatrix* out,
                     ErrorDetail* detail);
// Binds an int32 Q11.20 bias vector.
Status BindBiasQ20(const Model& model, const char* name, int32_t size, const int32_t** out,
                   ErrorDetail* detail);
// Binds an int8 per-row embedding table and its rescale multipliers to the shared scale.
Status BindIntEmbedding(const Model& model, const char* name, int32_t rows, int32_t cols,
                        Arena* arena, IntEmbedding* out, ErrorDetail* detail);

// y[r][0, out) = MBQM(x[r] . W[m][col0, col0 + in)) (+ bias) in Q11.20 (accumulate: added to
// y with saturation).
void Linear(const IntMatrix& m, int32_t rows, const int8_t* x, int32_t x_stride, int32_t col0,
            int32_t in, int32_t out, int32_t shift_offset, const int32_t* bias, int32_t* y,
            bool accumulate);
// The product of embedding rows ids[0, rows) with W's first e.cols columns, each row at its
// own scale, into Q11.20 (+ bias).
void EmbeddingLinear(const IntMatrix& m, const IntEmbedding& e, int32_t rows, const int32_t* ids,
                     int32_t out, const int32_t* bias, int32_t* y);
// Q11.20 -> Q3.12 -> tanh Q0.15 -> s8 @ 2^-7 (and the Q0.15 value when q15 is non-null).
void TanhToS8(int32_t n, const int32_t* q20, int16_t* scratch16, int8_t* out8, int16_t* q15);
// Smallest k >= 0 with round(max|v| / 2^k) <= 127: a power-of-two int8 scale chosen per call.
int32_t PowerOfTwoShiftForS8(int32_t n, const int32_t* v);

}  // namespace edgenmt

#endif  // EDGENMT_DECODER_INTEGER_OPS_H_
