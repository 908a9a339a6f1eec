// The float numeric scheme's core: float32 activations with float32 weights
// (QuantScheme::kFloat32) or int8 per-row weights multiplied by the hybrid kernel (kInt8Hybrid,
// docs/INT8.md "int8"). One of the two schemes (the other: numerics/integer_numerics.h, the same
// member names and contracts, numerics/numerics_interface.h checks it):
//
//   types    Hidden (inputs of products), Acc (product outputs, scores, logits), Weight
//            (softmax outputs), BiasT, LogProb, Matrix / Embedding
//   binding  BindEmbedding / BindMatrix / BindBias: validate a tensor's storage and shape, keep
//            pointers into the model buffer, derive constants into the arena
//   compute  Linear, TanhToHidden, AddAcc, Softmax, LogSoftmax
//
// Each model type adds its own operations over this core in its folder (the RNN's cells,
// bridge, attention scores and local-p: rnn/float_rnn_numerics.h; the Transformer's sublayers:
// transformer/transformer_sublayers.h). Prepare checks that the kernel table has every kernel
// the core calls (a backend lacking one is refused at init, never skipped) and takes its
// scratch from the arena. Compute calls never fail and never allocate; callers validate shapes
// and ids.
#ifndef EDGENMT_NUMERICS_FLOAT_NUMERICS_H_
#define EDGENMT_NUMERICS_FLOAT_NUMERICS_H_

#include <stddef.h>
#include <stdint.h>

#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"

namespace edgenmt {

class FloatNumerics {
 public:
  using Hidden = float;
  using Acc = float;
  using Weight = float;
  using BiasT = float;
  using LogProb = float;

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
  // max_width: the widest input of a product (the hybrid kernel's row scratch); max_sources:
  // sources decoded at once (DecoderLimits); batched sessions get wider product scratch where
  // the scheme has any.
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
  Status BindMatrix(const Model& model, const char* name, int32_t rows, int32_t cols, Arena* arena,
                    Matrix* out, ErrorDetail* detail, bool pack = true) const;
  Status BindBias(const Model& model, const char* name, int32_t size, const BiasT** out,
                  ErrorDetail* detail) const;

  // ---- products ------------------------------------------------------------------------
  // y[r][0, out) = (accumulate ? y : 0) + x[r] . W[m] + bias[m]; out = W.rows when -1.
  void Linear(const Matrix& w, int32_t rows, const Hidden* x, const BiasT* bias, Acc* y,
              bool accumulate, int32_t out_features = -1) const;

  // ---- elementwise ---------------------------------------------------------------------
  void TanhToHidden(int32_t n, const Acc* x, Hidden* y) const;
  void AddAcc(int32_t n, const Acc* a, const Acc* b, Acc* y) const;

  // ---- softmax ---------------------------------------------------------------------------
  void Softmax(int32_t n, const Acc* scores, Weight* weights) const;
  static float WeightToFloat(Weight w) { return w; }

  // ---- output --------------------------------------------------------------------------
  // log_probs = log_softmax(logits) for one row of n values; as_float is log_probs itself.
  void LogSoftmax(int32_t n, Acc* logits, LogProb* log_probs, float* as_float) const;

 protected:
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
