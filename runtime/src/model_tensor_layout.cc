// ExpectedTensors(): docs/MODEL.md's tensor list as code. Keep the two in step.
#include <stdio.h>

#include "edgenmt/tensor_layout.h"

namespace edgenmt {
namespace {

// Emits tensors to the visitor; stops (and ignores further Add calls) once it returns false.
class Emitter {
 public:
  Emitter(ExpectedTensorVisitor visitor, void* user) : visitor_(visitor), user_(user) {}

  void Add(TensorRole role, int32_t d0, int32_t d1, const char* fmt, int32_t layer = 0,
           const char* suffix = "") {
    if (stopped_) return;
    ExpectedTensor t{};
    snprintf(t.name, sizeof(t.name), fmt, static_cast<int>(layer), suffix);
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

}  // namespace

int32_t ExpectedTensors(const ModelConfig& c, ExpectedTensorVisitor visitor, void* user) {
  if (visitor == nullptr || ValidateModelConfig(c, nullptr, 0) != Status::kOk) return 0;
  Emitter out(visitor, user);
  const int32_t gates = GateCount(c.cell);
  const int32_t E = c.encoder_output_size();
  const int32_t H = c.dec_hidden;
  const int32_t A = c.attn_hidden;
  const TensorRole kW = TensorRole::kWeight, kB = TensorRole::kBias;

  out.Add(TensorRole::kEmbedding, c.src_vocab_size, c.src_embed, "src_embed.weight");

  for (int32_t l = 0; l < c.enc_layers; ++l) {
    const int32_t in = l == 0 ? c.src_embed : E;
    const int32_t rows = gates * c.enc_hidden;
    for (int32_t dir = 0; dir < (c.bidirectional ? 2 : 1); ++dir) {
      const char* suffix = dir == 0 ? "" : "_reverse";
      out.Add(kW, rows, in, "encoder.rnn.weight_ih_l%d%s", l, suffix);
      out.Add(kW, rows, c.enc_hidden, "encoder.rnn.weight_hh_l%d%s", l, suffix);
      out.Add(kB, rows, 0, "encoder.rnn.bias_ih_l%d%s", l, suffix);
      out.Add(kB, rows, 0, "encoder.rnn.bias_hh_l%d%s", l, suffix);
    }
  }

  if (c.bridge) {
    for (int32_t l = 0; l < c.dec_layers; ++l) {
      out.Add(kW, H, E, "bridge.%d.h.weight", l);
      out.Add(kB, H, 0, "bridge.%d.h.bias", l);
      if (c.cell == CellType::kLstm) {
        out.Add(kW, H, E, "bridge.%d.c.weight", l);
        out.Add(kB, H, 0, "bridge.%d.c.bias", l);
      }
    }
  }

  out.Add(TensorRole::kEmbedding, c.tgt_vocab_size, c.tgt_embed, "tgt_embed.weight");

  for (int32_t l = 0; l < c.dec_layers; ++l) {
    const int32_t in = l == 0 ? DecoderInputSize(c) : H;
    out.Add(kW, gates * H, in, "decoder.layers.%d.weight_ih", l);
    out.Add(kW, gates * H, H, "decoder.layers.%d.weight_hh", l);
    out.Add(kB, gates * H, 0, "decoder.layers.%d.bias_ih", l);
    out.Add(kB, gates * H, 0, "decoder.layers.%d.bias_hh", l);
  }

  switch (c.attention) {
    case AttentionType::kNone:
      break;
    case AttentionType::kBahdanau:
      out.Add(kW, A, H, "attn.query.weight");
      out.Add(kW, A, E, "attn.key.weight");
      out.Add(kB, A, 0, "attn.key.bias");
      out.Add(kW, 1, A, "attn.v.weight");
      break;
    case AttentionType::kGlobal:
    case AttentionType::kLocalM:
    case AttentionType::kLocalP:
      switch (c.score) {
        case ScoreType::kDot:
          break;
        case ScoreType::kGeneral:
          out.Add(kW, E, H, "attn.linear_in.weight");
          break;
        case ScoreType::kConcat:
          out.Add(kW, A, H, "attn.query.weight");
          out.Add(kW, A, E, "attn.key.weight");
          out.Add(kW, 1, A, "attn.v.weight");
          break;
        case ScoreType::kLocation:
          out.Add(kW, c.max_src_len, H, "attn.location.weight");
          break;
      }
      if (c.attention == AttentionType::kLocalP) {
        out.Add(kW, A, H, "attn.predict_w.weight");
        out.Add(kW, 1, A, "attn.predict_v.weight");
      }
      break;
  }

  out.Add(kW, H, c.attention == AttentionType::kNone ? H : E + H, "attn_out.weight");
  out.Add(kW, c.tgt_vocab_size, H, "generator.weight");
  out.Add(kB, c.tgt_vocab_size, 0, "generator.bias");
  return out.count();
}

int32_t ExpectedActivations(const ModelConfig& c, ExpectedTensorVisitor visitor, void* user) {
  if (visitor == nullptr || ValidateModelConfig(c, nullptr, 0) != Status::kOk) return 0;
  if (c.scheme != QuantScheme::kInt8Full || c.cell != CellType::kLstm) return 0;
  int32_t count = 0;
  auto emit = [&](const char* fmt, int32_t layer, const char* suffix) {
    ExpectedTensor t{};
    snprintf(t.name, sizeof(t.name), fmt, static_cast<int>(layer), suffix);
    t.rank = 0;
    t.role = TensorRole::kWeight;
    ++count;
    return visitor(t, user);
  };
  for (int32_t l = 0; l < c.enc_layers; ++l) {
    if (!emit("encoder.rnn.l%d%s.cell", l, "")) return count;
    if (c.bidirectional && !emit("encoder.rnn.l%d%s.cell", l, "_reverse")) return count;
  }
  for (int32_t l = 0; l < c.dec_layers; ++l) {
    if (!emit("decoder.layers.%d%s.cell", l, "")) return count;
  }
  return count;
}

}  // namespace edgenmt
