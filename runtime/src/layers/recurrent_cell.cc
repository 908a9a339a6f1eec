#include "layers/recurrent_cell.h"

#include "layers/weights.h"
#include "profile_scope.h"

namespace edgenmt {

Status RecurrentCell::Prepare(const Model& model, CellType cell, const char* prefix,
                              const char* suffix, int32_t input_size, int32_t hidden_size,
                              int32_t max_rows, bool with_step_scratch, Arena* arena,
                              ErrorDetail* detail) {
  cell_ = cell;
  input_size_ = input_size;
  hidden_size_ = hidden_size;
  gate_size_ = (cell == CellType::kLstm ? 4 : 3) * hidden_size;
  max_rows_ = max_rows;
  EDGENMT_RETURN_IF_ERROR(BindMatrix(model, NameBuilder(prefix, "weight_ih", suffix).c_str(),
                                     gate_size_, input_size, arena, &w_ih_, detail));
  EDGENMT_RETURN_IF_ERROR(BindMatrix(model, NameBuilder(prefix, "weight_hh", suffix).c_str(),
                                     gate_size_, hidden_size, arena, &w_hh_, detail));
  EDGENMT_RETURN_IF_ERROR(BindVectorF32(model, NameBuilder(prefix, "bias_ih", suffix).c_str(),
                                        gate_size_, &b_ih_, detail));
  EDGENMT_RETURN_IF_ERROR(BindVectorF32(model, NameBuilder(prefix, "bias_hh", suffix).c_str(),
                                        gate_size_, &b_hh_, detail));
  const size_t gate_elements =
      Arena::CheckedSizeProduct(static_cast<size_t>(max_rows), static_cast<size_t>(gate_size_));
  input_gates_ = with_step_scratch ? arena->AllocateArray<float>(gate_elements) : nullptr;
  hidden_gates_ = cell == CellType::kGru ? arena->AllocateArray<float>(gate_elements) : nullptr;
  return Status::kOk;
}

void RecurrentCell::ProjectInput(const KernelTable& k, int32_t rows, const float* x,
                                 float* gates) const {
  ApplyLinear(k, rows, x, w_ih_, b_ih_, gates, false);
}

void RecurrentCell::StepProjected(const KernelTable& k, int32_t rows, float* gates,
                                  const float* h_in, const float* c_in, float* h_out,
                                  float* c_out) const {
  if (cell_ == CellType::kLstm) {
    // z = (W_ih x + b_ih) + (W_hh h + b_hh): the hidden product accumulates into the gates,
    // and reads all of h_in before anything is written, so h_out may alias h_in.
    ApplyLinear(k, rows, h_in, w_hh_, b_hh_, gates, true);
    LstmUpdate(k, rows, hidden_size_, gates, c_in, h_out, c_out);
  } else {
    // GRU needs W_hn h + b_hn apart from the input part (it is scaled by r).
    ApplyLinear(k, rows, h_in, w_hh_, b_hh_, hidden_gates_, false);
    GruUpdate(k, rows, hidden_size_, gates, hidden_gates_, h_in, h_out);
  }
}

void RecurrentCell::Step(const KernelTable& k, int32_t rows, const float* x, const float* h_in,
                         const float* c_in, float* h_out, float* c_out) const {
  ProfileScope profile(ProfileStage::kRecurrentCell);
  ProjectInput(k, rows, x, input_gates_);
  StepProjected(k, rows, input_gates_, h_in, c_in, h_out, c_out);
}

}  // namespace edgenmt
