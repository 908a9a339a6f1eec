// The decoding options of docs/MODEL.md "Decoding": one struct from the model file (the stored
// defaults, Model::decoding_defaults()) through the converter and the Translator to the search,
// with one range check (ValidateDecodingOptions) that all of them use.
//
// Plain values: no pointers, no ownership. Units: lengths are token counts; alpha, beta and
// max_len_ratio are dimensionless.
#ifndef EDGENMT_DECODING_OPTIONS_H_
#define EDGENMT_DECODING_OPTIONS_H_

#include <stddef.h>
#include <stdint.h>

#include "edgenmt/status.h"

namespace edgenmt {

class Model;

// The largest beam a model file may store or a session may plan for.
constexpr int32_t kMaxDecodingBeam = 1024;

struct DecodingOptions {
  int32_t beam = 1;            // K in [1, kMaxDecodingBeam] (1 = greedy)
  int32_t nbest = 1;           // N in [1, K]
  float alpha = 0.0f;          // length penalty exponent, finite, >= 0
  float beta = 0.0f;           // coverage penalty weight, finite, >= 0
  int32_t min_len = 0;         // tokens before </s> may end a hypothesis, in [0, max_len]
  int32_t max_len = 1;         // output tokens, in [1, kMaxModelDim (model.h)]
  float max_len_ratio = 0.0f;  // finite, >= 0; 0 = off, else max steps =
                               // min(max_len, ceil(ratio * source tokens))
  // Translator only: also return each hypothesis' attention (needs SessionLimits::attention and
  // a model with attention). Never stored in a model file (false in decoding_defaults()).
  bool return_attention = false;

  // The decoding defaults stored in `model` (a copy of Model::decoding_defaults()).
  static DecodingOptions FromModel(const Model& model);
};

// The ranges above, in field order: beam, nbest, alpha, beta, max_len_ratio, max_len, min_len.
// Returns kOk, or kInvalidArgument for the first field out of range with `detail` set to
// "<prefix><field>: <why>" (e.g. prefix "decoding." gives "decoding.nbest: 3 not in [1,
// beam=2]"), NUL-terminated and truncated to detail_size ("" on success; detail may be null),
// and *field (when field is non-null) pointing to the field's name as spelled above (a static
// string; null on success). Used by Model::Load, the converter and Translator::Translate*.
Status ValidateDecodingOptions(const DecodingOptions& options, const char* prefix, char* detail,
                               size_t detail_size, const char** field = nullptr);

}  // namespace edgenmt

#endif  // EDGENMT_DECODING_OPTIONS_H_
