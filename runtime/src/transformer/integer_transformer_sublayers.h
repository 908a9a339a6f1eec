// The Transformer's sublayer arithmetic in the integer-only scheme (int8-full, docs/INT8.md
// "int8-full Transformer"); the same interface as transformer_sublayers.h:
//   * residual stream: int16 in the stack's calibrated Q(m).(15 - m);
//   * sublayer inputs, projections (q, k, v), cached keys and values, attention context and
//     feed-forward hidden layer: int8 with calibrated power-of-two scales 2^(int_bits - 7);
//   * products, layer norms and biases: Q11.20 (int32); norms in integers (mean, variance,
//     reciprocal square root), softmax Q0.15, log-probs Q15.16.
// Every operation goes through the session's kernel table. With an observer set (the
// converter's calibration), each calibrated activation raises its slot to the largest |value|
// seen, in Q11.20.
#ifndef EDGENMT_TRANSFORMER_INTEGER_TRANSFORMER_SUBLAYERS_H_
#define EDGENMT_TRANSFORMER_INTEGER_TRANSFORMER_SUBLAYERS_H_

#include <stdint.h>

#include "decoder/activation_observer.h"
#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "numerics/integer_tensors.h"
#include "transformer/transformer_weights.h"

namespace edgenmt {

class IntegerTransformerSublayers {
 public:
  static constexpr bool kInteger = true;
  using Matrix = IntMatrix;  // int8 per row, constants for input scale 1 (shifted per format)
  using Param = int32_t;     // Q11.20 biases, norms, positions
  using Stream = int16_t;
  using Act = int8_t;
  using Acc = int32_t;
  using Norm = LayerNormWeights<IntegerTransformerSublayers>;
  using FeedForward = FeedForwardWeights<IntegerTransformerSublayers>;

  Status Prepare(const Model& model, const KernelTable* kernels, int32_t max_rows,
                 int32_t max_sources, int32_t max_len, Arena* arena, ErrorDetail* detail);
  int32_t d_model() const { return d_; }
  int32_t ffn() const { return ffn_; }
  // Calibration: max_abs_q20 has one slot per ExpectedActivations() entry; null: off. values:
  // null, or given the observed values too (decoder/activation_observer.h).
  void set_observer(int32_t* max_abs_q20, const ActivationValueSink* values) {
    observer_ = max_abs_q20;
    values_ = values;
  }

  Status BindEmbedding(const Model& model, const char* name, int32_t rows, int32_t cols,
                       Arena* arena, Matrix* out, ErrorDetail* detail) const;
  Status BindMatrix(const Model& model, const char* name, int32_t rows, int32_t cols, Arena* arena,
                    Matrix* out, ErrorDetail* detail) const;
  Status BindVector(const Model& model, const char* name, int32_t size, const Param** out,
                    ErrorDetail* detail) const;
  Status BindPositions(const Model& model, const char* name, int32_t rows, int32_t cols,
                       const Param** out, ErrorDetail* detail) const;
  Status BindFormat(const Model& model, const char* name, ActivationFormat* out,
                    ErrorDetail* detail) const;

  void Embed(int32_t rows, const int32_t* ids, const Matrix& table, const Param* const* positions,
             const ActivationFormat& residual, Stream* x, Acc* scratch) const;
  const Act* Input(int32_t rows, const Stream* x, const Norm& norm,
                   const ActivationFormat& residual, const ActivationFormat& format, Act* y,
                   Acc* scratch) const;
  void Project(const Matrix& w, const Param* bias, int32_t rows, const Act* in,
               const ActivationFormat& in_format, const ActivationFormat& out_format, Act* out,
               Acc* scratch) const;
  void Attend(const Act* q, const Act* const* keys, const Act* const* values, int32_t n,
              const ActivationFormat& q_format, const ActivationFormat& k_format, Act* out,
              float* mean_weights) const;
  void Close(const Matrix& w, const Param* bias, int32_t rows, const Act* context,
             const ActivationFormat& context_format, Stream* x, const Norm& norm,
             const ActivationFormat& residual, Acc* scratch) const;
  void FeedForwardBlock(int32_t rows, const FeedForward& w, const Act* y, Act* hidden, Stream* x,
                        const Norm& norm, const ActivationFormat& residual, Acc* scratch) const;
  const Act* Output(int32_t rows, const Stream* x, const Norm* final_norm,
                    const ActivationFormat& residual, const ActivationFormat& format, Act* y,
                    Acc* scratch) const;
  void Generate(const Matrix& w, const Param* bias, int32_t rows, const Act* in,
                const ActivationFormat& in_format, Acc* logits, float* log_probs,
                int32_t* log_probs_q16) const;

 private:
  // x (int16, Q(m).(15 - m)) -> Q11.20, then LN when norm is non-null (pre-norm inputs).
  void StreamToQ20(int32_t rows, const Stream* x, const ActivationFormat& residual,
                   const Norm* norm, Acc* out) const;
  // o [rows, d] in Q11.20 into the residual stream (post-norm: x = LN(x + o), the sum formed
  // in o's buffer, which is scratch).
  void AddToStream(int32_t rows, Acc* o, Stream* x, const Norm& norm,
                   const ActivationFormat& residual) const;
  void ToInt8(int64_t n, const Acc* v, const ActivationFormat& format, bool relu, Act* y) const;
  void Observe(const ActivationFormat& format, const Acc* v, int64_t n, bool relu) const;
  void ObserveStreamSum(const ActivationFormat& residual, const Stream* x, const Acc* o,
                        int64_t n) const;

  const KernelTable* k_ = nullptr;
  int32_t* observer_ = nullptr;
  const ActivationValueSink* values_ = nullptr;
  int32_t d_ = 0;
  int32_t heads_ = 0;
  int32_t d_head_ = 0;
  int32_t ffn_ = 0;
  bool pre_norm_ = true;
  bool gelu_ = false;
  // sqrt(d_model) and 1 / sqrt(d_head) as (multiplier, shift), derived in integers.
  int32_t embed_multiplier_ = 0;
  int32_t embed_shift_ = 0;
  int32_t score_multiplier_ = 0;
  int32_t score_shift_ = 0;
  int32_t* scores_ = nullptr;   // [max_len]
  int16_t* weights_ = nullptr;  // [max_len]
};

}  // namespace edgenmt

#endif  // EDGENMT_TRANSFORMER_INTEGER_TRANSFORMER_SUBLAYERS_H_
