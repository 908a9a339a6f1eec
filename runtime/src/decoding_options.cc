// DecodingOptions (edgenmt/decoding_options.h): the stored defaults and the one range check.
#include "edgenmt/decoding_options.h"

#include <math.h>

#include "edgenmt/model.h"
#include "error_detail.h"

namespace edgenmt {
namespace {

bool NonNegativeFinite(float x) { return isfinite(x) != 0 && x >= 0.0f; }

}  // namespace

DecodingOptions DecodingOptions::FromModel(const Model& model) { return model.decoding_defaults(); }

Status ValidateDecodingOptions(const DecodingOptions& o, const char* prefix, char* detail,
                               size_t detail_size, const char** field) {
  ErrorDetail text(detail, detail_size);  // straight into the caller's buffer ("" on success)
  if (field != nullptr) *field = nullptr;
  if (prefix == nullptr) prefix = "";
  const char* bad = nullptr;
  if (o.beam < 1 || o.beam > kMaxDecodingBeam) {
    bad = "beam";
    text.Fail(Status::kInvalidArgument, prefix, bad, ": ", o.beam, " not in [1, ", kMaxDecodingBeam,
              "]");
  } else if (o.nbest < 1 || o.nbest > o.beam) {
    bad = "nbest";
    text.Fail(Status::kInvalidArgument, prefix, bad, ": ", o.nbest, " not in [1, beam=", o.beam,
              "]");
  } else if (!NonNegativeFinite(o.alpha)) {
    bad = "alpha";
    text.Fail(Status::kInvalidArgument, prefix, bad, ": must be finite and >= 0");
  } else if (!NonNegativeFinite(o.beta)) {
    bad = "beta";
    text.Fail(Status::kInvalidArgument, prefix, bad, ": must be finite and >= 0");
  } else if (!NonNegativeFinite(o.max_len_ratio)) {
    bad = "max_len_ratio";
    text.Fail(Status::kInvalidArgument, prefix, bad, ": must be finite and >= 0");
  } else if (o.max_len < 1 || o.max_len > kMaxModelDim) {
    bad = "max_len";
    text.Fail(Status::kInvalidArgument, prefix, bad, ": ", o.max_len, " not in [1, ", kMaxModelDim,
              "]");
  } else if (o.min_len < 0 || o.min_len > o.max_len) {
    bad = "min_len";
    text.Fail(Status::kInvalidArgument, prefix, bad, ": ", o.min_len,
              " not in [0, max_len=", o.max_len, "]");
  }
  if (field != nullptr) *field = bad;
  return bad == nullptr ? Status::kOk : Status::kInvalidArgument;
}

}  // namespace edgenmt
