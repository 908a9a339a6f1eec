// The integer scheme's core binding and compute (docs/INT8.md "int8-full").
#include "numerics/integer_numerics.h"

#include <string.h>

#include "edgenmt/internal/fixed_point.h"

namespace edgenmt {

Status IntegerNumerics::Prepare(const Model& model, const KernelTable* kernels, int32_t max_rows,
                                int32_t max_width, Arena* arena, ErrorDetail* detail,
                                int32_t max_sources) {
  (void)max_rows;
  (void)max_sources;
  const ModelConfig& c = model.config();
  if (c.scheme != QuantScheme::kInt8Full) {
    return detail->Fail(Status::kInternal, "integer numerics prepared for scheme ",
                        static_cast<int32_t>(c.scheme));
  }
  const KernelTable& k = *kernels;
  if (k.fully_connected_s8_s32 == nullptr || k.narrow_s32_s16 == nullptr || k.tanh_s16 == nullptr ||
      k.requantize_s16_s8 == nullptr || k.softmax_s32_s16 == nullptr ||
      k.log_softmax_s32 == nullptr) {
    return detail->Fail(Status::kUnsupported, "kernel backend lacks an int8-full kernel");
  }
  k_ = kernels;
  width_ = max_width;
  // tanh's temporaries (TanhToHidden works in chunks of this width).
  narrow_ = arena->AllocateScratchArray<int16_t>(static_cast<size_t>(max_width));
  return Status::kOk;
}

Status IntegerNumerics::BindEmbedding(const Model& model, const char* name, int32_t rows,
                                      int32_t cols, Arena* arena, Embedding* out,
                                      ErrorDetail* detail) const {
  (void)arena;
  return BindIntEmbedding(model, name, rows, cols, out, detail);
}

Status IntegerNumerics::BindMatrix(const Model& model, const char* name, int32_t rows, int32_t cols,
                                   Arena* arena, Matrix* out, ErrorDetail* detail) const {
  (void)arena;
  return BindIntMatrix(model, name, rows, cols, kOneBits, out, detail);
}

Status IntegerNumerics::BindBias(const Model& model, const char* name, int32_t size,
                                 const BiasT** out, ErrorDetail* detail) const {
  return BindBiasQ20(model, name, size, out, detail);
}

void IntegerNumerics::Linear(const Matrix& w, int32_t rows, const Hidden* x, const BiasT* bias,
                             Acc* y, bool accumulate, int32_t out_features) const {
  const int32_t out = out_features < 0 ? w.rows : out_features;
  k_->fully_connected_s8_s32(rows, w.cols, out, x, w.cols, w.w, w.cols, w.multiplier, w.shift,
                             kHiddenShiftOffset, bias, y, accumulate);
}

// Q11.20 -> Q3.12 -> tanh Q0.15 -> s8 @ 2^-7, in chunks of the scratch width.
void IntegerNumerics::TanhToHidden(int32_t n, const Acc* x, Hidden* y) const {
  for (int32_t begin = 0; begin < n; begin += width_) {
    const int32_t count = n - begin < width_ ? n - begin : width_;
    k_->narrow_s32_s16(count, x + begin, 8, narrow_);
    k_->tanh_s16(count, narrow_, kGateIntBits, narrow_);
    k_->requantize_s16_s8(count, narrow_, 8, y + begin);
  }
}

void IntegerNumerics::AddAcc(int32_t n, const Acc* a, const Acc* b, Acc* y) const {
  for (int32_t j = 0; j < n; ++j) y[j] = fxp::SaturatingAdd(a[j], b[j]);
}

void IntegerNumerics::Softmax(int32_t n, const Acc* scores, Weight* weights) const {
  k_->softmax_s32_s16(n, scores, kAccIntBits, weights);
}

void IntegerNumerics::LogSoftmax(int32_t n, Acc* logits, LogProb* log_probs,
                                 float* as_float) const {
  k_->log_softmax_s32(n, logits, kAccIntBits, log_probs);
  for (int32_t v = 0; v < n; ++v)
    as_float[v] = static_cast<float>(log_probs[v]) * (1.0f / 65536.0f);
}

}  // namespace edgenmt
