// ExpectedTensors(): docs/MODEL.md's tensor list as code. Keep the two in step.
#include "edgenmt/internal/tensor_layout.h"

#include "error_detail.h"

namespace edgenmt {
namespace {

// prefix + layer (omitted when < 0) + suffix + part, into an ExpectedTensor's name.
void MakeName(char (&name)[kMaxTensorNameLength], const char* prefix, int32_t layer,
              const char* suffix, const char* part = "") {
  WriteTensorName(name, sizeof(name), prefix, layer, suffix, part);
}

// Emits tensors to the visitor; stops (and ignores further Add calls) once it returns false.
class Emitter {
 public:
  Emitter(ExpectedTensorVisitor visitor, void* user) : visitor_(visitor), user_(user) {}

  // Name: prefix + layer (omitted when < 0) + suffix + part. Out of line so that the
  // ExpectedTensor (a 64-byte name) is on the stack once, not in every caller's frame: Model::Load
  // calls the visitor from here, at the bottom of its deepest call chain.
  __attribute__((noinline)) void Add(TensorRole role, int32_t d0, int32_t d1, const char* prefix,
                                     int32_t layer = -1, const char* suffix = "",
                                     const char* part = "") {
    if (stopped_) return;
    ExpectedTensor t{};
    MakeName(t.name, prefix, layer, suffix, part);
    t.role = role;
    t.shape[0] = d0;
    t.rank = 1;
    if (d1 > 0) {
      t.shape[1] = d1;
      t.rank = 2;
    }
    ++count_;
    if (!visitor_(t, user_)) stopped_ = true;
  }
  int32_t count() const { return count_; }

 private:
  ExpectedTensorVisitor visitor_;
  void* user_;
  int32_t count_ = 0;
  bool stopped_ = false;
};

// One attention block's projections: <prefix><l><block>.{q,k,v,out}_proj.{weight,bias}.
void AddAttention(Emitter* out, const char* prefix, int32_t l, const char* block, int32_t d) {
  static const char* const kParts[] = {".q_proj.weight",   ".q_proj.bias",   ".k_proj.weight",
                                       ".k_proj.bias",     ".v_proj.weight", ".v_proj.bias",
                                       ".out_proj.weight", ".out_proj.bias"};
  for (int i = 0; i < 8; ++i) {
    const bool weight = i % 2 == 0;
    out->Add(weight ? TensorRole::kWeight : TensorRole::kBias, d, weight ? d : 0, prefix, l, block,
             kParts[i]);
  }
}

void AddNorm(Emitter* out, const char* prefix, int32_t l, const char* weight, const char* bias,
             int32_t d) {
  out->Add(TensorRole::kNorm, d, 0, prefix, l, weight);
  out->Add(TensorRole::kNorm, d, 0, prefix, l, bias);
}

void AddFeedForward(Emitter* out, const char* prefix, int32_t l, int32_t d, int32_t ffn) {
  out->Add(TensorRole::kWeight, ffn, d, prefix, l, ".linear1.weight");
  out->Add(TensorRole::kBias, ffn, 0, prefix, l, ".linear1.bias");
  out->Add(TensorRole::kWeight, d, ffn, prefix, l, ".linear2.weight");
  out->Add(TensorRole::kBias, d, 0, prefix, l, ".linear2.bias");
}

// converter/reference/transformer.py's state_dict.
int32_t TransformerTensors(const ModelConfig& c, Emitter* out) {
  const TransformerConfig& t = c.transformer;
  const int32_t d = t.d_model;
  out->Add(TensorRole::kEmbedding, c.src_vocab_size, d, "src_embed.weight");
  out->Add(TensorRole::kEmbedding, c.tgt_vocab_size, d, "tgt_embed.weight");
  out->Add(TensorRole::kPosition, c.max_src_len, d, "src_pos");
  out->Add(TensorRole::kPosition, t.max_tgt_len, d, "tgt_pos");
  for (int32_t l = 0; l < c.enc_layers; ++l) {
    AddAttention(out, "encoder.", l, ".self_attn", d);
    AddNorm(out, "encoder.", l, ".norm1.weight", ".norm1.bias", d);
    AddFeedForward(out, "encoder.", l, d, t.ffn);
    AddNorm(out, "encoder.", l, ".norm2.weight", ".norm2.bias", d);
  }
  for (int32_t l = 0; l < c.dec_layers; ++l) {
    AddAttention(out, "decoder.", l, ".self_attn", d);
    AddNorm(out, "decoder.", l, ".norm1.weight", ".norm1.bias", d);
    AddAttention(out, "decoder.", l, ".cross_attn", d);
    AddNorm(out, "decoder.", l, ".norm2.weight", ".norm2.bias", d);
    AddFeedForward(out, "decoder.", l, d, t.ffn);
    AddNorm(out, "decoder.", l, ".norm3.weight", ".norm3.bias", d);
  }
  if (t.norm == NormPlacement::kPre) {
    out->Add(TensorRole::kNorm, d, 0, "encoder_norm.weight");
    out->Add(TensorRole::kNorm, d, 0, "encoder_norm.bias");
    out->Add(TensorRole::kNorm, d, 0, "decoder_norm.weight");
    out->Add(TensorRole::kNorm, d, 0, "decoder_norm.bias");
  }
  if (!t.tie_output) out->Add(TensorRole::kWeight, c.tgt_vocab_size, d, "generator.weight");
  out->Add(TensorRole::kBias, c.tgt_vocab_size, 0, "generator.bias");
  return out->count();
}

}  // namespace

int32_t ExpectedTensors(const ModelConfig& c, ExpectedTensorVisitor visitor, void* user) {
  if (visitor == nullptr || ValidateModelConfig(c, nullptr, 0) != Status::kOk) return 0;
  Emitter out(visitor, user);
  if (c.model_type == ModelType::kTransformer) return TransformerTensors(c, &out);
  const int32_t gates = GateCount(c.rnn.cell);
  const int32_t E = c.encoder_output_size();
  const int32_t H = c.rnn.dec_hidden;
  const int32_t A = c.rnn.attn_hidden;
  const TensorRole kW = TensorRole::kWeight, kB = TensorRole::kBias;

  out.Add(TensorRole::kEmbedding, c.src_vocab_size, c.rnn.src_embed, "src_embed.weight");

  for (int32_t l = 0; l < c.enc_layers; ++l) {
    const int32_t in = l == 0 ? c.rnn.src_embed : E;
    const int32_t rows = gates * c.rnn.enc_hidden;
    for (int32_t dir = 0; dir < (c.rnn.bidirectional ? 2 : 1); ++dir) {
      const char* suffix = dir == 0 ? "" : "_reverse";
      out.Add(kW, rows, in, "encoder.rnn.weight_ih_l", l, suffix);
      out.Add(kW, rows, c.rnn.enc_hidden, "encoder.rnn.weight_hh_l", l, suffix);
      out.Add(kB, rows, 0, "encoder.rnn.bias_ih_l", l, suffix);
      out.Add(kB, rows, 0, "encoder.rnn.bias_hh_l", l, suffix);
    }
  }

  if (c.rnn.bridge) {
    for (int32_t l = 0; l < c.dec_layers; ++l) {
      out.Add(kW, H, E, "bridge.", l, ".h.weight");
      out.Add(kB, H, 0, "bridge.", l, ".h.bias");
      if (c.rnn.cell == CellType::kLstm) {
        out.Add(kW, H, E, "bridge.", l, ".c.weight");
        out.Add(kB, H, 0, "bridge.", l, ".c.bias");
      }
    }
  }

  out.Add(TensorRole::kEmbedding, c.tgt_vocab_size, c.rnn.tgt_embed, "tgt_embed.weight");

  for (int32_t l = 0; l < c.dec_layers; ++l) {
    const int32_t in = l == 0 ? DecoderInputSize(c) : H;
    out.Add(kW, gates * H, in, "decoder.layers.", l, ".weight_ih");
    out.Add(kW, gates * H, H, "decoder.layers.", l, ".weight_hh");
    out.Add(kB, gates * H, 0, "decoder.layers.", l, ".bias_ih");
    out.Add(kB, gates * H, 0, "decoder.layers.", l, ".bias_hh");
  }

  switch (c.rnn.attention) {
    case AttentionType::kNone: break;
    case AttentionType::kBahdanau:
      out.Add(kW, A, H, "attn.query.weight");
      out.Add(kW, A, E, "attn.key.weight");
      out.Add(kB, A, 0, "attn.key.bias");
      out.Add(kW, 1, A, "attn.v.weight");
      break;
    case AttentionType::kGlobal:
    case AttentionType::kLocalM:
    case AttentionType::kLocalP:
      switch (c.rnn.score) {
        case ScoreType::kDot: break;
        case ScoreType::kGeneral: out.Add(kW, E, H, "attn.linear_in.weight"); break;
        case ScoreType::kConcat:
          out.Add(kW, A, H, "attn.query.weight");
          out.Add(kW, A, E, "attn.key.weight");
          out.Add(kW, 1, A, "attn.v.weight");
          break;
        case ScoreType::kLocation: out.Add(kW, c.max_src_len, H, "attn.location.weight"); break;
      }
      if (c.rnn.attention == AttentionType::kLocalP) {
        out.Add(kW, A, H, "attn.predict_w.weight");
        out.Add(kW, 1, A, "attn.predict_v.weight");
      }
      break;
  }

  out.Add(kW, H, c.rnn.attention == AttentionType::kNone ? H : E + H, "attn_out.weight");
  out.Add(kW, c.tgt_vocab_size, H, "generator.weight");
  out.Add(kB, c.tgt_vocab_size, 0, "generator.bias");
  return out.count();
}

namespace {

// The int8-full Transformer's calibrated formats (docs/INT8.md "int8-full Transformer"), in
// the order the observer indexes them. Out of line: Translator::Init calls the visitor from here
// at the bottom of its deepest call chain, and this frame should be the only one holding an
// ExpectedTensor.
__attribute__((noinline)) int32_t ExpectedTransformerActivations(const ModelConfig& c,
                                                                 ExpectedTensorVisitor visitor,
                                                                 void* user) {
  int32_t count = 0;
  bool go = true;
  auto emit = [&](const char* prefix, int32_t layer, const char* suffix, bool int8) {
    if (!go) return;
    ExpectedTensor t{};
    MakeName(t.name, prefix, layer, suffix);
    t.rank = 0;
    t.role = TensorRole::kWeight;
    t.shape[0] = int8 ? kMinTransformerInt8IntBits : 0;
    t.shape[1] = int8 ? kMaxTransformerIntBits : kMaxTransformerIntBits;
    t.shape[2] = int8 ? 1 : 0;
    ++count;
    go = visitor(t, user);
  };
  emit("encoder.residual", -1, "", false);
  for (int32_t l = 0; l < c.enc_layers; ++l) {
    emit("encoder.", l, ".self_attn.input", true);
    emit("encoder.", l, ".self_attn.q", true);
    emit("encoder.", l, ".self_attn.k", true);
    emit("encoder.", l, ".self_attn.v", true);
    emit("encoder.", l, ".ffn.input", true);
    emit("encoder.", l, ".ffn.hidden", true);
  }
  emit("encoder.memory", -1, "", true);
  emit("decoder.residual", -1, "", false);
  for (int32_t l = 0; l < c.dec_layers; ++l) {
    emit("decoder.", l, ".self_attn.input", true);
    emit("decoder.", l, ".self_attn.q", true);
    emit("decoder.", l, ".self_attn.k", true);
    emit("decoder.", l, ".self_attn.v", true);
    emit("decoder.", l, ".cross_attn.input", true);
    emit("decoder.", l, ".cross_attn.q", true);
    emit("decoder.", l, ".cross_attn.k", true);
    emit("decoder.", l, ".cross_attn.v", true);
    emit("decoder.", l, ".ffn.input", true);
    emit("decoder.", l, ".ffn.hidden", true);
  }
  emit("decoder.output", -1, "", true);
  return count;
}

// The int8-full LSTM's cell-state formats. Out of line for the same reason.
__attribute__((noinline)) int32_t ExpectedLstmActivations(const ModelConfig& c,
                                                          ExpectedTensorVisitor visitor,
                                                          void* user) {
  int32_t count = 0;
  auto emit = [&](const char* prefix, int32_t layer, const char* suffix) {
    ExpectedTensor t{};
    MakeName(t.name, prefix, layer, suffix);
    t.rank = 0;
    t.role = TensorRole::kWeight;
    t.shape[0] = kMinActivationIntBits;
    t.shape[1] = kMaxActivationIntBits;
    ++count;
    return visitor(t, user);
  };
  for (int32_t l = 0; l < c.enc_layers; ++l) {
    if (!emit("encoder.rnn.l", l, ".cell")) return count;
    if (c.rnn.bidirectional && !emit("encoder.rnn.l", l, "_reverse.cell")) return count;
  }
  for (int32_t l = 0; l < c.dec_layers; ++l) {
    if (!emit("decoder.layers.", l, ".cell")) return count;
  }
  return count;
}

}  // namespace

int32_t ExpectedActivations(const ModelConfig& c, ExpectedTensorVisitor visitor, void* user) {
  if (visitor == nullptr || ValidateModelConfig(c, nullptr, 0) != Status::kOk) return 0;
  if (c.scheme != QuantScheme::kInt8Full) return 0;
  if (c.model_type == ModelType::kTransformer) {
    return ExpectedTransformerActivations(c, visitor, user);
  }
  if (c.rnn.cell != CellType::kLstm) return 0;
  return ExpectedLstmActivations(c, visitor, user);
}

}  // namespace edgenmt
