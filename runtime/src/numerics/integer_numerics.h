// The integer-only numeric scheme's core (QuantScheme::kInt8Full, docs/INT8.md "int8-full"):
// int8 inputs of products at 2^-7 (or a power-of-two scale the caller passes), Q11.20
// accumulations, Q0.15 softmax weights, Q15.16 log-probs. Same members and contracts as
// numerics/float_numerics.h (see there; numerics/numerics_interface.h checks it). The RNN's
// operations over it are rnn/integer_rnn_numerics.h, the Transformer's
// transformer/integer_transformer_sublayers.h. Every product and nonlinearity goes through the
// session's kernel table.
#ifndef EDGENMT_NUMERICS_INTEGER_NUMERICS_H_
#define EDGENMT_NUMERICS_INTEGER_NUMERICS_H_

#include <stddef.h>
#include <stdint.h>

#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "numerics/integer_tensors.h"

namespace edgenmt {

class IntegerNumerics {
 public:
  using Hidden = int8_t;    // s8 @ 2^-7
  using Acc = int32_t;      // Q11.20
  using Weight = int16_t;   // softmax weights in Q0.15
  using BiasT = int32_t;    // Q11.20
  using LogProb = int32_t;  // Q15.16

  using Matrix = IntMatrix;
  using Embedding = IntEmbedding;

  // max_width: the widest elementwise vector (tanh's temporaries); max_rows and max_sources:
  // as the float scheme's (unused here).
  Status Prepare(const Model& model, const KernelTable* kernels, int32_t max_rows,
                 int32_t max_width, Arena* arena, ErrorDetail* detail, int32_t max_sources = 1);
  const KernelTable& kernels() const { return *k_; }

  Status BindEmbedding(const Model& model, const char* name, int32_t rows, int32_t cols,
                       Arena* arena, Embedding* out, ErrorDetail* detail) const;
  static uint32_t EmbeddingScaleBits(const Embedding& e) { return e.scale_bits; }
  Status BindMatrix(const Model& model, const char* name, int32_t rows, int32_t cols, Arena* arena,
                    Matrix* out, ErrorDetail* detail) const;
  Status BindBias(const Model& model, const char* name, int32_t size, const BiasT** out,
                  ErrorDetail* detail) const;

  void Linear(const Matrix& w, int32_t rows, const Hidden* x, const BiasT* bias, Acc* y,
              bool accumulate, int32_t out_features = -1) const;
  void TanhToHidden(int32_t n, const Acc* x, Hidden* y) const;
  void AddAcc(int32_t n, const Acc* a, const Acc* b, Acc* y) const;
  void Softmax(int32_t n, const Acc* scores, Weight* weights) const;
  static float WeightToFloat(Weight w) { return static_cast<float>(w) * (1.0f / 32768.0f); }

  // Q11.20 logits -> Q15.16 log-probs, also as float (exact above -256) for the search's
  // float interface.
  void LogSoftmax(int32_t n, Acc* logits, LogProb* log_probs, float* as_float) const;

 protected:
  const KernelTable* k_ = nullptr;
  int32_t width_ = 0;          // elements of the scratch below
  int16_t* narrow_ = nullptr;  // [width]
};

}  // namespace edgenmt

#endif  // EDGENMT_NUMERICS_INTEGER_NUMERICS_H_
