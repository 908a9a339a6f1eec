// The RNN's operations in the float scheme (float32, int8 hybrid) over the scheme's core
// (numerics/float_numerics.h): cells, the bridge, attention scores and context, local-p. The
// generic RNN model (rnn/) is instantiated with this or rnn/integer_rnn_numerics.h, which has
// the same members and contracts (rnn/rnn_numerics_interface.h checks it):
//
//   types    State (LSTM c / GRU state), Memory (encoder states for scores and context),
//            Position (local-p p_t), CellWeights
//   binding  BindCell
//   compute  InputLinear, CellStep, Bridge*, DotScores / GeneralScores, LocalPWindow,
//            LocalPGaussian, Context
#ifndef EDGENMT_RNN_FLOAT_RNN_NUMERICS_H_
#define EDGENMT_RNN_FLOAT_RNN_NUMERICS_H_

#include <stddef.h>
#include <stdint.h>

#include "numerics/float_numerics.h"
#include "rnn/cell_binding.h"

namespace edgenmt {

class FloatRnnNumerics : public FloatNumerics {
 public:
  using State = float;
  using Memory = float;
  using Position = float;
  // The encoder's top-layer output doubles as the attention memory (no second copy).
  static constexpr bool kMemoryIsHidden = true;
  // Whether a cell keeps a State beside h (the float GRU's state is h itself).
  static bool HasState(CellType cell) { return cell == CellType::kLstm; }

  struct CellWeights {
    CellType cell = CellType::kLstm;
    int32_t hidden = 0;
    Matrix w_ih, w_hh;
    const float* b_ih = nullptr;
    const float* b_hh = nullptr;
    // [max_rows, G] W_hh h + b_hh: the GRU's, and the LSTM's where W_hh is packed (a packed
    // product writes its output; it does not accumulate into the gates).
    float* hidden_gates = nullptr;
  };

  // The core's Prepare with the RNN's widest product input (the hybrid row scratch) and its
  // kernels. max_width: the widest elementwise vector (unused by the float scheme).
  Status Prepare(const Model& model, const KernelTable* kernels, int32_t max_rows,
                 int32_t max_width, Arena* arena, ErrorDetail* detail, int32_t max_sources = 1);

  Status BindCell(const Model& model, const CellBinding& b, int32_t max_rows, Arena* arena,
                  CellWeights* out, ErrorDetail* detail) const;
  // Elements of Hidden scratch InputLinear needs for `rows` rows of a `cols`-wide input.
  static size_t InputScratchElements(int32_t rows, int32_t cols) {
    return Arena::CheckedSizeProduct(static_cast<size_t>(rows), static_cast<size_t>(cols));
  }

  // gates = W_ih [E[ids]; context; htilde] + b_ih for a cell whose leading input columns are
  // embedding rows; context / htilde may be null (absent parts). scratch: InputScratchElements.
  void InputLinear(const CellWeights& cell, const Embedding& embedding, int32_t rows,
                   const int32_t* ids, const Hidden* context, int32_t context_size,
                   const Hidden* htilde, int32_t htilde_size, Acc* gates, Hidden* scratch) const;

  // ---- recurrence ----------------------------------------------------------------------
  // One step from projected input gates (consumed). h_out / s_out may alias h_in / s_in.
  // memory_out (ignored here, kMemoryIsHidden) is the integer scheme's 16-bit copy of h.
  void CellStep(const CellWeights& cell, int32_t rows, Acc* gates, const Hidden* h_in,
                const State* s_in, Hidden* h_out, State* s_out, Memory* memory_out) const;
  // Initial state from a bridge: h0 = tanh(acc) (also the GRU state), c0 = acc.
  void BridgeHidden(int32_t n, const Acc* acc, Hidden* h, State* gru_state) const;
  void BridgeCellState(const CellWeights& cell, int32_t n, const Acc* acc, State* c) const;
  // Bridge input f_c (the top encoder layer's final cell states, forward then backward half).
  void BridgeCellLinear(const Matrix& w, const CellWeights& fwd, const CellWeights* bwd,
                        int32_t half, const State* final_c, const BiasT* bias, Acc* y) const;

  // ---- attention -----------------------------------------------------------------------
  // scores[r][s] for s in [lo[r], hi[r]] (others may be written too). memory [S, E].
  void DotScores(int32_t rows, const Hidden* query, const Memory* memory, int32_t S, int32_t E,
                 const int32_t* lo, const int32_t* hi, Acc* scores) const;
  void GeneralScores(int32_t rows, const Acc* projected_query, const Memory* memory, int32_t S,
                     int32_t E, const int32_t* lo, const int32_t* hi, Acc* scores) const;
  // p_t from the local-p logit; window [lo, hi].
  void LocalPWindow(Acc logit, int32_t S, int32_t D, Position* p, int32_t* lo, int32_t* hi) const;
  void LocalPGaussian(int32_t lo, int32_t hi, Position p, int32_t D, Weight* weights) const;
  // context[0, E) = sum_{s < n} weights[s] memory[s]
  void Context(int32_t n, const Weight* weights, const Memory* memory, int32_t E,
               Hidden* context) const;
};

}  // namespace edgenmt

#endif  // EDGENMT_RNN_FLOAT_RNN_NUMERICS_H_
