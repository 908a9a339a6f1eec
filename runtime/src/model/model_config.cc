// ValidateModelConfig(): the docs/MODEL.md constraints on a config, shared by Model::Load and
// the converter.
#include "edgenmt/internal/fixed_point.h"
#include "edgenmt/model.h"
#include "error_detail.h"

namespace edgenmt {
namespace {

template <typename... Parts>
Status Invalid(char* detail, size_t detail_size, const Parts&... parts) {
  ErrorDetail text(detail, detail_size);  // straight into the caller's buffer
  return text.Fail(Status::kModelConfigInvalid, parts...);
}

// One size bound. Out of line, with the value passed in rather than a table of them on the
// stack: Translator::Init reaches ValidateModelConfig through ExpectedActivations, at the
// bottom of its deepest call chain, and a microcontroller's stack budget is 1 KiB.
__attribute__((noinline)) Status CheckSize(const char* name, int32_t value, int32_t lo, int32_t hi,
                                           char* detail, size_t detail_size) {
  if (value >= lo && value <= hi) return Status::kOk;
  return Invalid(detail, detail_size, "config.", name, ": ", static_cast<int>(value), " not in [",
                 static_cast<int>(lo), ", ", static_cast<int>(hi), "]");
}

// The fields every model type has. Vocabularies always hold the 4 special tokens <pad> <unk>
// <s> </s>.
Status CheckCommonSizes(const ModelConfig& c, char* detail, size_t detail_size) {
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("src_vocab_size", c.src_vocab_size, 4, kMaxModelDim, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("tgt_vocab_size", c.tgt_vocab_size, 4, kMaxModelDim, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("enc_layers", c.enc_layers, 1, kMaxModelLayers, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("dec_layers", c.dec_layers, 1, kMaxModelLayers, detail, detail_size));
  return CheckSize("max_src_len", c.max_src_len, 1, kMaxModelDim, detail, detail_size);
}

// The common fields and the `transformer` part; the RNN's fields are not read.
Status ValidateTransformerConfig(const ModelConfig& c, char* detail, size_t detail_size) {
  const TransformerConfig& t = c.transformer;
  if (static_cast<uint8_t>(t.activation) > static_cast<uint8_t>(FeedForwardActivation::kGelu))
    return Invalid(detail, detail_size, "config.transformer.activation: unknown value ",
                   static_cast<int>(t.activation));
  if (static_cast<uint8_t>(t.norm) > static_cast<uint8_t>(NormPlacement::kPost))
    return Invalid(detail, detail_size, "config.transformer.norm: unknown value ",
                   static_cast<int>(t.norm));
  if (static_cast<uint8_t>(t.positions) > static_cast<uint8_t>(PositionEncoding::kLearned))
    return Invalid(detail, detail_size, "config.transformer.positions: unknown value ",
                   static_cast<int>(t.positions));
  EDGENMT_RETURN_IF_ERROR(CheckCommonSizes(c, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("transformer.d_model", t.d_model, 1, kMaxModelDim, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("transformer.heads", t.heads, 1, t.d_model, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("transformer.ffn", t.ffn, 1, kMaxModelDim, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("transformer.max_tgt_len", t.max_tgt_len, 1, kMaxModelDim, detail, detail_size));
  if (t.d_model % t.heads != 0)
    return Invalid(detail, detail_size, "config.transformer.d_model: ", static_cast<int>(t.d_model),
                   " is not a multiple of heads ", static_cast<int>(t.heads));
  return Status::kOk;
}

}  // namespace

Status ValidateModelConfig(const ModelConfig& c, char* detail, size_t detail_size) {
  if (detail != nullptr && detail_size > 0) detail[0] = '\0';
  if (static_cast<uint8_t>(c.tokenizer) > static_cast<uint8_t>(TokenizerType::kWord))
    return Invalid(detail, detail_size, "config.tokenizer: unknown value ",
                   static_cast<int>(c.tokenizer));
  if (static_cast<uint8_t>(c.scheme) > static_cast<uint8_t>(QuantScheme::kInt8Full))
    return Invalid(detail, detail_size, "config.scheme: unknown value ",
                   static_cast<int>(c.scheme));
  if (c.model_type == ModelType::kTransformer)
    return ValidateTransformerConfig(c, detail, detail_size);
  if (c.model_type != ModelType::kRnn)
    return Invalid(detail, detail_size, "config.model_type: unknown value ",
                   static_cast<int>(c.model_type),
                   " (this runtime runs rnn and transformer models)");
  // The RNN's part (ModelConfig::rnn; named as in config.json, where it is flat).
  if (c.rnn.cell != CellType::kLstm && c.rnn.cell != CellType::kGru)
    return Invalid(detail, detail_size, "config.cell: unknown value ",
                   static_cast<int>(c.rnn.cell));
  if (static_cast<uint8_t>(c.rnn.attention) > static_cast<uint8_t>(AttentionType::kBahdanau))
    return Invalid(detail, detail_size, "config.attention: unknown value ",
                   static_cast<int>(c.rnn.attention));
  if (static_cast<uint8_t>(c.rnn.score) > static_cast<uint8_t>(ScoreType::kLocation))
    return Invalid(detail, detail_size, "config.score: unknown value ",
                   static_cast<int>(c.rnn.score));

  EDGENMT_RETURN_IF_ERROR(CheckCommonSizes(c, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("src_embed", c.rnn.src_embed, 1, kMaxModelDim, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("tgt_embed", c.rnn.tgt_embed, 1, kMaxModelDim, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("enc_hidden", c.rnn.enc_hidden, 1, kMaxModelDim, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("dec_hidden", c.rnn.dec_hidden, 1, kMaxModelDim, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(
      CheckSize("attn_hidden", c.rnn.attn_hidden, 0, kMaxModelDim, detail, detail_size));
  EDGENMT_RETURN_IF_ERROR(CheckSize("window", c.rnn.window, 0, kMaxModelDim, detail, detail_size));

  const int32_t E = c.encoder_output_size();
  const int32_t H = c.rnn.dec_hidden;
  const bool windowed =
      c.rnn.attention == AttentionType::kLocalM || c.rnn.attention == AttentionType::kLocalP;
  const bool luong = c.rnn.attention == AttentionType::kGlobal || windowed;
  if (E > kMaxModelDim)
    return Invalid(detail, detail_size, "config.enc_hidden: encoder output size ",
                   static_cast<int>(E), " > ", static_cast<int>(kMaxModelDim));
  if (c.rnn.input_feeding && c.rnn.attention == AttentionType::kNone)
    return Invalid(detail, detail_size, "config.input_feeding: needs attention != none");
  if (luong && c.rnn.score == ScoreType::kDot && E != H)
    return Invalid(detail, detail_size, "config.score: dot needs encoder output size (",
                   static_cast<int>(E), ") == dec_hidden (", static_cast<int>(H), ")");
  if (windowed && c.rnn.window < 1)
    return Invalid(detail, detail_size, "config.window: local attention needs window >= 1, got ",
                   static_cast<int>(c.rnn.window));
  const bool needs_attn_hidden = c.rnn.attention == AttentionType::kBahdanau ||
                                 c.rnn.attention == AttentionType::kLocalP ||
                                 (luong && c.rnn.score == ScoreType::kConcat);
  if (needs_attn_hidden && c.rnn.attn_hidden < 1)
    return Invalid(detail, detail_size,
                   "config.attn_hidden: must be >= 1 for this attention/score");
  if (c.scheme == QuantScheme::kInt8Full && c.rnn.attention == AttentionType::kLocalP &&
      c.max_src_len > fxp::kMaxQ16PositionLength)
    return Invalid(detail, detail_size, "config.max_src_len: ", static_cast<int>(c.max_src_len),
                   " > ", static_cast<int>(fxp::kMaxQ16PositionLength),
                   ", the longest source whose int8-full local-p position fits Q15.16");
  return Status::kOk;
}

}  // namespace edgenmt
