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
SessionLimits LimitsFor(const Model& model, const TranslateOptions& options, KernelBackend backend,
                        bool attention);

}  // namespace edgenmt::cli

#endif  // EDGENMT_TOOLS_CLI_DECODE_FLAGS_H_
