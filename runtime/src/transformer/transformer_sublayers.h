// The arithmetic both Transformer stacks share (docs/MODEL.md "Transformer") in the float
// schemes (float32, int8 hybrid: the products go through FloatNumerics): scaled embeddings,
// sublayer inputs and residuals for pre- or post-norm, projections, multi-head attention of
// one query row, the feed-forward block and the generator. integer_transformer_sublayers.h is
// the same interface in integers; transformer_encoder.h and transformer_encoder_decoder.h are
// written once over both. Activation formats are ignored here. Compute calls never fail and never
// allocate.
#ifndef EDGENMT_TRANSFORMER_TRANSFORMER_SUBLAYERS_H_
#define EDGENMT_TRANSFORMER_TRANSFORMER_SUBLAYERS_H_

#include <stdint.h>

#include "decoder/activation_observer.h"
#include "edgenmt/internal/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "numerics/float_numerics.h"
#include "transformer/transformer_weights.h"

namespace edgenmt {

// PyTorch's nn.LayerNorm default, the reference's LAYER_NORM_EPS.
constexpr float kTransformerLayerNormEps = 1e-5f;

class TransformerSublayers {
 public:
  static constexpr bool kInteger = false;
  using Matrix = FloatNumerics::Matrix;
  using Param = float;   // biases, norms, positions
  using Stream = float;  // the residual stream
  using Act = float;     // products' inputs, cached keys and values
  using Acc = float;     // products' outputs
  using Norm = LayerNormWeights<TransformerSublayers>;
  using FeedForward = FeedForwardWeights<TransformerSublayers>;

  // Prepares the products (FloatNumerics) for max_rows rows; `kernels` must outlive this
  // object and have layer_norm_f32, relu_f32 and gelu_f32.
  Status Prepare(const Model& model, const KernelTable* kernels, int32_t max_rows,
                 int32_t max_sources, int32_t max_len, Arena* arena, ErrorDetail* detail);
  int32_t d_model() const { return d_; }
  int32_t ffn() const { return ffn_; }
  // Observation (calibration) is integer-only.
  void set_observer(int32_t*, const ActivationValueSink*) {}

  Status BindEmbedding(const Model& model, const char* name, int32_t rows, int32_t cols,
                       Arena* arena, Matrix* out, ErrorDetail* detail) const;
  Status BindMatrix(const Model& model, const char* name, int32_t rows, int32_t cols, Arena* arena,
                    Matrix* out, ErrorDetail* detail) const;
  Status BindVector(const Model& model, const char* name, int32_t size, const Param** out,
                    ErrorDetail* detail) const;
  Status BindPositions(const Model& model, const char* name, int32_t rows, int32_t cols,
                       const Param** out, ErrorDetail* detail) const;
  Status BindFormat(const Model&, const char*, ActivationFormat*, ErrorDetail*) const {
    return Status::kOk;
  }

  // x[r] = table[ids[r]] * sqrt(d) + positions[r] (positions: one [d] row per r).
  void Embed(int32_t rows, const int32_t* ids, const Matrix& table, const Param* const* positions,
             const ActivationFormat& residual, Stream* x, Acc* scratch) const;
  // A sublayer's input over x [rows, d]: LN(x) into y (pre-norm) or x itself (post-norm).
  const Act* Input(int32_t rows, const Stream* x, const Norm& norm,
                   const ActivationFormat& residual, const ActivationFormat& format, Act* y,
                   Acc* scratch) const;
  // out = in W^T + b.
  void Project(const Matrix& w, const Param* bias, int32_t rows, const Act* in,
               const ActivationFormat& in_format, const ActivationFormat& out_format, Act* out,
               Acc* scratch) const;
  // out [d] = concat over heads of softmax(q_h . k_h(j) / sqrt(d_head)) . v_h(j), j < n.
  // mean_weights (n values, or null) receives the weights averaged over the heads.
  void Attend(const Act* q, const Act* const* keys, const Act* const* values, int32_t n,
              const ActivationFormat& q_format, const ActivationFormat& k_format, Act* out,
              float* mean_weights) const;
  // Closes an attention sublayer: o = context W_out^T + b, then x += o (pre-norm) or
  // x = LN(x + o) (post-norm). scratch: [rows, d].
  void Close(const Matrix& w, const Param* bias, int32_t rows, const Act* context,
             const ActivationFormat& context_format, Stream* x, const Norm& norm,
             const ActivationFormat& residual, Acc* scratch) const;
  // The feed-forward sublayer on its input y, closed like Close. hidden: [rows, ffn];
  // scratch: [rows, max(d, ffn)].
  void FeedForwardBlock(int32_t rows, const FeedForward& w, const Act* y, Act* hidden, Stream* x,
                        const Norm& norm, const ActivationFormat& residual, Acc* scratch) const;
  // A stack's output: LN(x) into y with the final norm (pre-norm; final_norm non-null) or x.
  const Act* Output(int32_t rows, const Stream* x, const Norm* final_norm,
                    const ActivationFormat& residual, const ActivationFormat& format, Act* y,
                    Acc* scratch) const;
  // log_probs[r] = log_softmax(in[r] W^T + b) over V = w.rows; logits: [rows, V] scratch.
  // log_probs_q16 is integer-only (null here).
  void Generate(const Matrix& w, const Param* bias, int32_t rows, const Act* in,
                const ActivationFormat& in_format, Acc* logits, float* log_probs,
                int32_t* log_probs_q16) const;

 private:
  void Norm1(int32_t rows, const float* x, const Norm& norm, float* y) const;
  void Residual(int32_t rows, float* x, const float* o, const Norm& norm) const;

  FloatNumerics numerics_;
  int32_t d_ = 0;
  int32_t heads_ = 0;
  int32_t d_head_ = 0;
  int32_t ffn_ = 0;
  bool pre_norm_ = true;
  bool gelu_ = false;
  float embed_scale_ = 1.0f;    // float32(sqrt(d)), as the reference multiplies
  float score_divisor_ = 1.0f;  // float32(sqrt(d_head)), as the reference divides
  float* scores_ = nullptr;     // [2 max_len] Attend scratch
};

}  // namespace edgenmt

#endif  // EDGENMT_TRANSFORMER_TRANSFORMER_SUBLAYERS_H_
