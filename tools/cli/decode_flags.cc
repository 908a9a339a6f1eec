#include "decode_flags.h"

#include <algorithm>

#include "session.h"

namespace edgenmt::cli {

void AddDecodeOptions(CommandLine* command_line) {
  command_line->AddOption("--beam", "beam size K, 1..64 (1 = greedy)");
  command_line->AddOption("--nbest", "hypotheses per source, 1..K");
  command_line->AddOption("--alpha", "length penalty exponent, 0..10");
  command_line->AddOption("--beta", "coverage penalty weight, 0..10");
  command_line->AddOption("--min-len", "tokens before </s> may end a hypothesis, 0..4096");
  command_line->AddOption("--max-len", "maximum output tokens, 1..4096");
  command_line->AddOption("--max-len-ratio",
                          "maximum output tokens per source token, 0..100 (0 = off)");
  command_line->AddOption("--backend",
                          "kernel backend: reference, simd, xnnpack or auto "
                          "(default: simd where the CPU has it)");
}

bool ReadDecodeFlags(const CommandLine& args, TranslateOptions* options, KernelBackend* backend,
                     std::string* error) {
  int beam = options->beam, nbest = options->nbest, min_len = options->min_len,
      max_len = options->max_len;
  if (!args.GetInt("--beam", 1, 64, &beam, error) ||
      !args.GetInt("--nbest", 1, 64, &nbest, error) ||
      !args.GetInt("--min-len", 0, 4096, &min_len, error) ||
      !args.GetInt("--max-len", 1, 4096, &max_len, error) ||
      !args.GetFloat("--alpha", 0.0, 10.0, &options->alpha, error) ||
      !args.GetFloat("--beta", 0.0, 10.0, &options->beta, error) ||
      !args.GetFloat("--max-len-ratio", 0.0, 100.0, &options->max_len_ratio, error)) {
    return false;
  }
  // --beam alone lowers n-best with it (the stored default may be larger than a new beam).
  if (!args.Has("--nbest")) nbest = std::min(nbest, beam);
  if (nbest > beam) {
    *error = "--nbest must not exceed --beam";
    return false;
  }
  options->beam = beam;
  options->nbest = nbest;
  options->min_len = min_len;
  options->max_len = max_len;
  *backend = DefaultKernelBackend();
  if (args.Has("--backend") && !ParseBackend(args.Get("--backend"), backend)) {
    *error = "--backend must be reference, simd, xnnpack or auto";
    return false;
  }
  return true;
}

int32_t ScoringTargetLimit(const Model& model, int32_t max_len) {
  const ModelConfig& c = model.config();
  if (c.model_type == ModelType::kTransformer && max_len + 1 > c.transformer.max_tgt_len) {
    return max_len > c.transformer.max_tgt_len ? max_len : c.transformer.max_tgt_len;
  }
  return max_len + 1;
}

SessionLimits LimitsFor(const Model& model, const TranslateOptions& options, KernelBackend backend,
                        bool attention) {
  SessionLimits limits;
  limits.max_src_len = model.config().max_src_len;
  limits.max_beam = options.beam;
  limits.max_nbest = options.nbest;
  limits.max_tgt_len = options.max_len;
  limits.backend = backend;
  limits.attention = attention;
  return limits;
}

}  // namespace edgenmt::cli
