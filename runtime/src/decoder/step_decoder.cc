#include "decoder/step_decoder.h"

namespace edgenmt {

Status StepDecoder::Prepare(const Model& model, const KernelTable* kernels, int32_t max_src_len,
                            int32_t max_rows, Arena* arena, ErrorDetail* detail) {
  active_ = nullptr;
  switch (model.config().scheme) {
    case QuantScheme::kFloat32:
    case QuantScheme::kInt8Hybrid:
      EDGENMT_RETURN_IF_ERROR(float_.Prepare(model, kernels, max_src_len, max_rows, arena, detail));
      active_ = &float_;
      return Status::kOk;
    case QuantScheme::kInt8Full:
      EDGENMT_RETURN_IF_ERROR(
          integer_.Prepare(model, kernels, max_src_len, max_rows, arena, detail));
      active_ = &integer_;
      return Status::kOk;
  }
  return detail->Fail(Status::kUnsupported, "quantization scheme ",
                      static_cast<int32_t>(model.config().scheme), " not supported");
}

}  // namespace edgenmt
