#include "layers/generator.h"

#include "layers/weights.h"
#include "profile_scope.h"

namespace edgenmt {

Status Generator::Prepare(const Model& model, Arena* arena, ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  vocab_size_ = c.tgt_vocab_size;
  hidden_size_ = c.dec_hidden;
  EDGENMT_RETURN_IF_ERROR(BindMatrix(model, "generator.weight", vocab_size_, hidden_size_, arena,
                                     &weight_, detail));
  return BindVectorF32(model, "generator.bias", vocab_size_, &bias_, detail);
}

void Generator::Compute(const KernelTable& k, int32_t rows, const float* attentional,
                        float* log_probs) const {
  ProfileScope profile(ProfileStage::kOutputProjection);
  ApplyLinear(k, rows, attentional, weight_, bias_, log_probs, false);
  for (int32_t r = 0; r < rows; ++r) {
    float* row = log_probs + static_cast<int64_t>(r) * vocab_size_;
    k.log_softmax_f32(vocab_size_, row, row);
  }
}

}  // namespace edgenmt
