// The float scheme's core binding and compute (float32 and the int8 hybrid).
#include "numerics/float_numerics.h"

#include <math.h>
#include <string.h>

#include "numerics/float_tensors.h"

namespace edgenmt {

Status FloatNumerics::Prepare(const Model& model, const KernelTable* kernels, int32_t max_rows,
                              int32_t max_width, Arena* arena, ErrorDetail* detail,
                              int32_t max_sources) {
  (void)max_rows;
  const QuantScheme scheme = model.config().scheme;
  if (scheme != QuantScheme::kFloat32 && scheme != QuantScheme::kInt8Hybrid) {
    return detail->Fail(Status::kInternal, "float numerics prepared for scheme ",
                        static_cast<int32_t>(scheme));
  }
  const KernelTable& k = *kernels;
  if (k.fully_connected_f32 == nullptr || k.tanh_f32 == nullptr || k.softmax_f32 == nullptr ||
      k.log_softmax_f32 == nullptr || k.embedding_lookup_f32 == nullptr) {
    return detail->Fail(Status::kUnsupported, "kernel backend lacks a float32 kernel");
  }
  if (scheme == QuantScheme::kInt8Hybrid &&
      (k.fully_connected_s8_hybrid == nullptr || k.embedding_lookup_s8_f32 == nullptr)) {
    return detail->Fail(Status::kUnsupported, "kernel backend lacks the int8 hybrid kernels");
  }
  k_ = kernels;
  if (scheme == QuantScheme::kInt8Hybrid) {
    // Input rows quantized a group at a time, by any product: common scratch of
    // kHybridScratchRows rows of the widest input (more where sources are batched).
    scratch_rows_ = max_sources > 1 ? kHybridBatchScratchRows : kHybridScratchRows;
    scratch_ = arena->AllocateScratchArray<int8_t>(static_cast<size_t>(scratch_rows_) * max_width);
  }
  return Status::kOk;
}

Status FloatNumerics::BindEmbedding(const Model& model, const char* name, int32_t rows,
                                    int32_t cols, Arena* arena, Embedding* out,
                                    ErrorDetail* detail) const {
  return BindMatrix(model, name, rows, cols, arena, out, detail, /*pack=*/false);
}

Status FloatNumerics::BindMatrix(const Model& model, const char* name, int32_t rows, int32_t cols,
                                 Arena* arena, Matrix* out, ErrorDetail* detail, bool pack) const {
  *out = Matrix{};
  out->rows = rows;
  out->cols = cols;
  if (model.config().scheme == QuantScheme::kFloat32) {
    EDGENMT_RETURN_IF_ERROR(BindMatrixF32(model, name, rows, cols, &out->f32, detail));
    return pack && packs() ? PackMatrix(name, arena, out, detail) : Status::kOk;
  }
  return BindMatrixS8(model, name, arena, out, detail);
}

// The hybrid scheme's int8 matrix with per-row scales. Not inlined, like PackMatrix: the float32
// path's frame then holds no TensorView (Init's stack, tests/stack_usage_test.cc).
__attribute__((noinline)) Status FloatNumerics::BindMatrixS8(const Model& model, const char* name,
                                                             Arena* arena, Matrix* out,
                                                             ErrorDetail* detail) const {
  const int32_t rows = out->rows, cols = out->cols;
  TensorView view{};
  if (model.FindTensor(name, &view) != Status::kOk) {
    return detail->Fail(Status::kModelTensorMissing, "tensor ", name, " missing");
  }
  if (view.dtype != DType::kI8 || view.rank != 2 || view.shape[0] != rows ||
      view.shape[1] != cols) {
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name, " expected int8 [", rows, ",",
                        cols, "] (dtype ", static_cast<int32_t>(view.dtype), ")");
  }
  if (view.quant_axis != 0 || view.num_scales != rows || view.zero_points != nullptr) {
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name,
                        " needs symmetric per-row scales (axis 0, ", rows, " scales)");
  }
  out->s8 = static_cast<const int8_t*>(view.data);
  out->row_scales = view.scales;
  (void)arena;
  out->scratch = scratch_;
  return Status::kOk;
}

// Not inlined: its message formatting stays out of the binding's frame (Init's stack is
// measured against 1 KiB on 32-bit targets: tests/stack_usage_test.cc).
__attribute__((noinline)) Status FloatNumerics::PackMatrix(const char* name, Arena* arena,
                                                           Matrix* out, ErrorDetail* detail) const {
  const Status status =
      k_->pack_fully_connected_f32(out->cols, out->rows, out->f32, arena, &out->packed);
  if (status != Status::kOk) {
    return detail->Fail(
        status, "kernel backend ", KernelBackendName(k_->backend),
        status == Status::kUnsupported
            ? " cannot pack into the arena (XNNPACK allocates through another allocator), tensor "
            : " could not pack tensor ",
        name);
  }
  return Status::kOk;
}

Status FloatNumerics::BindBias(const Model& model, const char* name, int32_t size,
                               const BiasT** out, ErrorDetail* detail) const {
  return BindVectorF32(model, name, size, out, detail);
}

void FloatNumerics::Linear(const Matrix& w, int32_t rows, const Hidden* x, const BiasT* bias,
                           Acc* y, bool accumulate, int32_t out_features) const {
  const int32_t out = out_features < 0 ? w.rows : out_features;
  if (w.packed != nullptr && !accumulate && out == w.rows && rows >= k_->packed_min_rows) {
    k_->packed_fully_connected_f32(w.packed, rows, x, bias, y);
  } else if (w.s8 != nullptr) {
    k_->fully_connected_s8_hybrid(rows, w.cols, out, x, w.s8, w.row_scales, bias, y, accumulate,
                                  w.scratch, scratch_rows_);
  } else {
    k_->fully_connected_f32(rows, w.cols, out, x, w.f32, bias, y, accumulate);
  }
}

void FloatNumerics::TanhToHidden(int32_t n, const Acc* x, Hidden* y) const {
  k_->tanh_f32(n, x, y);
}

void FloatNumerics::AddAcc(int32_t n, const Acc* a, const Acc* b, Acc* y) const {
  for (int32_t j = 0; j < n; ++j) y[j] = a[j] + b[j];
}

void FloatNumerics::Softmax(int32_t n, const Acc* scores, Weight* weights) const {
  k_->softmax_f32(n, scores, weights);
}

void FloatNumerics::LogSoftmax(int32_t n, Acc* logits, LogProb* log_probs, float* as_float) const {
  (void)as_float;
  k_->log_softmax_f32(n, logits, log_probs);
}

}  // namespace edgenmt
