// The RNN's operations in the integer-only scheme (int8-full, docs/INT8.md) over its core
// (numerics/integer_numerics.h): int16 cell states in calibrated Q formats, Q0.15 encoder
// memory and attention weights, Q15.16 local-p positions. Same members and contracts as
// rnn/float_rnn_numerics.h (see there; rnn/rnn_numerics_interface.h checks it).
#ifndef EDGENMT_RNN_INTEGER_RNN_NUMERICS_H_
#define EDGENMT_RNN_INTEGER_RNN_NUMERICS_H_

#include <stddef.h>
#include <stdint.h>

#include "numerics/integer_numerics.h"
#include "rnn/cell_binding.h"

namespace edgenmt {

class IntegerRnnNumerics : public IntegerNumerics {
 public:
  using State = int16_t;     // LSTM c in Q(m).(15 - m); GRU h in Q0.15
  using Memory = int16_t;    // encoder states h̄ in Q0.15
  using Position = int32_t;  // local-p p_t in Q15.16
  static constexpr bool kMemoryIsHidden = false;
  static bool HasState(CellType) { return true; }  // GRU: the Q0.15 h beside its s8 copy

  struct CellWeights {
    CellType cell = CellType::kLstm;
    int32_t hidden = 0;
    IntMatrix w_ih;         // multipliers for the input's scale (an embedding's, or 2^-7)
    IntMatrix w_ih_hidden;  // decoder layer 0: the columns after the embedding (s8 @ 2^-7)
    IntMatrix w_hh;
    const int32_t* b_ih = nullptr;
    const int32_t* b_hh = nullptr;
    int32_t cell_int_bits = 4;  // LSTM cell state Q(m).(15 - m)
    int32_t observer_index = 0;
  };

  // The core's Prepare, the RNN's kernels, and its scratch (only what this model's operations
  // use).
  Status Prepare(const Model& model, const KernelTable* kernels, int32_t max_rows,
                 int32_t max_width, Arena* arena, ErrorDetail* detail, int32_t max_sources = 1);

  // Calibration (the converter, docs/INT8.md "Calibration"): when non-null, every LSTM state
  // update raises max_abs_raw[i] to the largest |c| (raw int16) of cell i, cells numbered in
  // ExpectedActivations() order. Null (the default) costs nothing.
  void set_cell_observer(int32_t* max_abs_raw) { cell_observer_ = max_abs_raw; }

  Status BindCell(const Model& model, const CellBinding& b, int32_t max_rows, Arena* arena,
                  CellWeights* out, ErrorDetail* detail) const;
  static size_t InputScratchElements(int32_t, int32_t) { return 0; }
  void InputLinear(const CellWeights& cell, const Embedding& embedding, int32_t rows,
                   const int32_t* ids, const Hidden* context, int32_t context_size,
                   const Hidden* htilde, int32_t htilde_size, Acc* gates, Hidden* scratch) const;

  void CellStep(const CellWeights& cell, int32_t rows, Acc* gates, const Hidden* h_in,
                const State* s_in, Hidden* h_out, State* s_out, Memory* memory_out) const;
  void BridgeHidden(int32_t n, const Acc* acc, Hidden* h, State* gru_state) const;
  void BridgeCellState(const CellWeights& cell, int32_t n, const Acc* acc, State* c) const;
  void BridgeCellLinear(const Matrix& w, const CellWeights& fwd, const CellWeights* bwd,
                        int32_t half, const State* final_c, const BiasT* bias, Acc* y) const;

  void DotScores(int32_t rows, const Hidden* query, const Memory* memory, int32_t S, int32_t E,
                 const int32_t* lo, const int32_t* hi, Acc* scores) const;
  void GeneralScores(int32_t rows, const Acc* projected_query, const Memory* memory, int32_t S,
                     int32_t E, const int32_t* lo, const int32_t* hi, Acc* scores) const;
  void LocalPWindow(Acc logit, int32_t S, int32_t D, Position* p, int32_t* lo, int32_t* hi) const;
  void LocalPGaussian(int32_t lo, int32_t hi, Position p, int32_t D, Weight* weights) const;
  void Context(int32_t n, const Weight* weights, const Memory* memory, int32_t E,
               Hidden* context) const;

 private:
  void Observe(const CellWeights& cell, const int16_t* state, int32_t n) const;

  int32_t* cell_observer_ = nullptr;
  int16_t* gates16_ = nullptr;  // [2 * max gates]
  int32_t* gates_h_ = nullptr;  // [max gates] GRU's W_hh h + b_hh
  int32_t* wide_ = nullptr;     // [width]
  int8_t* bytes_ = nullptr;     // [width]
  int16_t* query16_ = nullptr;  // [width]
};

}  // namespace edgenmt

#endif  // EDGENMT_RNN_INTEGER_RNN_NUMERICS_H_
