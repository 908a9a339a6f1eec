// The Transformer's entry point for the session's decoder factory (decoder/step_decoder.cc):
// places the scheme's TransformerEncoderDecoder in caller storage and prepares it. Builds without
// EDGENMT_TRANSFORMER leave runtime/src/transformer/ out of the runtime library; a firmware
// that links its objects (the edgenmt_transformer_objects library) provides this function and
// so runs Transformers while the library's .text stays the RNN's.
#ifndef EDGENMT_TRANSFORMER_TRANSFORMER_FACTORY_H_
#define EDGENMT_TRANSFORMER_TRANSFORMER_FACTORY_H_

#include <stddef.h>

#include "decoder/activation_observer.h"
#include "decoder/sequence_decoder.h"
#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"

namespace edgenmt {

// storage: storage_bytes bytes aligned for either decoder (StepDecoder's); the decoder placed
// there is trivially destructible. On success *decoder is it and *observer its calibration
// interface (int8-full) or null.
Status PrepareTransformerDecoder(void* storage, size_t storage_bytes, const Model& model,
                                 const KernelTable* kernels, const DecoderLimits& limits,
                                 Arena* arena, ErrorDetail* detail, SequenceDecoder** decoder,
                                 ActivationObserver** observer);

}  // namespace edgenmt

#endif  // EDGENMT_TRANSFORMER_TRANSFORMER_FACTORY_H_
