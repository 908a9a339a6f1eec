#include "layers/attentional_output.h"

#include <string.h>

#include "layers/weights.h"
#include "profile_scope.h"

namespace edgenmt {

Status AttentionalOutput::Prepare(const Model& model, int32_t max_rows, Arena* arena,
                                  ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  has_context_ = c.attention != AttentionType::kNone;
  context_size_ = has_context_ ? c.encoder_output_size() : 0;
  hidden_size_ = c.dec_hidden;
  EDGENMT_RETURN_IF_ERROR(BindMatrix(model, "attn_out.weight", hidden_size_,
                                     context_size_ + hidden_size_, arena, &weight_, detail));
  if (has_context_) {
    concat_ = arena->AllocateArray<float>(static_cast<size_t>(max_rows),
                                          static_cast<size_t>(context_size_ + hidden_size_));
  }
  return Status::kOk;
}

void AttentionalOutput::Compute(const KernelTable& k, int32_t rows, const float* context,
                                const float* hidden, float* out) const {
  ProfileScope profile(ProfileStage::kAttention);
  const int32_t H = hidden_size_;
  const float* input = hidden;
  if (has_context_) {
    const int32_t E = context_size_;
    const int32_t width = E + H;
    for (int32_t r = 0; r < rows; ++r) {
      float* row = concat_ + static_cast<int64_t>(r) * width;
      memcpy(row, context + static_cast<int64_t>(r) * E, sizeof(float) * static_cast<size_t>(E));
      memcpy(row + E, hidden + static_cast<int64_t>(r) * H, sizeof(float) * static_cast<size_t>(H));
    }
    input = concat_;
  }
  ApplyLinear(k, rows, input, weight_, nullptr, out, false);
  k.tanh_f32(rows * H, out, out);
}

}  // namespace edgenmt
