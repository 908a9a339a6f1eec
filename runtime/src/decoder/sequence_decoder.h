// What a search drives (CTranslate2 style): encode a source once, then advance any number of
// live hypotheses ("rows") one token at a time. Each model type implements it (the RNN
// encoder-decoder in rnn/rnn_encoder_decoder.h; a Transformer would be a second implementation);
// the search (search/) knows only this interface.
//
//   decoder->Encode(src, S);                 // one row: the initial hypothesis
//   decoder->Step(prev_tokens, rows);        // -> log_probs() [rows, V], attention() [rows, S]
//   decoder->Reorder(parents, new_rows);     // row r continues old row parents[r]
//
// Compute calls never fail and never allocate. Callers validate ids (source ids in [0, V_src),
// previous tokens in [0, V_tgt)), 1 <= S <= max_src_len and rows <= max_rows.
#ifndef EDGENMT_DECODER_SEQUENCE_DECODER_H_
#define EDGENMT_DECODER_SEQUENCE_DECODER_H_

#include <stdint.h>

namespace edgenmt {

// The shape a session plans its decoder for. max_tgt_len is the longest output a search will
// ask for: a decoder that keeps a per-step cache (a Transformer's keys and values) sizes it by
// this (0: the model's own limit); the RNN keeps fixed-size states and ignores it.
struct DecoderLimits {
  int32_t max_src_len = 0;
  int32_t max_rows = 0;  // live hypotheses: the beam (times max_sources in a batch)
  int32_t max_tgt_len = 0;
  int32_t max_sources = 1;  // sources decoded at once (slots), SessionLimits::max_batch
};

// A run of consecutive rows that belong to one source (a batch's slot) and are at the same
// decoder step.
struct RowBlock {
  int32_t slot;
  int32_t row_begin;
  int32_t rows;
  int32_t step;
};

class SequenceDecoder {
 public:
  // Runs the encoder and sets one row to the decoder's initial state; the step counter
  // restarts at 0.
  virtual void Encode(const int32_t* src_ids, int32_t src_len) = 0;
  // Advances `rows` hypotheses by one token: prev_tokens[r] is row r's previous output (bos at
  // step 0). rows must equal the current row count (1 after Encode, else the last Reorder's).
  virtual void Step(const int32_t* prev_tokens, int32_t rows) = 0;
  // New row r takes the state of current row parents[r] (parents[r] < rows()); new_rows <=
  // max_rows. Also the way to grow the single initial row to the beam.
  virtual void Reorder(const int32_t* parents, int32_t new_rows) = 0;

  // Batches (several sources, one per slot < max_sources, each with its rows): encodes
  // src_ids into `slot` and writes its initial decoder state into row `row` (< max_rows; the
  // caller keeps each slot's rows together, rows() becomes at least row + 1). The slot's
  // memory stays until its next EncodeSource; other slots' rows are untouched.
  virtual void EncodeSource(int32_t slot, const int32_t* src_ids, int32_t src_len, int32_t row) = 0;
  // The same for count sources at once (encoded together): source k is src_ids[k][0,
  // src_lens[k]) into slots[k], its initial state into row first_row + k.
  virtual void EncodeSources(int32_t count, const int32_t* slots, const int32_t* const* src_ids,
                             const int32_t* src_lens, int32_t first_row) = 0;
  // Advances every row of `blocks` (consecutive, from row 0) by one token, each block against
  // its slot's source at its own step: Step(prev, rows) is one block {0, 0, rows, t}. Outputs
  // as Step's, except attention: a block's weights are [rows, its src_len] contiguous from
  // attention() + row_begin * attention_row_stride().
  virtual void StepBlocks(const int32_t* prev_tokens, const RowBlock* blocks,
                          int32_t num_blocks) = 0;
  virtual int32_t attention_row_stride() const = 0;

  // Natural-log probabilities of the last Step: [rows, V], row-major. Writable so a search may
  // mask entries in place (e.g. </s> before min_len); valid until the next Step.
  virtual float* log_probs() = 0;
  // Integer-only decoders (int8-full): the same log-probs in Q15.16, [rows, V], writable like
  // log_probs() (a search masks here instead); null for the float schemes. A search that gets
  // them ranks hypotheses on exact int32 sums (docs/INT8.md "Generator and beam scores").
  virtual int32_t* log_probs_q16() { return nullptr; }
  // Attention weights of the last Step: [rows, src_len] (zero outside local windows); null
  // when the model has no attention. Valid until the next Step.
  virtual const float* attention() const = 0;

  virtual int32_t rows() const = 0;
  virtual int32_t src_len() const = 0;
  virtual int32_t vocab_size() const = 0;
  virtual int32_t bos_id() const = 0;
  virtual int32_t eos_id() const = 0;

 protected:
  ~SequenceDecoder() = default;  // not owned through this interface
};

}  // namespace edgenmt

#endif  // EDGENMT_DECODER_SEQUENCE_DECODER_H_
