// The output layer (docs/MODEL.md step 7): log_softmax(W_o h̃_t + b_o) with generator.weight
// [V_t, H] and generator.bias [V_t]. No arena: it writes straight into the caller's [rows, V].
#ifndef EDGENMT_LAYERS_GENERATOR_H_
#define EDGENMT_LAYERS_GENERATOR_H_

#include <stdint.h>

#include "edgenmt/model.h"
#include "error_detail.h"
#include "edgenmt/arena.h"
#include "kernels/kernel_table.h"
#include "layers/weights.h"

namespace edgenmt {

class Generator {
 public:
  Status Prepare(const Model& model, Arena* arena, ErrorDetail* detail);

  // attentional: [rows, H]; log_probs: [rows, V] natural-log probabilities.
  void Compute(const KernelTable& k, int32_t rows, const float* attentional,
               float* log_probs) const;

  int32_t vocab_size() const { return vocab_size_; }

 private:
  int32_t vocab_size_ = 0;
  int32_t hidden_size_ = 0;
  MatrixWeights weight_;
  const float* bias_ = nullptr;
};

}  // namespace edgenmt

#endif  // EDGENMT_LAYERS_GENERATOR_H_
