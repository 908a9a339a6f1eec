#include "numerics/float_tensors.h"

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
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name, " is not float32 (dtype ",
                        static_cast<int32_t>(view.dtype), ")");
  }
  const bool shape_ok =
      view.rank == rank && view.shape[0] == d0 && (rank == 1 || view.shape[1] == d1);
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

}  // namespace edgenmt
