#include "rnn/recurrent_cell.h"

#include "edgenmt/internal/tensor_layout.h"
#include "rnn/float_rnn_numerics.h"
#include "rnn/integer_rnn_numerics.h"
#include "profile_scope.h"

namespace edgenmt {

template <class N>
Status RecurrentCell<N>::Prepare(const N* numerics, const Model& model, const CellBinding& binding,
                                 int32_t max_rows, bool with_step_scratch, Arena* arena,
                                 ErrorDetail* detail) {
  n_ = numerics;
  gate_size_ = GateCount(binding.cell) * binding.hidden_size;
  EDGENMT_RETURN_IF_ERROR(n_->BindCell(model, binding, max_rows, arena, &weights_, detail));
  input_gates_ = with_step_scratch
                     ? arena->AllocateScratchArray<Acc>(static_cast<size_t>(max_rows),
                                                        static_cast<size_t>(gate_size_))
                     : nullptr;
  return Status::kOk;
}

template <class N>
void RecurrentCell<N>::ProjectInput(int32_t rows, const Hidden* x, Acc* gates) const {
  n_->Linear(weights_.w_ih, rows, x, weights_.b_ih, gates, false);
}

template <class N>
void RecurrentCell<N>::ProjectEmbedded(int32_t rows, const int32_t* ids,
                                       const typename N::Embedding& embedding,
                                       const Hidden* context, int32_t context_size,
                                       const Hidden* htilde, int32_t htilde_size, Acc* gates,
                                       Hidden* scratch) const {
  n_->InputLinear(weights_, embedding, rows, ids, context, context_size, htilde, htilde_size, gates,
                  scratch);
}

template <class N>
void RecurrentCell<N>::StepProjected(int32_t rows, Acc* gates, const Hidden* h_in,
                                     const State* s_in, Hidden* h_out, State* s_out,
                                     typename N::Memory* memory_out) const {
  n_->CellStep(weights_, rows, gates, h_in, s_in, h_out, s_out, memory_out);
}

template <class N>
void RecurrentCell<N>::Step(int32_t rows, const Hidden* x, const Hidden* h_in, const State* s_in,
                            Hidden* h_out, State* s_out) const {
  ProfileScope profile(ProfileStage::kRecurrentCell);
  ProjectInput(rows, x, input_gates_);
  StepProjected(rows, input_gates_, h_in, s_in, h_out, s_out);
}

#if defined(EDGENMT_WITH_FLOAT_SCHEMES)  // CMake EDGENMT_FLOAT_SCHEMES
template class RecurrentCell<FloatRnnNumerics>;
#endif
template class RecurrentCell<IntegerRnnNumerics>;

}  // namespace edgenmt
