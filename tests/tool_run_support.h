// Shared by the command-line robustness tests (cli_robustness_test.cc: edgenmt translate,
// inspect, eval; convert_robustness_test.cc: edgenmt-convert): running a tool of this build tree
// on a file as its stdin, with its exit code, stdout and stderr, and the sanitizer check (the
// ASan build runs the tools under ASan/UBSan; a finding exits 86 and fails the test).
#ifndef EDGENMT_TESTS_TOOL_RUN_SUPPORT_H_
#define EDGENMT_TESTS_TOOL_RUN_SUPPORT_H_

#include <stdlib.h>
#include <sys/wait.h>

#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tiny_checkpoint.h"

namespace edgenmt {
namespace tool_testing {

struct RunResult {
  int exit_code;
  std::string out, err;
};

inline std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Runs `program args < stdin_text` in `scratch`; a sanitizer finding exits 86.
inline RunResult RunTool(const std::string& program, const std::string& args,
                         const testing::TempDir& scratch, const std::string& stdin_text = "") {
  const std::string in = scratch / "stdin.txt", out = scratch / "stdout.txt",
                    err = scratch / "stderr.txt";
  WriteBytes(in, stdin_text);
  const std::string command =
      "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86 "
      "UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86:print_stacktrace=1 " +
      program + " " + args + " <" + Quote(in) + " >" + Quote(out) + " 2>" + Quote(err);
  const int status = system(command.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = testing::ReadText(out);
  r.err = testing::ReadText(err);
  EXPECT_NE(r.exit_code, 86) << "sanitizer finding:\n" << r.err;
  EXPECT_EQ(r.err.find("runtime error:"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("Sanitizer"), std::string::npos) << r.err;
  return r;
}

// edgenmt-convert's failure contract: the exit code, stderr starting "edgenmt-convert: error: "
// and naming the culprit, and nothing left in the output directory.
inline void ExpectConvertFailure(const RunResult& r, int exit_code, const std::string& culprit,
                                 const testing::TempDir& out_dir) {
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  EXPECT_EQ(r.err.rfind("edgenmt-convert: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(culprit), std::string::npos) << "stderr does not name " << culprit << ":\n"
                                                    << r.err;
  EXPECT_TRUE(out_dir.List().empty()) << "output directory not empty after a failure";
}

}  // namespace tool_testing
}  // namespace edgenmt

#endif  // EDGENMT_TESTS_TOOL_RUN_SUPPORT_H_
