#include "numerics/integer_tensors.h"

#include <string.h>

#include "edgenmt/internal/fixed_point.h"

namespace edgenmt {
namespace {

constexpr uint32_t kQ20ScaleBits = 0x35800000u;  // 2^-20 (Q11.20 biases)

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
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name, " must be int8 per-row [",
                        rows, ",", cols, "] for int8-full");
  }
  return Status::kOk;
}

Status FindConstants(const Model& model, const char* name, uint32_t input_scale_bits,
                     bool rescale_rows, const int32_t** multiplier, const int32_t** shift,
                     ErrorDetail* detail) {
  if (model.FindRequantization(name, input_scale_bits, rescale_rows, multiplier, shift) !=
      Status::kOk) {
    return detail->Fail(Status::kModelTensorMissing, "tensor ", name,
                        rescale_rows ? " has no row rescale to its shared scale"
                                     : " has no requantization constants for its input scale",
                        " (int8-full files need them: convert again with this converter)");
  }
  return Status::kOk;
}

}  // namespace

Status BindIntMatrix(const Model& model, const char* name, int32_t rows, int32_t cols,
                     uint32_t input_scale_bits, IntMatrix* out, ErrorDetail* detail) {
  TensorView view{};
  EDGENMT_RETURN_IF_ERROR(FindInt8PerRow(model, name, rows, cols, &view, detail));
  out->rows = rows;
  out->cols = cols;
  out->w = static_cast<const int8_t*>(view.data);
  return FindConstants(model, name, input_scale_bits, false, &out->multiplier, &out->shift, detail);
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

Status BindMatrixQ20(const Model& model, const char* name, int32_t rows, int32_t cols,
                     const int32_t** out, ErrorDetail* detail) {
  TensorView view{};
  if (model.FindTensor(name, &view) != Status::kOk) {
    return detail->Fail(Status::kModelTensorMissing, "tensor ", name, " missing");
  }
  if (view.dtype != DType::kI32 || view.rank != 2 || view.shape[0] != rows ||
      view.shape[1] != cols || view.num_scales != 1 || FloatBits(view.scales[0]) != kQ20ScaleBits) {
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name,
                        " must be int32 Q11.20 (scale 2^-20) [", rows, ",", cols,
                        "] for int8-full");
  }
  *out = static_cast<const int32_t*>(view.data);
  return Status::kOk;
}

Status BindIntEmbedding(const Model& model, const char* name, int32_t rows, int32_t cols,
                        IntEmbedding* out, ErrorDetail* detail) {
  TensorView view{};
  EDGENMT_RETURN_IF_ERROR(FindInt8PerRow(model, name, rows, cols, &view, detail));
  out->rows = rows;
  out->cols = cols;
  out->table = static_cast<const int8_t*>(view.data);
  out->scale_bits = fxp::SharedEmbeddingScaleBits(view.scales, out->table, rows, cols);
  return FindConstants(model, name, out->scale_bits, true, &out->multiplier, &out->shift, detail);
}

int32_t PowerOfTwoShift(int32_t n, const int32_t* v, int32_t limit) {
  int64_t max_abs = 0;
  for (int32_t i = 0; i < n; ++i) {
    const int64_t a = v[i] < 0 ? -static_cast<int64_t>(v[i]) : v[i];
    max_abs = a > max_abs ? a : max_abs;
  }
  int32_t k = 0;
  while (k < 31 && fxp::RoundingDivideByPOT64(max_abs, k) > limit) ++k;
  return k;
}

}  // namespace edgenmt
