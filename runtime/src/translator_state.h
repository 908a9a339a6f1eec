// Everything a Translator computes with, placed at the start of its arena by Init.
#ifndef EDGENMT_TRANSLATOR_STATE_H_
#define EDGENMT_TRANSLATOR_STATE_H_

#include <stddef.h>
#include <stdint.h>

#include "decoder/step_decoder.h"
#include "edgenmt/arena.h"
#include "edgenmt/translator.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "search/beam_search.h"

namespace edgenmt {

struct Translator::State {
  const KernelTable* kernels = nullptr;
  StepDecoder decoder;
  BeamSearch search;
  int32_t* src_ids = nullptr;       // [max_src_len]
  Hypothesis* hypotheses = nullptr; // [max_nbest]
  char* text = nullptr;             // [max_nbest, text_stride]
  size_t text_stride = 0;

  // The whole arena plan of a session; Init and RequiredArenaBytes both run exactly this.
  // `limits` must already be resolved (no zeros) and validated.
  Status Prepare(const Model& model, const SessionLimits& limits, Arena* arena,
                 ErrorDetail* detail);
};

template <typename... Parts>
Status Translator::Fail(Status status, const Parts&... parts) {
  ErrorDetail detail(error_detail_, sizeof(error_detail_));  // straight into the member: no copy
  return detail.Fail(status, parts...);
}

}  // namespace edgenmt

#endif  // EDGENMT_TRANSLATOR_STATE_H_
