// One LSTM or GRU cell (PyTorch gate order and equations, docs/MODEL.md "Cells"), batched over
// rows (hypotheses, or one row per encoder time step).
//
// Prepare binds weight_ih [G*H, in], weight_hh [G*H, H], bias_ih, bias_hh (G = 4 for LSTM
// i,f,g,o; 3 for GRU r,z,n) named <prefix>weight_ih<suffix> etc., and takes scratch buffers of
// [max_rows, G*H] from the arena (input gates for Step(); GRU's hidden gates). The compute
// calls never allocate.
//
// The input projection is split from the recurrence so the encoder can project all S time
// steps in one matrix product and then run only the W_hh part per step.
#ifndef EDGENMT_LAYERS_RECURRENT_CELL_H_
#define EDGENMT_LAYERS_RECURRENT_CELL_H_

#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "layers/weights.h"

namespace edgenmt {

class RecurrentCell {
 public:
  // max_rows: most rows per call. with_step_scratch: reserve [max_rows, G*H] for Step();
  // callers that only use ProjectInput + StepProjected (the encoder) pass false.
  Status Prepare(const Model& model, CellType cell, const char* prefix, const char* suffix,
                 int32_t input_size, int32_t hidden_size, int32_t max_rows,
                 bool with_step_scratch, Arena* arena, ErrorDetail* detail);

  CellType cell() const { return cell_; }
  int32_t input_size() const { return input_size_; }
  int32_t hidden_size() const { return hidden_size_; }
  // G * H: width of one row of input gates.
  int32_t gate_size() const { return gate_size_; }

  // gates[rows, G*H] = x[rows, in] W_ih^T + b_ih.
  void ProjectInput(const KernelTable& k, int32_t rows, const float* x, float* gates) const;

  // One step from projected input gates (consumed: overwritten). h_in/c_in: [rows, H] previous
  // state; h_out/c_out: [rows, H] new state; h_out may equal h_in and c_out may equal c_in
  // (in-place update). c_in/c_out are ignored (may be null) for GRU.
  void StepProjected(const KernelTable& k, int32_t rows, float* gates, const float* h_in,
                     const float* c_in, float* h_out, float* c_out) const;

  // ProjectInput into the cell's scratch, then StepProjected. rows <= max_rows; needs
  // with_step_scratch at Prepare.
  void Step(const KernelTable& k, int32_t rows, const float* x, const float* h_in,
            const float* c_in, float* h_out, float* c_out) const;

 private:
  CellType cell_ = CellType::kLstm;
  int32_t input_size_ = 0;
  int32_t hidden_size_ = 0;
  int32_t gate_size_ = 0;
  int32_t max_rows_ = 0;
  MatrixWeights w_ih_;
  MatrixWeights w_hh_;
  const float* b_ih_ = nullptr;
  const float* b_hh_ = nullptr;
  float* input_gates_ = nullptr;   // [max_rows, G*H] used by Step()
  float* hidden_gates_ = nullptr;  // [max_rows, G*H] W_hh h + b_hh (GRU keeps it separate)
};

// Gate nonlinearities and state update, given the summed pre-activations (LSTM) or the input
// and hidden projections (GRU). Implemented in lstm_cell.cc / gru_cell.cc.
void LstmUpdate(const KernelTable& k, int32_t rows, int32_t hidden, float* gates,
                const float* c_in, float* h_out, float* c_out);
void GruUpdate(const KernelTable& k, int32_t rows, int32_t hidden, float* input_gates,
               const float* hidden_gates, const float* h_in, float* h_out);

}  // namespace edgenmt

#endif  // EDGENMT_LAYERS_RECURRENT_CELL_H_
