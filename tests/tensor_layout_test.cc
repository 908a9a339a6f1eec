// ExpectedTensors() and ValidateModelConfig(): docs/MODEL.md's tensor list and constraints.
#include "edgenmt/internal/tensor_layout.h"

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace edgenmt {
namespace {

ModelConfig Base() {
  ModelConfig c{};
  c.rnn.cell = CellType::kLstm;
  c.src_vocab_size = 30;
  c.tgt_vocab_size = 40;
  c.rnn.src_embed = 6;
  c.rnn.tgt_embed = 7;
  c.rnn.enc_hidden = 5;
  c.enc_layers = 2;
  c.dec_layers = 2;
  c.rnn.bidirectional = true;
  c.rnn.dec_hidden = 8;
  c.rnn.bridge = true;
  c.rnn.input_feeding = true;
  c.rnn.attention = AttentionType::kGlobal;
  c.rnn.score = ScoreType::kGeneral;
  c.rnn.attn_hidden = 4;
  c.rnn.window = 2;
  c.max_src_len = 12;
  return c;
}

std::map<std::string, std::vector<int32_t>> Layout(const ModelConfig& c) {
  std::map<std::string, std::vector<int32_t>> out;
  ForEachExpectedTensor(c, [&](const ExpectedTensor& t) {
    EXPECT_TRUE(out.emplace(t.name, std::vector<int32_t>(t.shape, t.shape + t.rank)).second)
        << t.name;
    return true;
  });
  return out;
}

using Shape = std::vector<int32_t>;

TEST(TensorLayout, LstmBidirectionalGlobalGeneral) {
  const auto l = Layout(Base());
  // E = 10, H = 8, gates 4.
  EXPECT_EQ(l.at("src_embed.weight"), (Shape{30, 6}));
  EXPECT_EQ(l.at("encoder.rnn.weight_ih_l0"), (Shape{20, 6}));
  EXPECT_EQ(l.at("encoder.rnn.weight_ih_l1_reverse"), (Shape{20, 10}));
  EXPECT_EQ(l.at("encoder.rnn.weight_hh_l1"), (Shape{20, 5}));
  EXPECT_EQ(l.at("encoder.rnn.bias_hh_l0_reverse"), (Shape{20}));
  EXPECT_EQ(l.at("bridge.1.h.weight"), (Shape{8, 10}));
  EXPECT_EQ(l.at("bridge.0.c.bias"), (Shape{8}));
  EXPECT_EQ(l.at("tgt_embed.weight"), (Shape{40, 7}));
  EXPECT_EQ(l.at("decoder.layers.0.weight_ih"), (Shape{32, 7 + 8}));
  EXPECT_EQ(l.at("decoder.layers.1.weight_ih"), (Shape{32, 8}));
  EXPECT_EQ(l.at("decoder.layers.1.bias_ih"), (Shape{32}));
  EXPECT_EQ(l.at("attn.linear_in.weight"), (Shape{10, 8}));
  EXPECT_EQ(l.at("attn_out.weight"), (Shape{8, 18}));
  EXPECT_EQ(l.at("generator.weight"), (Shape{40, 8}));
  EXPECT_EQ(l.at("generator.bias"), (Shape{40}));
  EXPECT_EQ(l.size(), 1u + 16 + 8 + 1 + 8 + 1 + 1 + 2);
}

TEST(TensorLayout, GruNoBridgeHasNoCellStateTensors) {
  ModelConfig c = Base();
  c.rnn.cell = CellType::kGru;
  auto l = Layout(c);
  EXPECT_EQ(l.at("encoder.rnn.weight_ih_l0"), (Shape{15, 6}));
  EXPECT_EQ(l.count("bridge.0.c.weight"), 0u);
  EXPECT_EQ(l.count("bridge.0.h.weight"), 1u);
  c.rnn.bridge = false;
  l = Layout(c);
  EXPECT_EQ(l.count("bridge.0.h.weight"), 0u);
}

TEST(TensorLayout, AttentionVariants) {
  ModelConfig c = Base();
  c.rnn.attention = AttentionType::kBahdanau;
  c.rnn.score = ScoreType::kConcat;
  auto l = Layout(c);
  EXPECT_EQ(l.at("attn.query.weight"), (Shape{4, 8}));
  EXPECT_EQ(l.at("attn.key.weight"), (Shape{4, 10}));
  EXPECT_EQ(l.at("attn.key.bias"), (Shape{4}));
  EXPECT_EQ(l.at("attn.v.weight"), (Shape{1, 4}));
  EXPECT_EQ(l.at("decoder.layers.0.weight_ih"), (Shape{32, 7 + 10 + 8}));

  c.rnn.attention = AttentionType::kGlobal;
  l = Layout(c);
  EXPECT_EQ(l.count("attn.key.bias"), 0u);
  EXPECT_EQ(l.at("decoder.layers.0.weight_ih"), (Shape{32, 7 + 8}));

  c.rnn.attention = AttentionType::kLocalP;
  c.rnn.score = ScoreType::kLocation;
  l = Layout(c);
  EXPECT_EQ(l.at("attn.location.weight"), (Shape{12, 8}));
  EXPECT_EQ(l.at("attn.predict_w.weight"), (Shape{4, 8}));
  EXPECT_EQ(l.at("attn.predict_v.weight"), (Shape{1, 4}));

  c.rnn.attention = AttentionType::kLocalM;
  c.rnn.score = ScoreType::kDot;
  c.rnn.bidirectional = false;
  c.rnn.enc_hidden = 8;
  l = Layout(c);
  EXPECT_EQ(l.count("attn.predict_w.weight"), 0u);
  for (const auto& [name, shape] : l) EXPECT_NE(name.rfind("attn.", 0), 0u) << name;
  EXPECT_EQ(l.at("attn_out.weight"), (Shape{8, 16}));

  c.rnn.attention = AttentionType::kNone;
  c.rnn.input_feeding = false;
  l = Layout(c);
  EXPECT_EQ(l.at("attn_out.weight"), (Shape{8, 8}));
  EXPECT_EQ(l.at("decoder.layers.0.weight_ih"), (Shape{32, 7}));
}

TEST(TensorLayout, RolesAndEarlyStop) {
  int32_t seen = 0;
  const int32_t n = ForEachExpectedTensor(Base(), [&](const ExpectedTensor& t) {
    if (t.rank == 1) {
      EXPECT_EQ(t.role, TensorRole::kBias) << t.name;
    }
    if (std::string(t.name).find("_embed.") != std::string::npos) {
      EXPECT_EQ(t.role, TensorRole::kEmbedding) << t.name;
    }
    return ++seen < 3;
  });
  EXPECT_EQ(n, 3);
  EXPECT_EQ(seen, 3);
}

TEST(TensorLayout, LargestConfigFitsTheBounds) {
  ModelConfig c = Base();
  c.enc_layers = kMaxModelLayers;
  c.dec_layers = kMaxModelLayers;
  c.rnn.attention = AttentionType::kLocalP;
  c.rnn.score = ScoreType::kConcat;
  const int32_t n = ForEachExpectedTensor(c, [](const ExpectedTensor& t) {
    EXPECT_LT(strlen(t.name), static_cast<size_t>(kMaxTensorNameLength - 1)) << t.name;
    return true;
  });
  EXPECT_LE(n, kMaxExpectedTensors);
  EXPECT_GT(n, 0);
}

TEST(TensorLayout, InvalidConfigReportsNothing) {
  ModelConfig c = Base();
  c.enc_layers = 0;
  EXPECT_EQ(ForEachExpectedTensor(c, [](const ExpectedTensor&) { return true; }), 0);
}

TEST(TensorLayout, ActivationsOnlyForInt8FullLstm) {
  ModelConfig c = Base();
  std::vector<std::string> names;
  auto collect = [&](const ModelConfig& config) {
    names.clear();
    return ForEachExpectedActivation(config, [&](const ExpectedTensor& a) {
      names.push_back(a.name);
      return true;
    });
  };
  EXPECT_EQ(collect(c), 0);  // float32
  c.scheme = QuantScheme::kInt8Full;
  EXPECT_EQ(collect(c), 6);
  EXPECT_EQ(names, (std::vector<std::string>{"encoder.rnn.l0.cell", "encoder.rnn.l0_reverse.cell",
                                             "encoder.rnn.l1.cell", "encoder.rnn.l1_reverse.cell",
                                             "decoder.layers.0.cell", "decoder.layers.1.cell"}));
  c.rnn.cell = CellType::kGru;
  EXPECT_EQ(collect(c), 0);
  c.rnn.cell = CellType::kLstm;
  c.scheme = QuantScheme::kInt8Hybrid;
  EXPECT_EQ(collect(c), 0);
}

TEST(ValidateModelConfig, Constraints) {
  char detail[160];
  EXPECT_EQ(ValidateModelConfig(Base(), detail, sizeof(detail)), Status::kOk);
  EXPECT_STREQ(detail, "");
  auto invalid = [&](ModelConfig c, const char* field) {
    EXPECT_EQ(ValidateModelConfig(c, detail, sizeof(detail)), Status::kModelConfigInvalid) << field;
    EXPECT_NE(std::string(detail).find(field), std::string::npos) << detail;
  };
  ModelConfig c = Base();
  c.rnn.score = ScoreType::kDot;
  invalid(c, "dot");
  c.rnn.bidirectional = false;
  c.rnn.enc_hidden = 8;
  EXPECT_EQ(ValidateModelConfig(c, nullptr, 0), Status::kOk);
  c = Base();
  c.rnn.attention = AttentionType::kNone;
  invalid(c, "input_feeding");
  c = Base();
  c.rnn.attention = AttentionType::kLocalM;
  c.rnn.window = 0;
  invalid(c, "window");
  c = Base();
  c.rnn.attention = AttentionType::kBahdanau;
  c.rnn.attn_hidden = 0;
  invalid(c, "attn_hidden");
  c = Base();
  c.src_vocab_size = 3;
  invalid(c, "src_vocab_size");
  c = Base();
  c.max_src_len = 0;
  invalid(c, "max_src_len");
  c = Base();
  c.rnn.enc_hidden = kMaxModelDim;  // E = 2^21
  invalid(c, "enc_hidden");
  c = Base();
  c.dec_layers = kMaxModelLayers + 1;
  invalid(c, "dec_layers");
  c = Base();
  c.tokenizer = static_cast<TokenizerType>(2);
  invalid(c, "tokenizer");
  c = Base();
  c.scheme = static_cast<QuantScheme>(3);
  invalid(c, "scheme");
}

}  // namespace
}  // namespace edgenmt
