// The CLI's subcommands. Each returns a process exit code (session.h ExitCode).
#ifndef EDGENMT_TOOLS_CLI_COMMANDS_H_
#define EDGENMT_TOOLS_CLI_COMMANDS_H_

namespace edgenmt::cli {

int RunTranslate(int argc, char** argv);  // argv[0] is the subcommand name
int RunEval(int argc, char** argv);
int RunInspect(int argc, char** argv);
int RunPhonemize(int argc, char** argv);  // English text -> phonemes (frontend/)

}  // namespace edgenmt::cli

#endif  // EDGENMT_TOOLS_CLI_COMMANDS_H_
