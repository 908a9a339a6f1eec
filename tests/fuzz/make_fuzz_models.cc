// Writes the fuzzers' fixed models (tests/fuzz/models/*.enmt): one tiny model per architecture
// family of docs/MODEL.md in float32, int8 and int8-full, plus an
// int8 file with zero points that exercises the verifier's quantization checks (no session).
// The files are committed; rerun only when the format version changes:
//   build/<dir>/tests/make_fuzz_models tests/fuzz/models
#include <stdio.h>

#include <fstream>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/model.h"
#include "model_writer.h"
#include "tiny_checkpoint.h"

namespace {

using edgenmt::AttentionType;
using edgenmt::CellType;
using edgenmt::ModelConfig;
using edgenmt::QuantScheme;
using edgenmt::ScoreType;
using edgenmt::TokenizerType;

struct Variant {
  const char* name;
  ModelConfig config;
};

std::vector<Variant> Variants() {
  std::vector<Variant> v;
  auto add = [&](const char* name, auto&& edit) {
    ModelConfig c = edgenmt::testing::TinyConfig();
    edit(c);
    v.push_back({name, c});
  };
  add("lstm-global-general", [](ModelConfig&) {});
  add("gru-global-concat", [](ModelConfig& c) {
    c.rnn.cell = CellType::kGru;
    c.rnn.score = ScoreType::kConcat;
  });
  add("lstm-none", [](ModelConfig& c) {
    c.rnn.attention = AttentionType::kNone;
    c.rnn.input_feeding = false;
  });
  add("lstm-bahdanau", [](ModelConfig& c) {
    c.rnn.attention = AttentionType::kBahdanau;
    c.rnn.score = ScoreType::kConcat;
  });
  add("gru-localp-location", [](ModelConfig& c) {
    c.rnn.cell = CellType::kGru;
    c.rnn.attention = AttentionType::kLocalP;
    c.rnn.score = ScoreType::kLocation;
  });
  add("lstm-localm-dot", [](ModelConfig& c) {
    c.rnn.attention = AttentionType::kLocalM;
    c.rnn.score = ScoreType::kDot;
    c.rnn.bidirectional = false;
    c.rnn.enc_hidden = 8;
    c.enc_layers = 2;
    c.rnn.window = 1;
    c.rnn.reverse_source = true;
  });
  add("lstm-word-nobridge", [](ModelConfig& c) {
    c.tokenizer = TokenizerType::kWord;
    c.rnn.bridge = false;
    c.dec_layers = 1;
    c.src_vocab_size = 33;
  });
  // Transformers: pre-norm ReLU, post-norm GELU with learned positions and its own generator.
  auto transformer = [](ModelConfig& c, edgenmt::NormPlacement norm,
                        edgenmt::FeedForwardActivation activation, bool tied) {
    c.model_type = edgenmt::ModelType::kTransformer;
    c.enc_layers = 2;
    c.dec_layers = 1;
    c.transformer.d_model = 8;
    c.transformer.heads = 2;
    c.transformer.ffn = 12;
    c.transformer.max_tgt_len = 12;
    c.transformer.activation = activation;
    c.transformer.norm = norm;
    c.transformer.positions =
        tied ? edgenmt::PositionEncoding::kSinusoidal : edgenmt::PositionEncoding::kLearned;
    c.transformer.tie_output = tied;
  };
  add("transformer-pre", [&](ModelConfig& c) {
    transformer(c, edgenmt::NormPlacement::kPre, edgenmt::FeedForwardActivation::kRelu, true);
  });
  add("transformer-post-gelu", [&](ModelConfig& c) {
    transformer(c, edgenmt::NormPlacement::kPost, edgenmt::FeedForwardActivation::kGelu, false);
  });
  return v;
}

bool Write(const std::string& path, const std::vector<uint8_t>& bytes) {
  edgenmt::testing::AlignedBuffer buffer(bytes);
  edgenmt::Model model;
  if (model.Load(buffer.data(), buffer.size()) != edgenmt::Status::kOk) {
    fprintf(stderr, "make_fuzz_models: %s does not load: %s\n", path.c_str(), model.error_detail());
    return false;
  }
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    fprintf(stderr, "make_fuzz_models: cannot write %s\n", path.c_str());
    return false;
  }
  printf("%s (%zu bytes)\n", path.c_str(), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: make_fuzz_models OUT_DIR\n");
    return 1;
  }
  const std::string dir = argv[1];
  edgenmt::converter::ConvertOptions options;
  options.created = "2024-01-01";
  options.decoding.beam = 2;  // small stored defaults keep each fuzz execution fast
  options.decoding.max_len = 8;
  bool ok = true;
  for (const Variant& v : Variants()) {
    edgenmt::converter::Checkpoint ckpt;
    ckpt.dir = v.name;
    ckpt.config = v.config;
    ckpt.src_tokens = edgenmt::testing::TinyTokens(v.config.src_vocab_size);
    ckpt.tgt_tokens = edgenmt::testing::TinyTokens(v.config.tgt_vocab_size);
    ckpt.tensors = edgenmt::testing::TinyTensors(v.config);
    edgenmt::converter::ModelFileContents contents =
        edgenmt::converter::MakeModelFileContents(ckpt, options);
    ok &= Write(dir + "/" + v.name + ".enmt", edgenmt::converter::BuildModelFile(contents));
    // The same family in both int8 schemes (int8-full cell formats Q4.11, uncalibrated), so
    // the fuzzers translate every scheme.
    for (const QuantScheme scheme : {QuantScheme::kInt8Hybrid, QuantScheme::kInt8Full}) {
      edgenmt::converter::ConvertOptions quantized = options;
      quantized.scheme = scheme;
      const char* suffix = scheme == QuantScheme::kInt8Full ? ".int8-full.enmt" : ".int8.enmt";
      ok &= Write(dir + "/" + v.name + suffix,
                  edgenmt::converter::BuildModelFile(
                      edgenmt::converter::MakeModelFileContents(ckpt, quantized)));
    }
    if (std::string(v.name) == "lstm-global-general") {
      // The same model with an int8 generator (per-row scales, asymmetric zero points): the
      // verifier's quantization checks get a seed to mutate.
      contents.config.scheme = edgenmt::QuantScheme::kInt8Hybrid;
      for (auto& t : contents.tensors) {
        if (t.name != "generator.weight") continue;
        const int32_t rows = t.shape[0];
        const size_t count = t.data.size() / sizeof(float);
        t.dtype = edgenmt::DType::kI8;
        t.data.assign(count, 3);
        t.scales.assign(static_cast<size_t>(rows), 0.01f);
        t.zero_points.assign(static_cast<size_t>(rows), -2);
        t.axis = 0;
      }
      ok &= Write(dir + "/lstm-global-general-int8-zero-points.enmt",
                  edgenmt::converter::BuildModelFile(contents));
    }
  }
  return ok ? 0 : 1;
}
