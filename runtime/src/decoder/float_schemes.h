// Whether this build has the float schemes, float32 and int8 hybrid (CMake
// EDGENMT_FLOAT_SCHEMES, which defines EDGENMT_WITH_FLOAT_SCHEMES; off in the Cortex-M presets,
// which run int8-full files). The two factories (decoder/step_decoder.cc,
// transformer/transformer_factory.cc) refuse such a model at Init with one message.
#ifndef EDGENMT_DECODER_FLOAT_SCHEMES_H_
#define EDGENMT_DECODER_FLOAT_SCHEMES_H_

#include "edgenmt/model.h"
#include "edgenmt/status.h"
#include "error_detail.h"

namespace edgenmt {

// kOk where `scheme` is int8-full or this build has the float schemes; else kUnsupported.
inline Status CheckSchemeBuilt(QuantScheme scheme, ErrorDetail* detail) {
#if defined(EDGENMT_WITH_FLOAT_SCHEMES)
  (void)scheme;
  (void)detail;
  return Status::kOk;
#else
  if (scheme == QuantScheme::kInt8Full) return Status::kOk;
  return detail->Fail(Status::kUnsupported,
                      scheme == QuantScheme::kFloat32 ? "float32" : "int8 (hybrid)",
                      " models are not in this build (EDGENMT_FLOAT_SCHEMES=OFF): "
                      "convert with --dtype int8-full");
#endif
}

}  // namespace edgenmt

#endif  // EDGENMT_DECODER_FLOAT_SCHEMES_H_
