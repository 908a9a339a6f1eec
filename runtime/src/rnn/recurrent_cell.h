// One LSTM or GRU cell of the model (docs/MODEL.md "Cells"), written once for both numeric
// schemes (N = FloatRnnNumerics or IntegerRnnNumerics): the cell binds its tensors through N and
// computes through N's kernels; where the integer scheme needs other math (Q formats in the
// LSTM update) that is N::CellStep, not a second cell. Batched over rows (hypotheses, or one
// row per encoder position).
//
// The input projection is split from the recurrence so the encoder projects all S positions
// in one matrix product and then runs only the W_hh part per position.
#ifndef EDGENMT_RNN_RECURRENT_CELL_H_
#define EDGENMT_RNN_RECURRENT_CELL_H_

#include <stdint.h>

#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "rnn/cell_binding.h"

namespace edgenmt {

template <class N>
class RecurrentCell {
 public:
  using Hidden = typename N::Hidden;
  using State = typename N::State;
  using Acc = typename N::Acc;

  // `numerics` must outlive the cell. with_step_scratch reserves [max_rows, G*H] gates for
  // Step(); callers that project themselves (the encoder, decoder layer 0) pass false.
  Status Prepare(const N* numerics, const Model& model, const CellBinding& binding,
                 int32_t max_rows, bool with_step_scratch, Arena* arena, ErrorDetail* detail);

  int32_t hidden_size() const { return weights_.hidden; }
  int32_t gate_size() const { return gate_size_; }
  const typename N::CellWeights& weights() const { return weights_; }

  // gates[rows, G*H] = x[rows, in] W_ih^T + b_ih (x a hidden-state input).
  void ProjectInput(int32_t rows, const Hidden* x, Acc* gates) const;
  // gates = W_ih [E[ids]; context; htilde] + b_ih (layer 0: embedding rows first; the other
  // parts may be null). scratch: N::InputScratchElements(rows, input width) Hidden values.
  void ProjectEmbedded(int32_t rows, const int32_t* ids, const typename N::Embedding& embedding,
                       const Hidden* context, int32_t context_size, const Hidden* htilde,
                       int32_t htilde_size, Acc* gates, Hidden* scratch) const;
  // One step from projected gates (consumed). h_out / s_out may alias h_in / s_in; s is null
  // where !N::HasState(cell). memory_out: null, or [rows, H] the attention memory copy of h.
  void StepProjected(int32_t rows, Acc* gates, const Hidden* h_in, const State* s_in, Hidden* h_out,
                     State* s_out, typename N::Memory* memory_out = nullptr) const;
  // ProjectInput into the cell's scratch, then StepProjected (needs with_step_scratch).
  void Step(int32_t rows, const Hidden* x, const Hidden* h_in, const State* s_in, Hidden* h_out,
            State* s_out) const;

 private:
  const N* n_ = nullptr;
  typename N::CellWeights weights_;
  int32_t gate_size_ = 0;
  Acc* input_gates_ = nullptr;  // [max_rows, G*H] used by Step()
};

}  // namespace edgenmt

#endif  // EDGENMT_RNN_RECURRENT_CELL_H_
