#include "decoder/step_decoder.h"

#include <new>
#include <type_traits>

#include "decoder/float_schemes.h"
#include "numerics/numerics_interface.h"
#include "rnn/rnn_numerics_interface.h"
#include "transformer/transformer_factory.h"

namespace edgenmt {

static_assert(numerics_interface::Implements<FloatNumerics>() &&
                  numerics_interface::Implements<IntegerNumerics>(),
              "both numeric schemes implement numerics/numerics_interface.h");
static_assert(rnn_numerics_interface::Implements<FloatRnnNumerics>() &&
                  rnn_numerics_interface::Implements<IntegerRnnNumerics>(),
              "both schemes implement the RNN's operations (rnn/rnn_numerics_interface.h)");
static_assert(
    std::is_trivially_destructible<RnnEncoderDecoder<FloatRnnNumerics>>::value &&
        std::is_trivially_destructible<RnnEncoderDecoder<IntegerRnnNumerics>>::value &&
        std::is_trivially_destructible<TransformerEncoderDecoder<TransformerSublayers>>::value &&
        std::is_trivially_destructible<
            TransformerEncoderDecoder<IntegerTransformerSublayers>>::value,
    "decoders are placed in StepDecoder storage and never destroyed");

#if defined(EDGENMT_WITH_TRANSFORMER)
// In this library (runtime/src/transformer/transformer_factory.cc).
#else
// Not in this library: defined only where the executable links the Transformer's objects
// (edgenmt_transformer_objects, e.g. a Cortex-M firmware); null otherwise.
__attribute__((weak)) Status PrepareTransformerDecoder(
    void* storage, size_t storage_bytes, const Model& model, const KernelTable* kernels,
    const DecoderLimits& limits, Arena* arena, ErrorDetail* detail, SequenceDecoder** decoder,
    ActivationObserver** observer);
#endif

Status StepDecoder::Prepare(const Model& model, const KernelTable* kernels,
                            const DecoderLimits& limits, Arena* arena, ErrorDetail* detail) {
  active_ = nullptr;
  observer_ = nullptr;
  EDGENMT_RETURN_IF_ERROR(CheckSchemeBuilt(model.config().scheme, detail));
  if (model.config().model_type == ModelType::kTransformer) {
#if !defined(EDGENMT_WITH_TRANSFORMER)
    if (&PrepareTransformerDecoder == nullptr) {
      return detail->Fail(Status::kUnsupported,
                          "Transformer models are not in this build "
                          "(EDGENMT_TRANSFORMER=OFF)");
    }
#endif
    return PrepareTransformerDecoder(storage_, sizeof storage_, model, kernels, limits, arena,
                                     detail, &active_, &observer_);
  }
  if (model.config().model_type != ModelType::kRnn) {
    return detail->Fail(Status::kUnsupported, "model type ",
                        static_cast<int32_t>(model.config().model_type), " not supported");
  }
  switch (model.config().scheme) {
    case QuantScheme::kFloat32:
    case QuantScheme::kInt8Hybrid: {
#if defined(EDGENMT_WITH_FLOAT_SCHEMES)
      FloatDecoder* decoder = new (storage_) FloatDecoder();
      EDGENMT_RETURN_IF_ERROR(decoder->Prepare(model, kernels, limits, arena, detail));
      observer_ = decoder;
      active_ = decoder;
      return Status::kOk;
#else
      break;  // refused by CheckSchemeBuilt above
#endif
    }
    case QuantScheme::kInt8Full: {
      IntegerDecoder* decoder = new (storage_) IntegerDecoder();
      EDGENMT_RETURN_IF_ERROR(decoder->Prepare(model, kernels, limits, arena, detail));
      observer_ = decoder;
      active_ = decoder;
      return Status::kOk;
    }
  }
  return detail->Fail(Status::kUnsupported, "quantization scheme ",
                      static_cast<int32_t>(model.config().scheme), " not supported");
}

}  // namespace edgenmt
