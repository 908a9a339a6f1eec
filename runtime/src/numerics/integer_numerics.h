// The integer-only numeric scheme (QuantScheme::kInt8Full, docs/INT8.md "int8-full"): int8
// hidden states at 2^-7, int16 cell states in calibrated Q formats, Q11.20 accumulations,
// Q0.15 attention weights and encoder memory, Q15.16 log-probs. Same members and contracts as
// numerics/float_numerics.h (see there); the generic RNN model (rnn/) is written once over both.
// Every product and nonlinearity goes through the session's kernel table.
#ifndef EDGENMT_NUMERICS_INTEGER_NUMERICS_H_
#define EDGENMT_NUMERICS_INTEGER_NUMERICS_H_

#include <stddef.h>
#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "numerics/cell_binding.h"
#include "numerics/integer_tensors.h"

namespace edgenmt {

class IntegerNumerics {
 public:
  using Hidden = int8_t;     // s8 @ 2^-7
  using State = int16_t;     // LSTM c in Q(m).(15 - m); GRU h in Q0.15
  using Acc = int32_t;       // Q11.20
  using Memory = int16_t;    // encoder states h̄ in Q0.15
  using Weight = int16_t;    // attention weights in Q0.15
  using Position = int32_t;  // local-p p_t in Q15.16
  using BiasT = int32_t;     // Q11.20
  using LogProb = int32_t;   // Q15.16
  static constexpr bool kMemoryIsHidden = false;
  static bool HasState(CellType) { return true; }  // GRU: the Q0.15 h beside its s8 copy

  using Matrix = IntMatrix;
  using Embedding = IntEmbedding;
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

  // max_sources: sources decoded at once (DecoderLimits); batched sessions get wider product
  // scratch where the scheme has any.
  Status Prepare(const Model& model, const KernelTable* kernels, int32_t max_rows,
                 int32_t max_width, Arena* arena, ErrorDetail* detail, int32_t max_sources = 1);
  const KernelTable& kernels() const { return *k_; }

  // Calibration (the converter, docs/INT8.md "Calibration"): when non-null, every LSTM state
  // update raises max_abs_raw[i] to the largest |c| (raw int16) of cell i, cells numbered in
  // ExpectedActivations() order. Null (the default) costs nothing.
  void set_cell_observer(int32_t* max_abs_raw) { cell_observer_ = max_abs_raw; }

  Status BindEmbedding(const Model& model, const char* name, int32_t rows, int32_t cols,
                       Arena* arena, Embedding* out, ErrorDetail* detail) const;
  static uint32_t EmbeddingScaleBits(const Embedding& e) { return e.scale_bits; }
  Status BindMatrix(const Model& model, const char* name, int32_t rows, int32_t cols,
                    Arena* arena, Matrix* out, ErrorDetail* detail) const;
  Status BindBias(const Model& model, const char* name, int32_t size, const BiasT** out,
                  ErrorDetail* detail) const;
  Status BindCell(const Model& model, const CellBinding& b, int32_t max_rows, Arena* arena,
                  CellWeights* out, ErrorDetail* detail) const;
  static size_t InputScratchElements(int32_t, int32_t) { return 0; }

  void Linear(const Matrix& w, int32_t rows, const Hidden* x, const BiasT* bias, Acc* y,
              bool accumulate, int32_t out_features = -1) const;
  void InputLinear(const CellWeights& cell, const Embedding& embedding, int32_t rows,
                   const int32_t* ids, const Hidden* context, int32_t context_size,
                   const Hidden* htilde, int32_t htilde_size, Acc* gates, Hidden* scratch) const;

  void CellStep(const CellWeights& cell, int32_t rows, Acc* gates, const Hidden* h_in,
                const State* s_in, Hidden* h_out, State* s_out, Memory* memory_out) const;
  void BridgeHidden(int32_t n, const Acc* acc, Hidden* h, State* gru_state) const;
  void BridgeCellState(const CellWeights& cell, int32_t n, const Acc* acc, State* c) const;
  void BridgeCellLinear(const Matrix& w, const CellWeights& fwd, const CellWeights* bwd,
                        int32_t half, const State* final_c, const BiasT* bias, Acc* y) const;

  void TanhToHidden(int32_t n, const Acc* x, Hidden* y) const;
  void AddAcc(int32_t n, const Acc* a, const Acc* b, Acc* y) const;

  void DotScores(int32_t rows, const Hidden* query, const Memory* memory, int32_t S, int32_t E,
                 const int32_t* lo, const int32_t* hi, Acc* scores) const;
  void GeneralScores(int32_t rows, const Acc* projected_query, const Memory* memory, int32_t S,
                     int32_t E, const int32_t* lo, const int32_t* hi, Acc* scores) const;
  void LocalPWindow(Acc logit, int32_t S, int32_t D, Position* p, int32_t* lo, int32_t* hi) const;
  void Softmax(int32_t n, const Acc* scores, Weight* weights) const;
  void LocalPGaussian(int32_t lo, int32_t hi, Position p, int32_t D, Weight* weights) const;
  void Context(int32_t n, const Weight* weights, const Memory* memory, int32_t E,
               Hidden* context) const;
  static float WeightToFloat(Weight w) { return static_cast<float>(w) * (1.0f / 32768.0f); }

  // Q11.20 logits -> Q15.16 log-probs, also as float (exact above -256) for the search's
  // float interface.
  void LogSoftmax(int32_t n, Acc* logits, LogProb* log_probs, float* as_float) const;

 private:
  void Observe(const CellWeights& cell, const int16_t* state, int32_t n) const;

  const KernelTable* k_ = nullptr;
  int32_t* cell_observer_ = nullptr;
  int32_t width_ = 0;           // elements of the scratch below
  int16_t* gates16_ = nullptr;  // [2 * max gates]
  int32_t* gates_h_ = nullptr;  // [max gates] GRU's W_hh h + b_hh
  int16_t* narrow_ = nullptr;   // [width]
  int32_t* wide_ = nullptr;     // [width]
  int8_t* bytes_ = nullptr;     // [width]
  int16_t* query16_ = nullptr;  // [width]
};

}  // namespace edgenmt

#endif  // EDGENMT_NUMERICS_INTEGER_NUMERICS_H_
