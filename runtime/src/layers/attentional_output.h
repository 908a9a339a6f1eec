// The attentional hidden state (docs/MODEL.md step 6): h̃_t = tanh(W_c [c_t; h_t]) with
// attn_out.weight [H, E + H] and no bias; without attention h̃_t = tanh(W_c h_t), [H, H].
//
// Arena (Prepare): the concatenation [c_t; h_t] for max_rows rows (with attention only).
#ifndef EDGENMT_LAYERS_ATTENTIONAL_OUTPUT_H_
#define EDGENMT_LAYERS_ATTENTIONAL_OUTPUT_H_

#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"
#include "layers/weights.h"

namespace edgenmt {

class AttentionalOutput {
 public:
  Status Prepare(const Model& model, int32_t max_rows, Arena* arena, ErrorDetail* detail);

  // context: [rows, E] (ignored, may be null, without attention); hidden: [rows, H];
  // out: [rows, H], must not alias the inputs.
  void Compute(const KernelTable& k, int32_t rows, const float* context, const float* hidden,
               float* out) const;

 private:
  bool has_context_ = false;
  int32_t context_size_ = 0;
  int32_t hidden_size_ = 0;
  MatrixWeights weight_;  // [H, E + H] or [H, H]
  float* concat_ = nullptr;        // [max_rows, E + H]
};

}  // namespace edgenmt

#endif  // EDGENMT_LAYERS_ATTENTIONAL_OUTPUT_H_
