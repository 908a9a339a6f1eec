// Decoding flags shared by `translate` and `eval`.
#ifndef EDGENMT_TOOLS_CLI_DECODE_FLAGS_H_
#define EDGENMT_TOOLS_CLI_DECODE_FLAGS_H_

#include <string>
#include <vector>

#include "command_line.h"
#include "edgenmt/translator.h"

namespace edgenmt::cli {

// Declares the options ReadDecodeFlags understands.
void AddDecodeOptions(CommandLine* command_line);

// Overrides `options` with --beam, --nbest, --alpha, --beta, --min-len, --max-len,
// --max-len-ratio and fills *backend from --backend. False with *error on a bad value.
bool ReadDecodeFlags(const CommandLine& args, TranslateOptions* options, KernelBackend* backend,
                     std::string* error);

// Session limits that fit `options` (and the model's defaults, so they are usable too).
// Session target length for decoding up to max_len tokens and scoring a forced-end output
// (max_len + 1), capped at a Transformer's target positions; a max_len beyond them is kept, so
// Init reports it.
int32_t ScoringTargetLimit(const Model& model, int32_t max_len);

SessionLimits LimitsFor(const Model& model, const TranslateOptions& options, KernelBackend backend,
                        bool attention);

}  // namespace edgenmt::cli

#endif  // EDGENMT_TOOLS_CLI_DECODE_FLAGS_H_
