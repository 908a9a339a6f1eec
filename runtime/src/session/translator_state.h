// Everything a Translator computes with, placed at the start of its arena by Init.
#ifndef EDGENMT_TRANSLATOR_STATE_H_
#define EDGENMT_TRANSLATOR_STATE_H_

#include <stddef.h>
#include <stdint.h>

#include "decoder/step_decoder.h"
#include "edgenmt/internal/arena.h"
#include "edgenmt/translator.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "search/beam_search.h"

namespace edgenmt {

// One source in flight in TranslateBatch: which input it is and where its rows are.
struct BatchSlot {
  int32_t source;  // index into the caller's sources
  int32_t src_len;
  int32_t src_unknown;
  int32_t row_begin;  // its rows in the decoder: [row_begin, row_begin + search.live())
};

struct Translator::State {
  const KernelTable* kernels = nullptr;
  StepDecoder decoder;
  BeamSearch search;                 // slot 0's (Translate's) search
  int32_t* src_ids = nullptr;        // [max_batch, max_src_len]; Translate uses slot 0's row
  Hypothesis* hypotheses = nullptr;  // [max_nbest]
  char* text = nullptr;              // [max_nbest, text_stride]
  size_t text_stride = 0;
  // TranslateBatch (slot i searches with *searches[i]; searches[0] == &search):
  BeamSearch** searches = nullptr;         // [max_batch]
  BatchSlot* slots = nullptr;              // [max_batch]
  int32_t* active = nullptr;               // [max_batch] slots in flight, in row order
  int32_t* free_slots = nullptr;           // [max_batch]
  RowBlock* blocks = nullptr;              // [max_batch]
  int32_t* tokens = nullptr;               // [max_batch * max_beam] decoder input per row
  int32_t* parents = nullptr;              // [max_batch * max_beam] Reorder's
  int32_t* admitted = nullptr;             // [max_batch] slots encoded together
  const int32_t** admitted_ids = nullptr;  // [max_batch]
  int32_t* admitted_lens = nullptr;        // [max_batch]

  // The whole arena plan of a session; Init and RequiredArenaBytes both run exactly this.
  // `limits` must already be resolved (no zeros) and validated.
  Status Prepare(const Model& model, const SessionLimits& limits, Arena* arena,
                 ErrorDetail* detail);
  Status PrepareBatch(const SessionLimits& limits, int32_t vocab_size, bool model_attention,
                      Arena* arena, ErrorDetail* detail);

  // Fills `result` (hypotheses and their text in this State's buffers) from a finished search.
  Status BuildResult(const Model& model, const BeamSearch& finished,
                     const TranslateOptions& options, const int32_t* source_ids, int32_t src_len,
                     TranslationResult* result);
};

template <typename... Parts>
Status Translator::Fail(Status status, const Parts&... parts) {
  ErrorDetail detail(error_detail_, sizeof(error_detail_));  // straight into the member: no copy
  return detail.Fail(status, parts...);
}

}  // namespace edgenmt

#endif  // EDGENMT_TRANSLATOR_STATE_H_
