#include "numerics/integer_tensors.h"

#include <string.h>

#include "edgenmt/fixed_point.h"

namespace edgenmt {
namespace {

constexpr uint32_t kQ20ScaleBits = 0x35800000u;   // 2^-20 (Q11.20 biases)

uint32_t FloatBits(float f) {
  uint32_t bits = 0;
  memcpy(&bits, &f, sizeof(bits));
  return bits;
}

Status FindInt8PerRow(const Model& model, const char* name, int32_t rows, int32_t cols,
                      TensorView* view, ErrorDetail* detail) {
  if (model.FindTensor(name, view) != Status::kOk) {
    return detail->Fail(Status::kModelTensorMissing, "tensor ", name, " missing");
  }
  if (view->dtype != DType::kI8 || view->rank != 2 || view->shape[0] != rows ||
      view->shape[1] != cols || view->quant_axis != 0 || view->num_scales != rows ||
      view->zero_points != nullptr) {
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name,
                        " must be int8 per-row [", rows, ",", cols, "] for int8-full");
  }
  return Status::kOk;
}

bool RowIsZero(const int8_t* row, int32_t cols) {
  for (int32_t c = 0; c < cols; ++c) {
    if (row[c] != 0) return false;
  }
  return true;
}

// Per-row (multiplier, shift) of a * b * 2^pow2 / c where the row's scale is a (scale_is_a) or
// b. A factor too large for a multiplier (>= 2^30: one accumulator unit is then worth >= 1024
// in Q11.20, so any product beyond one unit saturates the accumulation format anyway) is
// clamped to the largest one, so finite weights of any magnitude run and saturate instead of
// being refused. Only a writable arena stores the values.
void DeriveMultipliers(const float* scales, int32_t rows, uint32_t a_bits, bool scale_is_a,
                       uint32_t c_bits, int pow2, Arena* arena, int32_t** multiplier_out,
                       int32_t** shift_out) {
  int32_t* multiplier = arena->AllocateArray<int32_t>(static_cast<size_t>(rows));
  int32_t* shift = arena->AllocateArray<int32_t>(static_cast<size_t>(rows));
  *multiplier_out = multiplier;
  *shift_out = shift;
  if (!arena->writable()) return;
  for (int32_t m = 0; m < rows; ++m) {
    const uint32_t row_bits = FloatBits(scales[m]);
    int sh = 0;
    // Model::Load checked every scale is finite and > 0, so false means "too large".
    if (!fxp::QuantizeMultiplierFromFloatBits(scale_is_a ? row_bits : a_bits,
                                              scale_is_a ? a_bits : row_bits, c_bits, pow2,
                                              &multiplier[m], &sh)) {
      multiplier[m] = fxp::kInt32Max;
      sh = 30;
    }
    shift[m] = sh;
  }
}

}  // namespace

Status BindIntMatrix(const Model& model, const char* name, int32_t rows, int32_t cols,
                     uint32_t input_scale_bits, Arena* arena, IntMatrix* out,
                     ErrorDetail* detail) {
  TensorView view{};
  EDGENMT_RETURN_IF_ERROR(FindInt8PerRow(model, name, rows, cols, &view, detail));
  out->rows = rows;
  out->cols = cols;
  out->w = static_cast<const int8_t*>(view.data);
  DeriveMultipliers(view.scales, rows, input_scale_bits, false, kOneBits, 20, arena,
                    &out->multiplier, &out->shift);
  return Status::kOk;
}

Status BindBiasQ20(const Model& model, const char* name, int32_t size, const int32_t** out,
                   ErrorDetail* detail) {
  TensorView view{};
  if (model.FindTensor(name, &view) != Status::kOk) {
    return detail->Fail(Status::kModelTensorMissing, "tensor ", name, " missing");
  }
  if (view.dtype != DType::kI32 || view.rank != 1 || view.shape[0] != size ||
      view.num_scales != 1 || FloatBits(view.scales[0]) != kQ20ScaleBits) {
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name,
                        " must be int32 Q11.20 (scale 2^-20) [", size, "] for int8-full");
  }
  *out = static_cast<const int32_t*>(view.data);
  return Status::kOk;
}

// The shared scale is the largest scale among rows that hold a nonzero value: an all-zero row
// (nn.Embedding's padding_idx row) carries no information, and its stored scale must not
// become the shared one (it would cost every other row its precision).
Status BindIntEmbedding(const Model& model, const char* name, int32_t rows, int32_t cols,
                        Arena* arena, IntEmbedding* out, ErrorDetail* detail) {
  TensorView view{};
  EDGENMT_RETURN_IF_ERROR(FindInt8PerRow(model, name, rows, cols, &view, detail));
  out->rows = rows;
  out->cols = cols;
  out->table = static_cast<const int8_t*>(view.data);
  // Positive float32 values order like their bit patterns: the largest row scale, no FPU.
  uint32_t all_rows = 0, nonzero_rows = 0;
  for (int32_t r = 0; r < rows; ++r) {
    const uint32_t bits = FloatBits(view.scales[r]);
    all_rows = bits > all_rows ? bits : all_rows;
    if (!RowIsZero(out->table + static_cast<int64_t>(r) * cols, cols)) {
      nonzero_rows = bits > nonzero_rows ? bits : nonzero_rows;
    }
  }
  out->scale_bits = nonzero_rows != 0 ? nonzero_rows : all_rows;
  DeriveMultipliers(view.scales, rows, kOneBits, true, out->scale_bits, 0, arena,
                    &out->multiplier, &out->shift);
  return Status::kOk;
}

// Smallest k >= 0 with round(max|v| / 2^k) <= 127: a power-of-two int8 scale chosen per call.
int32_t PowerOfTwoShiftForS8(int32_t n, const int32_t* v) {
  int64_t max_abs = 0;
  for (int32_t i = 0; i < n; ++i) {
    const int64_t a = v[i] < 0 ? -static_cast<int64_t>(v[i]) : v[i];
    max_abs = a > max_abs ? a : max_abs;
  }
  int32_t k = 0;
  while (k < 31 && fxp::RoundingDivideByPOT64(max_abs, k) > 127) ++k;
  return k;
}

}  // namespace edgenmt
