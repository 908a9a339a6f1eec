// edgenmt inspect: everything a model file says about itself, after verification.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "command_line.h"
#include "commands.h"
#include "edgenmt/internal/tensor_layout.h"
#include "edgenmt/translator.h"
#include "session.h"

namespace edgenmt::cli {
namespace {

const char* DTypeName(DType d) {
  switch (d) {
    case DType::kF32: return "f32";
    case DType::kI8: return "i8";
    case DType::kI16: return "i16";
    case DType::kI32: return "i32";
  }
  return "?";
}
const char* CellName(CellType c) { return c == CellType::kLstm ? "lstm" : "gru"; }
const char* AttentionName(AttentionType a) {
  switch (a) {
    case AttentionType::kNone: return "none";
    case AttentionType::kGlobal: return "global";
    case AttentionType::kLocalM: return "local_m";
    case AttentionType::kLocalP: return "local_p";
    case AttentionType::kBahdanau: return "bahdanau";
  }
  return "?";
}
const char* ScoreName(ScoreType s) {
  switch (s) {
    case ScoreType::kDot: return "dot";
    case ScoreType::kGeneral: return "general";
    case ScoreType::kConcat: return "concat";
    case ScoreType::kLocation: return "location";
  }
  return "?";
}
const char* SchemeName(QuantScheme s) {
  switch (s) {
    case QuantScheme::kFloat32: return "float32";
    case QuantScheme::kInt8Hybrid: return "int8 (hybrid)";
    case QuantScheme::kInt8Full: return "int8-full (integer only)";
  }
  return "?";
}

// Real value of element i of a quantized tensor: (q - zero_point) * scale of its channel.
double Dequantize(const TensorView& t, int64_t i) {
  double q = 0.0;
  switch (t.dtype) {
    case DType::kF32: return static_cast<const float*>(t.data)[i];
    case DType::kI8: q = static_cast<const int8_t*>(t.data)[i]; break;
    case DType::kI16: q = static_cast<const int16_t*>(t.data)[i]; break;
    case DType::kI32: q = static_cast<const int32_t*>(t.data)[i]; break;
  }
  int64_t channel = 0;
  if (t.num_scales > 1 && t.quant_axis >= 0) {
    int64_t inner = 1;
    for (int32_t d = t.quant_axis + 1; d < t.rank; ++d) inner *= t.shape[d];
    channel = (i / inner) % t.shape[t.quant_axis];
  }
  const double zero = t.zero_points != nullptr ? t.zero_points[channel] : 0;
  return (q - zero) * t.scales[channel];
}

// 10 log10(signal / noise) of a quantized tensor against the float32 tensor it came from;
// +inf when exact, NaN when the shapes differ.
double SqnrDb(const TensorView& quantized, const TensorView& reference) {
  if (reference.dtype != DType::kF32 || reference.element_count() != quantized.element_count()) {
    return std::nan("");
  }
  const float* w = static_cast<const float*>(reference.data);
  double signal = 0.0, noise = 0.0;
  for (int64_t i = 0; i < quantized.element_count(); ++i) {
    const double e = w[i] - Dequantize(quantized, i);
    signal += static_cast<double>(w[i]) * w[i];
    noise += e * e;
  }
  if (noise == 0.0) return INFINITY;
  return 10.0 * std::log10(signal / noise);
}

std::string ShapeString(const TensorView& t) {
  std::string s = "[";
  for (int32_t i = 0; i < t.rank; ++i) s += (i ? ", " : "") + std::to_string(t.shape[i]);
  return s + "]";
}

void PrintVocabulary(const char* name, const VocabularyView& v) {
  std::printf("  %s: %d tokens (pad %d, unk %d, bos %d, eos %d):", name, v.size, v.pad_id, v.unk_id,
              v.bos_id, v.eos_id);
  const int32_t shown = std::min<int32_t>(v.size, 48);
  for (int32_t i = 0; i < shown; ++i) {
    const TokenView t = v.Token(i);
    std::printf(" %.*s", static_cast<int>(t.size), t.data);
  }
  std::printf("%s\n", shown < v.size ? " ..." : "");
}

}  // namespace

int RunInspect(int argc, char** argv) {
  CommandLine args("edgenmt inspect");
  args.AddPositionals("FILE", "model file (.enmt)");
  args.AddOption("--reference", "the float32 file the quantized one came from");
  std::string error;
  const CommandLine::Outcome parsed = args.Parse(argc, argv, &error);
  if (parsed == CommandLine::Outcome::kHelp) {
    std::printf("%s", args.help().c_str());
    return kExitOk;
  }
  if (parsed == CommandLine::Outcome::kError || args.positional().size() != 1) {
    std::fprintf(
        stderr, "edgenmt inspect: error: %s\n",
        error.empty() ? "usage: edgenmt inspect FILE [--reference FLOAT_FILE]" : error.c_str());
    return kExitUsage;
  }
  LoadedModel loaded;
  if (!loaded.Load(args.positional()[0])) return kExitModel;
  const Model& model = loaded.model();
  const ModelConfig& c = model.config();
  // With --reference, quantized tensors are compared with the float32 file they came from.
  LoadedModel reference;
  const bool compare = args.Has("--reference");
  if (compare && !reference.Load(args.Get("--reference"))) return kExitModel;

  std::printf("file: %s (%zu bytes, format version %u)\n", loaded.path().c_str(),
              model.buffer_size(), model.format_version());
  std::printf("scheme: %s\n", SchemeName(c.scheme));
  std::printf("config:\n");
  if (c.model_type == ModelType::kTransformer) {
    const TransformerConfig& t = c.transformer;
    std::printf("  model type transformer\n");
    std::printf("  encoder %d layer(s), decoder %d layer(s), d_model %d, heads %d, ffn %d (%s)\n",
                c.enc_layers, c.dec_layers, t.d_model, t.heads, t.ffn,
                t.activation == FeedForwardActivation::kGelu ? "gelu" : "relu");
    std::printf(
        "  %s-norm, %s positions, output %s, max_src_len %d, max_tgt_len %d, tokenizer %s\n",
        t.norm == NormPlacement::kPre ? "pre" : "post",
        t.positions == PositionEncoding::kLearned ? "learned" : "sinusoidal",
        t.tie_output ? "tied to tgt_embed" : "own generator.weight", c.max_src_len, t.max_tgt_len,
        c.tokenizer == TokenizerType::kChar ? "char" : "word");
  } else {
    std::printf("  model type rnn\n");
    std::printf("  cell %s, encoder %d layer(s) x %d%s%s, decoder %d layer(s) x %d\n",
                CellName(c.rnn.cell), c.enc_layers, c.rnn.enc_hidden,
                c.rnn.bidirectional ? " bidirectional" : "",
                c.rnn.reverse_source ? ", reversed source" : "", c.dec_layers, c.rnn.dec_hidden);
    std::printf("  embeddings src %d tgt %d, bridge %s, input feeding %s\n", c.rnn.src_embed,
                c.rnn.tgt_embed, c.rnn.bridge ? "yes" : "no", c.rnn.input_feeding ? "yes" : "no");
    std::printf(
        "  attention %s, score %s, attn_hidden %d, window D=%d, max_src_len %d, tokenizer %s\n",
        AttentionName(c.rnn.attention), ScoreName(c.rnn.score), c.rnn.attn_hidden, c.rnn.window,
        c.max_src_len, c.tokenizer == TokenizerType::kChar ? "char" : "word");
  }
  std::printf("vocabularies:\n");
  PrintVocabulary("source", model.src_vocab());
  PrintVocabulary("target", model.tgt_vocab());

  std::printf("tensors (%d):\n", model.num_tensors());
  std::printf("  %-36s %-5s %-14s %10s  %s\n", "name", "dtype", "shape", "bytes", "quantization");
  int64_t parameters = 0, tensor_bytes = 0;
  for (int32_t i = 0; i < model.num_tensors(); ++i) {
    TensorView t{};
    if (model.TensorAt(i, &t) != Status::kOk) continue;
    parameters += t.element_count();
    tensor_bytes += static_cast<int64_t>(t.bytes);
    std::string quant = "-";
    if (t.num_scales > 0 && t.scales != nullptr) {
      float lo = t.scales[0], hi = t.scales[0];
      for (int32_t k = 1; k < t.num_scales; ++k) {
        lo = std::min(lo, t.scales[k]);
        hi = std::max(hi, t.scales[k]);
      }
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s, %d scale(s) in [%.3g, %.3g]",
                    t.num_scales == 1 ? "per tensor" : "per channel", t.num_scales, lo, hi);
      quant = buf;
      if (t.quant_axis >= 0) quant += ", axis " + std::to_string(t.quant_axis);
      TensorView ref{};
      if (compare && reference.model().FindTensor(t.name, &ref) == Status::kOk) {
        char sqnr[48];
        std::snprintf(sqnr, sizeof sqnr, ", SQNR %.1f dB", SqnrDb(t, ref));
        quant += sqnr;
      }
    }
    std::printf("  %-36s %-5s %-14s %10zu  %s\n", t.name, DTypeName(t.dtype),
                ShapeString(t).c_str(), t.bytes, quant.c_str());
  }
  std::printf("  total: %lld parameters, %lld bytes of tensor data\n",
              static_cast<long long>(parameters), static_cast<long long>(tensor_bytes));

  if (compare) {
    std::printf("  file size: %zu bytes = %.1f %% of the reference's %zu bytes\n",
                model.buffer_size(),
                100.0 * static_cast<double>(model.buffer_size()) /
                    static_cast<double>(reference.model().buffer_size()),
                reference.model().buffer_size());
  }
  // int8-full: the calibrated activation formats (docs/INT8.md "Calibration").
  bool first_format = true;
  ForEachExpectedActivation(c, [&](const ExpectedTensor& a) {
    int32_t bits = 0;
    if (model.FindActivationFormat(a.name, &bits) != Status::kOk) return true;
    if (first_format) std::printf("activation formats (calibrated):\n");
    first_format = false;
    if (a.shape[2] == 1) {
      std::printf("  %-36s s8 @ 2^%d\n", a.name, bits - 7);
    } else {
      std::printf("  %-36s Q%d.%d\n", a.name, bits, 15 - bits);
    }
    return true;
  });
  const DecodingOptions& d = model.decoding_defaults();
  std::printf(
      "decoding defaults: beam %d, nbest %d, alpha %.3g, beta %.3g, min_len %d, max_len %d, "
      "max_len_ratio %.3g\n",
      d.beam, d.nbest, d.alpha, d.beta, d.min_len, d.max_len, d.max_len_ratio);
  const ArenaPlan& plan = model.arena_plan();
  std::printf("arena plan (recorded): %llu bytes for max_src_len %d, beam %d\n",
              static_cast<unsigned long long>(plan.bytes), plan.max_src_len, plan.beam);
  SessionLimits limits;
  limits.max_src_len = plan.max_src_len > 0 ? plan.max_src_len : c.max_src_len;
  limits.max_beam = plan.beam > 0 ? plan.beam : 1;
  limits.max_nbest = limits.max_beam;
  ArenaBytes bytes;
  char why[160];
  const Status status = RequiredArenaBytes(model, limits, &bytes, why, sizeof why);
  if (status == Status::kOk) {
    std::printf("arena plan (this runtime): %zu bytes = persistent %zu + scratch %zu%s\n",
                bytes.total, bytes.persistent, bytes.scratch,
                bytes.total == plan.bytes ? " (matches)" : " (differs from the recorded plan)");
    SessionLimits greedy = limits;
    greedy.max_beam = greedy.max_nbest = 1;
    ArenaBytes one;
    if (RequiredArenaBytes(model, greedy, &one) == Status::kOk) {
      std::printf("arena for greedy (beam 1): %zu bytes = persistent %zu + scratch %zu\n",
                  one.total, one.persistent, one.scratch);
    }
  } else {
    std::printf("arena plan (this runtime): %s: %s\n", StatusName(status), why);
  }
  const Provenance p = model.provenance();
  std::printf("provenance: checkpoint sha256 %s, converter %s, created %s, source %s\n",
              p.checkpoint_sha256, p.converter_version, p.created, p.source);
  return kExitOk;
}

}  // namespace edgenmt::cli
