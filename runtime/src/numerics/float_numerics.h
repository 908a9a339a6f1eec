// The float numeric scheme: float32 activations with float32 weights (QuantScheme::kFloat32)
// or int8 per-row weights multiplied by the hybrid kernel (kInt8Hybrid, docs/INT8.md "int8").
// One of the two numeric schemes the generic RNN model (rnn/) is instantiated with; the other
// is numerics/integer_numerics.h, with the same member names and contracts:
//
//   types    Hidden (inputs of products: h, h̃, c_t), State (LSTM c / GRU state), Acc (product
//            outputs, scores, logits), Memory (encoder states for scores and context), Weight
//            (attention weights), Position (local-p p_t), BiasT
//   binding  BindEmbedding / BindMatrix / BindBias / BindCell: validate a tensor's storage and
//            shape, keep pointers into the model buffer, derive constants into the arena
//   compute  Linear, InputLinear, CellStep, TanhToHidden, scores, softmax, context, log-probs
//
// Prepare checks that the kernel table has every kernel the scheme calls (a backend lacking one
// is refused at init, never skipped) and takes the scheme's scratch from the arena. Compute
// calls never fail and never allocate; callers validate shapes and ids.
#ifndef EDGENMT_NUMERICS_FLOAT_NUMERICS_H_
#define EDGENMT_NUMERICS_FLOAT_NUMERICS_H_

#include <stddef.h>
#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "numerics/cell_binding.h"

namespace edgenmt {

class FloatNumerics {
 public:
  using Hidden = float;
  using State = float;
  using Acc = float;
  using Memory = float;
  using Weight = float;
  using Position = float;
  using BiasT = float;
  using LogProb = float;
  // The encoder's top-layer output doubles as the attention memory (no second copy).
  static constexpr bool kMemoryIsHidden = true;
  // Whether a cell keeps a State beside h (the float GRU's state is h itself).
  static bool HasState(CellType cell) { return cell == CellType::kLstm; }

  // A [rows, cols] matrix multiplied as y = x W^T: float32, or int8 with one float scale per
  // row (hybrid) and the common int8 scratch where the kernel quantizes each input row.
  struct Matrix {
    int32_t rows = 0;
    int32_t cols = 0;
    const float* f32 = nullptr;
    const int8_t* s8 = nullptr;
    const float* row_scales = nullptr;
    int8_t* scratch = nullptr;
    // float32 weights packed by the backend at Init (KernelTable::pack_fully_connected_f32),
    // or null where the backend reads f32 as stored.
    const void* packed = nullptr;
  };
  using Embedding = Matrix;
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

  // max_sources: sources decoded at once (DecoderLimits); batched sessions get wider product
  // scratch where the scheme has any.
  Status Prepare(const Model& model, const KernelTable* kernels, int32_t max_rows,
                 int32_t max_width, Arena* arena, ErrorDetail* detail, int32_t max_sources = 1);
  const KernelTable& kernels() const { return *k_; }

  // ---- binding -------------------------------------------------------------------------
  Status BindEmbedding(const Model& model, const char* name, int32_t rows, int32_t cols,
                       Arena* arena, Embedding* out, ErrorDetail* detail) const;
  static uint32_t EmbeddingScaleBits(const Embedding&) { return 0; }
  // Hidden-state input (scale irrelevant for float). float32 weights are packed by the backend
  // when it packs (KernelTable::pack_fully_connected_f32) and `pack` (false: embeddings, which
  // are only looked up).
  Status BindMatrix(const Model& model, const char* name, int32_t rows, int32_t cols,
                    Arena* arena, Matrix* out, ErrorDetail* detail, bool pack = true) const;
  Status BindBias(const Model& model, const char* name, int32_t size, const BiasT** out,
                  ErrorDetail* detail) const;
  Status BindCell(const Model& model, const CellBinding& b, int32_t max_rows, Arena* arena,
                  CellWeights* out, ErrorDetail* detail) const;
  // Elements of Hidden scratch InputLinear needs for `rows` rows of a `cols`-wide input.
  static size_t InputScratchElements(int32_t rows, int32_t cols) {
    return Arena::CheckedSizeProduct(static_cast<size_t>(rows), static_cast<size_t>(cols));
  }

  // ---- products ------------------------------------------------------------------------
  // y[r][0, out) = (accumulate ? y : 0) + x[r] . W[m] + bias[m]; out = W.rows when -1.
  void Linear(const Matrix& w, int32_t rows, const Hidden* x, const BiasT* bias, Acc* y,
              bool accumulate, int32_t out_features = -1) const;
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

  // ---- elementwise ---------------------------------------------------------------------
  void TanhToHidden(int32_t n, const Acc* x, Hidden* y) const;
  void AddAcc(int32_t n, const Acc* a, const Acc* b, Acc* y) const;

  // ---- attention -----------------------------------------------------------------------
  // scores[r][s] for s in [lo[r], hi[r]] (others may be written too). memory [S, E].
  void DotScores(int32_t rows, const Hidden* query, const Memory* memory, int32_t S, int32_t E,
                 const int32_t* lo, const int32_t* hi, Acc* scores) const;
  void GeneralScores(int32_t rows, const Acc* projected_query, const Memory* memory, int32_t S,
                     int32_t E, const int32_t* lo, const int32_t* hi, Acc* scores) const;
  // p_t from the local-p logit; window [lo, hi].
  void LocalPWindow(Acc logit, int32_t S, int32_t D, Position* p, int32_t* lo, int32_t* hi) const;
  void Softmax(int32_t n, const Acc* scores, Weight* weights) const;
  void LocalPGaussian(int32_t lo, int32_t hi, Position p, int32_t D, Weight* weights) const;
  // context[0, E) = sum_{s < n} weights[s] memory[s]
  void Context(int32_t n, const Weight* weights, const Memory* memory, int32_t E,
               Hidden* context) const;
  static float WeightToFloat(Weight w) { return w; }

  // ---- output --------------------------------------------------------------------------
  // log_probs = log_softmax(logits) for one row of n values; as_float is log_probs itself.
  void LogSoftmax(int32_t n, Acc* logits, LogProb* log_probs, float* as_float) const;

 private:
  bool packs() const { return k_->pack_fully_connected_f32 != nullptr; }
  Status PackMatrix(const char* name, Arena* arena, Matrix* out, ErrorDetail* detail) const;
  Status BindMatrixS8(const Model& model, const char* name, Arena* arena, Matrix* out,
                      ErrorDetail* detail) const;

  const KernelTable* k_ = nullptr;
  int8_t* scratch_ = nullptr;  // hybrid: [scratch_rows_, widest input] the hybrid kernel's
  int32_t scratch_rows_ = kHybridScratchRows;
};

}  // namespace edgenmt

#endif  // EDGENMT_NUMERICS_FLOAT_NUMERICS_H_
