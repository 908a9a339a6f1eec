#include "transformer/transformer_factory.h"

#include <new>

#include "decoder/float_schemes.h"
#include "transformer/integer_transformer_sublayers.h"
#include "transformer/transformer_encoder_decoder.h"
#include "transformer/transformer_sublayers.h"

namespace edgenmt {
namespace {

template <typename Decoder>
Status Place(void* storage, size_t storage_bytes, const Model& model, const KernelTable* kernels,
             const DecoderLimits& limits, Arena* arena, ErrorDetail* detail,
             SequenceDecoder** decoder, ActivationObserver** observer) {
  if (storage_bytes < sizeof(Decoder)) {
    return detail->Fail(Status::kInternal, "decoder storage of ",
                        static_cast<int64_t>(storage_bytes), " bytes < ",
                        static_cast<int64_t>(sizeof(Decoder)));
  }
  Decoder* d = new (storage) Decoder();
  EDGENMT_RETURN_IF_ERROR(d->Prepare(model, kernels, limits, arena, detail));
  *decoder = d;
  *observer = d;
  return Status::kOk;
}

}  // namespace

Status PrepareTransformerDecoder(void* storage, size_t storage_bytes, const Model& model,
                                 const KernelTable* kernels, const DecoderLimits& limits,
                                 Arena* arena, ErrorDetail* detail, SequenceDecoder** decoder,
                                 ActivationObserver** observer) {
  if (model.config().scheme == QuantScheme::kInt8Full) {
    return Place<TransformerEncoderDecoder<IntegerTransformerSublayers>>(
        storage, storage_bytes, model, kernels, limits, arena, detail, decoder, observer);
  }
#if defined(EDGENMT_WITH_FLOAT_SCHEMES)
  return Place<TransformerEncoderDecoder<TransformerSublayers>>(
      storage, storage_bytes, model, kernels, limits, arena, detail, decoder, observer);
#else
  // StepDecoder::Prepare refuses a float scheme before calling here; the same refusal.
  return CheckSchemeBuilt(model.config().scheme, detail);
#endif
}

}  // namespace edgenmt
