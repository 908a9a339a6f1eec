#include "decode_flags.h"

#include <algorithm>

#include "session.h"

namespace edgenmt::cli {

std::vector<std::string> DecodeOptionNames() {
  return {"--beam", "--nbest", "--alpha", "--beta", "--min-len", "--max-len", "--max-len-ratio",
          "--backend"};
}

bool ReadDecodeFlags(const Args& args, TranslateOptions* options, KernelBackend* backend,
                     std::string* error) {
  int beam = options->beam, nbest = options->nbest, min_len = options->min_len,
      max_len = options->max_len;
  if (!args.GetInt("--beam", 1, 64, &beam, error) || !args.GetInt("--nbest", 1, 64, &nbest, error) ||
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
  *backend = KernelBackend::kReference;
  if (args.Has("--backend") && !ParseBackend(args.Get("--backend"), backend)) {
    *error = "--backend must be reference, xnnpack or neon";
    return false;
  }
  return true;
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
