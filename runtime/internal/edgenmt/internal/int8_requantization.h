// int8-full requantization constants (docs/INT8.md "Requantization constants"): the per-row
// (multiplier, shift) pairs of every product with a stored int8 matrix, and of the embedding
// rows' rescale to their shared scale. The converter computes them with these functions and
// stores them in the model file (flash, not the arena); Model::Load recomputes every one and
// refuses a file whose constants differ. Integer operations only (no FPU needed).
#ifndef EDGENMT_INT8_REQUANTIZATION_H_
#define EDGENMT_INT8_REQUANTIZATION_H_

#include <stdint.h>
#include <string.h>

#include "edgenmt/internal/fixed_point.h"

namespace edgenmt {
namespace fxp {

constexpr uint32_t kOneFloatBits = 0x3F800000u;  // 1.0f

// A float32's bit pattern and back (the constants are derived from scales' bits).
inline uint32_t FloatToBits(float f) {
  uint32_t bits = 0;
  memcpy(&bits, &f, sizeof(bits));
  return bits;
}
inline float BitsToFloat(uint32_t bits) {
  float f = 0.0f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}
// Products land in Q11.20.
constexpr int kAccumulationFractionBits = 20;

// (multiplier, shift) of a * b * 2^pow2 / c (float32 bit patterns). A factor too large for a
// multiplier (>= 2^30: one accumulator unit is then worth >= 1024 in Q11.20, so any product
// beyond one unit saturates the accumulation anyway) is clamped to the largest one, so finite
// weights of any magnitude run and saturate instead of being refused; factors below 2^-31 are
// (0, 0).
constexpr void ClampedMultiplierFromFloatBits(uint32_t a, uint32_t b, uint32_t c, int pow2,
                                              int32_t* multiplier, int32_t* shift) {
  int sh = 0;
  if (!QuantizeMultiplierFromFloatBits(a, b, c, pow2, multiplier, &sh)) {
    *multiplier = kInt32Max;
    sh = 30;
  }
  *shift = sh;
}

// A matrix row's products with an input of scale input_scale (s8 activations @ 2^-7 use 1.0
// and fold the 2^-7 into the kernel's shift offset) into Q11.20: input_scale * row_scale * 2^20.
constexpr void MatrixRowRequantization(uint32_t input_scale_bits, uint32_t row_scale_bits,
                                       int32_t* multiplier, int32_t* shift) {
  ClampedMultiplierFromFloatBits(input_scale_bits, row_scale_bits, kOneFloatBits,
                                 kAccumulationFractionBits, multiplier, shift);
}

// An embedding row's rescale to the table's shared scale: row_scale / shared_scale.
constexpr void EmbeddingRowRescale(uint32_t row_scale_bits, uint32_t shared_scale_bits,
                                   int32_t* multiplier, int32_t* shift) {
  ClampedMultiplierFromFloatBits(row_scale_bits, kOneFloatBits, shared_scale_bits, 0, multiplier,
                                 shift);
}

// MatrixRowRequantization (rescale false: fixed = the input scale) or EmbeddingRowRescale
// (rescale true: fixed = the shared scale) of row after row, the fixed operand decoded once:
// Model::Load checks every row of every matrix at each boot. The same results (a test says so).
class RowRequantizer {
 public:
  constexpr RowRequantizer(uint32_t fixed_bits, bool rescale)
      : fixed_(DecodeFloat32Bits(fixed_bits)),
        one_(DecodeFloat32Bits(kOneFloatBits)),
        rescale_(rescale) {}
  constexpr void Row(uint32_t row_scale_bits, int32_t* multiplier, int32_t* shift) const {
    const FloatParts row = DecodeFloat32Bits(row_scale_bits);
    int sh = 0;
    const bool ok = rescale_ ? QuantizeMultiplierFromParts(row, one_, fixed_, 0, multiplier, &sh)
                             : QuantizeMultiplierFromParts(
                                   fixed_, row, one_, kAccumulationFractionBits, multiplier, &sh);
    if (!ok) {
      *multiplier = kInt32Max;
      sh = 30;
    }
    *shift = sh;
  }

 private:
  FloatParts fixed_, one_;
  bool rescale_;
};

// The shared scale of an int8 embedding table with per-row scales: the largest scale among
// rows holding a nonzero value (an all-zero row, e.g. nn.Embedding's padding row, carries no
// information and must not cost the other rows their precision); the largest of all when every
// row is zero. Positive float32 values order like their bit patterns: no FPU.
inline uint32_t SharedEmbeddingScaleBits(const float* scales, const int8_t* table, int32_t rows,
                                         int32_t cols) {
  uint32_t all_rows = 0, nonzero_rows = 0;
  for (int32_t r = 0; r < rows; ++r) {
    const uint32_t bits = FloatToBits(scales[r]);
    all_rows = bits > all_rows ? bits : all_rows;
    const int8_t* row = table + static_cast<int64_t>(r) * cols;
    bool zero = true;
    for (int32_t c = 0; c < cols && zero; ++c) zero = row[c] == 0;
    if (!zero) nonzero_rows = bits > nonzero_rows ? bits : nonzero_rows;
  }
  return nonzero_rows != 0 ? nonzero_rows : all_rows;
}

}  // namespace fxp
}  // namespace edgenmt

#endif  // EDGENMT_INT8_REQUANTIZATION_H_
