#include "decoder/step_decoder.h"

#include <string.h>

#include "layers/weights.h"

namespace edgenmt {

Status StepDecoder::Prepare(const Model& model, const KernelTable* kernels, int32_t max_src_len,
                            int32_t max_rows, Arena* arena, ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  if (kernels == nullptr || max_src_len < 1 || max_rows < 1) {
    return detail->Fail(Status::kInvalidArgument, "decoder needs kernels, max_src_len >= 1 and "
                        "max_rows >= 1");
  }
  // float32 and the int8 hybrid scheme (int8 weights through BindMatrix/ApplyLinear) share
  // this decoder; int8-full runs the integer decoder (docs/INT8.md).
  if (c.scheme != QuantScheme::kFloat32 && c.scheme != QuantScheme::kInt8Hybrid &&
      c.scheme != QuantScheme::kInt8Full) {
    return detail->Fail(Status::kUnsupported, "quantization scheme ",
                        static_cast<int32_t>(c.scheme), " not supported by the float runtime");
  }
  if (c.dec_layers < 1 || c.dec_layers > kMaxRuntimeLayers) {
    return detail->Fail(Status::kUnsupported, "dec_layers ", c.dec_layers,
                        " out of range (this build supports up to ", kMaxRuntimeLayers, ")");
  }
  if (c.input_feeding && c.attention == AttentionType::kNone) {
    return detail->Fail(Status::kModelConfigInvalid, "input_feeding needs attention");
  }
  k_ = kernels;
  attention_type_ = c.attention;
  lstm_ = c.cell == CellType::kLstm;
  input_feeding_ = c.input_feeding;
  layers_ = c.dec_layers;
  hidden_size_ = c.dec_hidden;
  embed_size_ = c.tgt_embed;
  input_size_ = c.tgt_embed + (c.attention == AttentionType::kBahdanau ? c.encoder_output_size() : 0) +
                (c.input_feeding ? c.dec_hidden : 0);
  vocab_size_ = c.tgt_vocab_size;
  max_rows_ = max_rows;
  const VocabularyView tgt = model.tgt_vocab();
  bos_id_ = tgt.bos_id;
  eos_id_ = tgt.eos_id;
  if (bos_id_ < 0 || bos_id_ >= vocab_size_ || eos_id_ < 0 || eos_id_ >= vocab_size_) {
    return detail->Fail(Status::kModelVocabularyInvalid, "target <s>/</s> ids out of range");
  }

  integer_ = c.scheme == QuantScheme::kInt8Full;
  if (integer_) {
    // int8-full: the integer decoder computes everything; this object keeps the float outputs
    // the search reads (exact images of the Q15.16 log-probs and Q0.15 weights).
    EDGENMT_RETURN_IF_ERROR(integer_decoder_.Prepare(model, max_src_len, max_rows, arena, detail));
    log_probs_ = arena->AllocateArray<float>(static_cast<size_t>(max_rows),
                                             static_cast<size_t>(vocab_size_));
    if (has_attention()) {
      integer_attention_ = arena->AllocateArray<float>(static_cast<size_t>(max_rows),
                                                       static_cast<size_t>(max_src_len));
    }
    rows_ = 0;
    step_ = 0;
    return Status::kOk;
  }
  if (c.scheme == QuantScheme::kInt8Hybrid &&
      (kernels->fully_connected_s8_hybrid == nullptr || kernels->embedding_lookup_s8_f32 == nullptr)) {
    return detail->Fail(Status::kUnsupported, "kernel backend lacks the int8 hybrid kernels");
  }
  EDGENMT_RETURN_IF_ERROR(encoder_.Prepare(model, max_src_len, arena, detail));
  EDGENMT_RETURN_IF_ERROR(bridge_.Prepare(model, arena, detail));
  EDGENMT_RETURN_IF_ERROR(BindMatrix(model, "tgt_embed.weight", vocab_size_, embed_size_, arena,
                                     &embedding_, detail));
  for (int32_t l = 0; l < layers_; ++l) {
    EDGENMT_RETURN_IF_ERROR(cells_[l].Prepare(
        model, c.cell, NameBuilder("decoder.layers.", l, ".").c_str(), "",
        l == 0 ? input_size_ : hidden_size_, hidden_size_, max_rows, true, arena, detail));
  }
  if (has_attention()) {
    EDGENMT_RETURN_IF_ERROR(attention_.Prepare(model, max_src_len, max_rows, arena, detail));
  }
  EDGENMT_RETURN_IF_ERROR(attentional_output_.Prepare(model, max_rows, arena, detail));
  EDGENMT_RETURN_IF_ERROR(generator_.Prepare(model, arena, detail));

  const size_t rows = static_cast<size_t>(max_rows);
  const size_t state = Arena::CheckedSizeProduct(rows, static_cast<size_t>(hidden_size_));
  for (int32_t l = 0; l < layers_; ++l) {
    h_[l] = arena->AllocateArray<float>(state);
    c_[l] = lstm_ ? arena->AllocateArray<float>(state) : nullptr;
  }
  attentional_ = arena->AllocateArray<float>(state);
  input_ = arena->AllocateArray<float>(rows, static_cast<size_t>(input_size_));
  log_probs_ = arena->AllocateArray<float>(rows, static_cast<size_t>(vocab_size_));
  gather_ = arena->AllocateArray<float>(state);
  rows_ = 0;
  step_ = 0;
  return Status::kOk;
}

const float* StepDecoder::attention() const {
  if (!has_attention()) return nullptr;
  return integer_ ? integer_attention_ : attention_.weights();
}

void StepDecoder::Encode(const int32_t* src_ids, int32_t src_len) {
  const KernelTable& k = *k_;
  src_len_ = src_len;
  if (integer_) {
    integer_decoder_.Encode(src_ids, src_len);
    rows_ = 1;
    step_ = 0;
    return;
  }
  encoder_.Encode(k, src_ids, src_len);
  if (has_attention()) attention_.SetSource(k, encoder_.states(), src_len);
  bridge_.Apply(k, encoder_.final_h(), encoder_.final_c(), h_, c_);
  memset(attentional_, 0, sizeof(float) * static_cast<size_t>(hidden_size_));
  rows_ = 1;
  step_ = 0;
}

void StepDecoder::Step(const int32_t* prev_tokens, int32_t rows) {
  const KernelTable& k = *k_;
  const int32_t H = hidden_size_;
  rows_ = rows;
  if (integer_) {
    integer_decoder_.Step(prev_tokens, rows, step_, log_probs_, integer_attention_);
    ++step_;
    return;
  }
  // Layer-0 input u = [E_tgt[y]; c_t (bahdanau); h̃_{t-1} (input feeding)].
  ApplyEmbedding(k, rows, prev_tokens, embedding_, input_, input_size_);
  int32_t column = embed_size_;
  if (attention_type_ == AttentionType::kBahdanau) {
    // Bahdanau attends with the top layer's state before this step.
    attention_.Attend(k, rows, h_[layers_ - 1], step_);
    const int32_t E = attention_.context_size();
    for (int32_t r = 0; r < rows; ++r) {
      memcpy(input_ + static_cast<int64_t>(r) * input_size_ + column,
             attention_.context() + static_cast<int64_t>(r) * E,
             sizeof(float) * static_cast<size_t>(E));
    }
    column += E;
  }
  if (input_feeding_) {
    for (int32_t r = 0; r < rows; ++r) {
      memcpy(input_ + static_cast<int64_t>(r) * input_size_ + column,
             attentional_ + static_cast<int64_t>(r) * H, sizeof(float) * static_cast<size_t>(H));
    }
  }
  // Stacked cells, states updated in place.
  for (int32_t l = 0; l < layers_; ++l) {
    const float* x = l == 0 ? input_ : h_[l - 1];
    cells_[l].Step(k, rows, x, h_[l], c_[l], h_[l], c_[l]);
  }
  const float* top = h_[layers_ - 1];
  if (attention_type_ == AttentionType::kGlobal || attention_type_ == AttentionType::kLocalM ||
      attention_type_ == AttentionType::kLocalP) {
    attention_.Attend(k, rows, top, step_);
  }
  attentional_output_.Compute(k, rows, has_attention() ? attention_.context() : nullptr, top,
                              attentional_);
  generator_.Compute(k, rows, attentional_, log_probs_);
  ++step_;
}

void StepDecoder::Gather(float* buffer, int32_t width, const int32_t* parents,
                         int32_t new_rows) {
  const size_t row_bytes = sizeof(float) * static_cast<size_t>(width);
  for (int32_t r = 0; r < new_rows; ++r) {
    memcpy(gather_ + static_cast<int64_t>(r) * width,
           buffer + static_cast<int64_t>(parents[r]) * width, row_bytes);
  }
  memcpy(buffer, gather_, row_bytes * static_cast<size_t>(new_rows));
}

void StepDecoder::Reorder(const int32_t* parents, int32_t new_rows) {
  const int32_t H = hidden_size_;
  if (integer_) {
    integer_decoder_.Reorder(parents, rows_, new_rows);
    rows_ = new_rows;
    return;
  }
  for (int32_t l = 0; l < layers_; ++l) {
    Gather(h_[l], H, parents, new_rows);
    if (lstm_) Gather(c_[l], H, parents, new_rows);
  }
  if (input_feeding_) Gather(attentional_, H, parents, new_rows);
  rows_ = new_rows;
}

}  // namespace edgenmt
