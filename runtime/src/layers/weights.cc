#include "layers/weights.h"

namespace edgenmt {
namespace {

Status Bind(const Model& model, const char* name, int32_t rank, int32_t d0, int32_t d1,
            const float** out, ErrorDetail* detail) {
  *out = nullptr;
  TensorView view{};
  if (model.FindTensor(name, &view) != Status::kOk) {
    return detail->Fail(Status::kModelTensorMissing, "tensor ", name, " missing");
  }
  if (view.dtype != DType::kF32) {
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name,
                        " is not float32 (dtype ", static_cast<int32_t>(view.dtype), ")");
  }
  const bool shape_ok = view.rank == rank && view.shape[0] == d0 && (rank == 1 || view.shape[1] == d1);
  if (!shape_ok) {
    if (rank == 1) {
      return detail->Fail(Status::kModelTensorInvalid, "tensor ", name, " expected [", d0,
                          "] found rank ", view.rank, " dim0 ", view.shape[0]);
    }
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name, " expected [", d0, ",", d1,
                        "] found rank ", view.rank, " [", view.shape[0], ",",
                        view.rank > 1 ? view.shape[1] : 0, "]");
  }
  *out = static_cast<const float*>(view.data);
  return Status::kOk;
}

}  // namespace

Status BindMatrixF32(const Model& model, const char* name, int32_t rows, int32_t cols,
                     const float** out, ErrorDetail* detail) {
  return Bind(model, name, 2, rows, cols, out, detail);
}

Status BindVectorF32(const Model& model, const char* name, int32_t size, const float** out,
                     ErrorDetail* detail) {
  return Bind(model, name, 1, size, 0, out, detail);
}

Status BindMatrix(const Model& model, const char* name, int32_t rows, int32_t cols, Arena* arena,
                  MatrixWeights* out, ErrorDetail* detail) {
  *out = MatrixWeights{};
  out->rows = rows;
  out->cols = cols;
  switch (model.config().scheme) {
    case QuantScheme::kFloat32:
      return BindMatrixF32(model, name, rows, cols, &out->f32, detail);
    case QuantScheme::kInt8Hybrid:
      break;
    case QuantScheme::kInt8Full:
    default:
      return detail->Fail(Status::kUnsupported, "int8-full models are not supported by this build");
  }
  TensorView view{};
  if (model.FindTensor(name, &view) != Status::kOk) {
    return detail->Fail(Status::kModelTensorMissing, "tensor ", name, " missing");
  }
  if (view.dtype != DType::kI8 || view.rank != 2 || view.shape[0] != rows ||
      view.shape[1] != cols) {
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name, " expected int8 [", rows,
                        ",", cols, "] (dtype ", static_cast<int32_t>(view.dtype), ")");
  }
  if (view.quant_axis != 0 || view.num_scales != rows || view.zero_points != nullptr) {
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name,
                        " needs symmetric per-row scales (axis 0, ", rows, " scales)");
  }
  out->s8 = static_cast<const int8_t*>(view.data);
  out->row_scales = view.scales;
  out->scratch = arena->AllocateArray<int8_t>(static_cast<size_t>(cols));
  return Status::kOk;
}

void ApplyLinear(const KernelTable& k, int32_t n_rows, const float* x, const MatrixWeights& w,
                 const float* bias, float* y, bool accumulate, int32_t out_features) {
  const int32_t out = out_features < 0 ? w.rows : out_features;
  if (w.s8 != nullptr) {
    k.fully_connected_s8_hybrid(n_rows, w.cols, out, x, w.s8, w.row_scales, bias, y, accumulate,
                                w.scratch);
  } else {
    k.fully_connected_f32(n_rows, w.cols, out, x, w.f32, bias, y, accumulate);
  }
}

void ApplyEmbedding(const KernelTable& k, int32_t count, const int32_t* ids,
                    const MatrixWeights& table, float* out, int32_t out_stride) {
  if (table.s8 != nullptr) {
    k.embedding_lookup_s8_f32(count, ids, table.s8, table.row_scales, table.cols, out, out_stride);
  } else {
    k.embedding_lookup_f32(count, ids, table.f32, table.cols, out, out_stride);
  }
}

}  // namespace edgenmt
