#include "decoder/step_decoder.h"

#include <new>
#include <type_traits>

#include "numerics/numerics_interface.h"

namespace edgenmt {

static_assert(numerics_interface::Implements<FloatNumerics>() &&
                  numerics_interface::Implements<IntegerNumerics>(),
              "both numeric schemes implement numerics/numerics_interface.h");
static_assert(std::is_trivially_destructible<RnnDecoder<FloatNumerics>>::value &&
                  std::is_trivially_destructible<RnnDecoder<IntegerNumerics>>::value &&
                  std::is_trivially_destructible<TransformerDecoder<TransformerSublayers>>::value &&
                  std::is_trivially_destructible<
                      TransformerDecoder<IntegerTransformerSublayers>>::value,
              "decoders are placed in StepDecoder storage and never destroyed");

Status StepDecoder::Prepare(const Model& model, const KernelTable* kernels,
                            const DecoderLimits& limits, Arena* arena, ErrorDetail* detail) {
  active_ = nullptr;
  integer_ = nullptr;
  integer_transformer_ = nullptr;
  if (model.config().model_type == ModelType::kTransformer) {
#if !defined(EDGENMT_WITH_TRANSFORMER)
    return detail->Fail(Status::kUnsupported, "Transformer models are not in this build "
                        "(EDGENMT_TRANSFORMER=OFF)");
#else
    if (model.config().scheme == QuantScheme::kInt8Full) {
      IntegerTransformer* decoder = new (storage_) IntegerTransformer();
      EDGENMT_RETURN_IF_ERROR(decoder->Prepare(model, kernels, limits, arena, detail));
      integer_transformer_ = decoder;
      active_ = decoder;
      return Status::kOk;
    }
    FloatTransformer* decoder = new (storage_) FloatTransformer();
    EDGENMT_RETURN_IF_ERROR(decoder->Prepare(model, kernels, limits, arena, detail));
    active_ = decoder;
    return Status::kOk;
#endif
  }
  if (model.config().model_type != ModelType::kRnn) {
    return detail->Fail(Status::kUnsupported, "model type ",
                        static_cast<int32_t>(model.config().model_type), " not supported");
  }
  switch (model.config().scheme) {
    case QuantScheme::kFloat32:
    case QuantScheme::kInt8Hybrid: {
      FloatDecoder* decoder = new (storage_) FloatDecoder();
      EDGENMT_RETURN_IF_ERROR(decoder->Prepare(model, kernels, limits, arena, detail));
      active_ = decoder;
      return Status::kOk;
    }
    case QuantScheme::kInt8Full: {
      IntegerDecoder* decoder = new (storage_) IntegerDecoder();
      EDGENMT_RETURN_IF_ERROR(decoder->Prepare(model, kernels, limits, arena, detail));
      integer_ = decoder;
      active_ = decoder;
      return Status::kOk;
    }
  }
  return detail->Fail(Status::kUnsupported, "quantization scheme ",
                      static_cast<int32_t>(model.config().scheme), " not supported");
}

}  // namespace edgenmt
