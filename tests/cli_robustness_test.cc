// The command-line tools against bad input (issue 5, parts 3 to 5; docs/ERRORS.md):
// `edgenmt translate` keeps going after a bad line (one output line per input line, the bad one
// reported on stderr as "stdin:LINE: Status: detail", exit code 4), unknown characters become
// <unk> with a warning, out-of-range options are usage errors, corrupt model files are exit 2
// with "edgenmt: error: FILE: reason"; edgenmt-convert refuses broken checkpoints and unwritable
// outputs with a message naming the tensor or path and leaves no file behind
// (convert_robustness_test.cc).
//
// The binaries are the ones of this build tree, so the ASan build runs them under ASan/UBSan
// too; a sanitizer report gets its own exit code (86) and fails the test.
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "convert.h"
#include "edgenmt/model.h"
#include "gtest/gtest.h"
#include "model_writer.h"
#include "safetensors.h"
#include "tiny_checkpoint.h"
#include "tool_run_support.h"

namespace edgenmt {
namespace {

using namespace ::edgenmt::tool_testing;  // NOLINT(build/namespaces): the shared test helpers
using testing::TempDir;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

size_t Count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1))
    ++n;
  return n;
}

// ---- edgenmt translate / inspect ----------------------------------------------------------------

// The tiny model (tests/tiny_checkpoint.h): char tokenizer, source vocabulary "a".."g",
// max_src_len 12, written once per test suite.
class CliRobustness : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    converter::ConvertOptions options;
    options.created = "2024-01-01";
    const std::vector<uint8_t> bytes = converter::BuildModelFile(
        converter::MakeModelFileContents(testing::TinyCheckpoint(), options));
    WriteBytes(model_path(), std::string(bytes.begin(), bytes.end()));
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string model_path() { return *dir_ / "tiny.enmt"; }

  RunResult Translate(const std::string& input, const std::string& flags = "") {
    return RunTool(EDGENMT_CLI_PATH, "translate -m " + Quote(model_path()) + " " + flags, scratch_,
                   input);
  }
  // The translation of `line` alone (must succeed).
  std::string TranslateOne(const std::string& line) {
    const RunResult r = Translate(line + "\n");
    EXPECT_EQ(r.exit_code, 0) << line << ": " << r.err;
    const std::vector<std::string> lines = Lines(r.out);
    EXPECT_EQ(lines.size(), 1u) << r.out;
    return lines.empty() ? "" : lines[0];
  }
  RunResult Inspect(const std::string& path) {
    return RunTool(EDGENMT_CLI_PATH, "inspect " + Quote(path), scratch_);
  }

  static TempDir* dir_;
  TempDir scratch_;
};

TempDir* CliRobustness::dir_ = nullptr;

TEST_F(CliRobustness, GoodLinesTranslateWithExitZero) {
  const RunResult r = Translate("abc\ncab\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).size(), 2u) << r.out;
  EXPECT_EQ(r.err.find("error"), std::string::npos) << r.err;
}

TEST_F(CliRobustness, ABadLineNeverLosesTheRestOfTheBatch) {
  const std::string too_long(40, 'a');  // max_src_len is 12
  const std::vector<std::string> input = {
      "abc",    // 1 ok
      "",       // 2 empty
      " \t  ",  // 3 whitespace only
      "a\xff"
      "b",             // 4 invalid UTF-8
      too_long,        // 5 longer than max_src_len
      "cab",           // 6 ok
      "\xc3\x28",      // 7 invalid UTF-8 (bad continuation)
      "\xed\xa0\x80",  // 8 UTF-16 surrogate
      "\xc0\xaf",      // 9 overlong '/'
      "bad",           // 10 ok, last line
  };
  std::string text;
  for (const std::string& line : input) text += line + "\n";
  const RunResult r = Translate(text);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  const std::vector<std::string> out = Lines(r.out);
  ASSERT_EQ(out.size(), input.size()) << "outputs no longer aligned with inputs:\n" << r.out;
  // Each good line gives what it gives alone: the bad lines did not disturb the session.
  for (size_t i : {0u, 5u, 9u}) EXPECT_EQ(out[i], TranslateOne(input[i])) << "line " << i + 1;
  for (size_t i : {1u, 2u, 3u, 4u, 6u, 7u, 8u}) EXPECT_EQ(out[i], "") << "line " << i + 1;
  EXPECT_NE(r.err.find("edgenmt translate: error: stdin:2: SourceEmpty"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("edgenmt translate: error: stdin:3: SourceEmpty"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("edgenmt translate: error: stdin:4: SourceInvalidUtf8"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("edgenmt translate: error: stdin:5: SourceTooLong: source has 40 tokens, "
                       "max_src_len is 12"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("stdin:7: SourceInvalidUtf8"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stdin:8: SourceInvalidUtf8"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stdin:9: SourceInvalidUtf8"), std::string::npos) << r.err;
  EXPECT_EQ(Count(r.err, "error:"), 7u) << r.err;
}

TEST_F(CliRobustness, UnknownCharactersBecomeUnkWithAWarning) {
  const RunResult r = Translate("xyz\na!b\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).size(), 2u);
  EXPECT_NE(
      r.err.find("edgenmt translate: warning: stdin:1: 3 unknown source token(s) mapped to <unk>"),
      std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("stdin:2: 1 unknown source token(s)"), std::string::npos) << r.err;
  // Non-ASCII but valid UTF-8 is unknown too, not invalid; a NUL byte is an unknown character.
  const RunResult utf8 = Translate("\xc3\xa9t\xc3\xa9\n" + std::string("a\0b", 3) + "\n");
  EXPECT_EQ(utf8.exit_code, 0) << utf8.err;
  EXPECT_EQ(Lines(utf8.out).size(), 2u);
  EXPECT_NE(utf8.err.find("stdin:1: 3 unknown"), std::string::npos) << utf8.err;
  EXPECT_NE(utf8.err.find("stdin:2: 1 unknown"), std::string::npos) << utf8.err;
}

TEST_F(CliRobustness, LineEndingsAndAMissingFinalNewline) {
  const std::string alone = TranslateOne("abc");
  const RunResult r = Translate("abc\r\nabc");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out), (std::vector<std::string>{alone, alone}));
  // Uppercase ASCII is lowercased in char mode (documented in tokenizer.h).
  EXPECT_EQ(TranslateOne("ABC"), alone);
  // Surrounding ASCII whitespace is dropped.
  EXPECT_EQ(TranslateOne("  abc\t"), alone);
}

TEST_F(CliRobustness, AHugeLineIsRefusedAndTheNextOneTranslated) {
  const std::string huge(4 << 20, 'a');
  const RunResult r = Translate(huge + "\nabc\n");
  EXPECT_EQ(r.exit_code, 4);
  const std::vector<std::string> out = Lines(r.out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], "");
  EXPECT_EQ(out[1], TranslateOne("abc"));
  EXPECT_NE(r.err.find("stdin:1: SourceTooLong: source has 4194304 tokens, max_src_len is 12"),
            std::string::npos)
      << r.err.substr(0, 400);
}

TEST_F(CliRobustness, EmptyInputIsNoWork) {
  const RunResult r = Translate("");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(CliRobustness, NbestKeepsOutputsAlignedAfterABadLine) {
  const RunResult r = Translate("abc\n\ncab\n", "--beam 3 --nbest 2");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  const std::vector<std::string> out = Lines(r.out);
  ASSERT_EQ(out.size(), 6u) << r.out;  // two lines per source, empty ones for the bad source
  EXPECT_EQ(out[0].rfind("abc\t1\t", 0), 0u) << out[0];
  EXPECT_EQ(out[2], "");
  EXPECT_EQ(out[3], "");
  EXPECT_EQ(out[4].rfind("cab\t1\t", 0), 0u) << out[4];
}

TEST_F(CliRobustness, DecodingOptionsOutOfRangeAreUsageErrors) {
  for (const char* flags : {"--beam 0", "--beam 65", "--beam -1", "--beam x", "--beam 99999999999",
                            "--beam 2 --nbest 3", "--nbest 0", "--max-len 0", "--max-len 4097",
                            "--alpha -1", "--alpha nan", "--beta inf", "--max-len-ratio -0.5",
                            "--min-len -1", "--backend cuda", "--bogus", "--beam"}) {
    const RunResult r = Translate("abc\n", flags);
    EXPECT_EQ(r.exit_code, 1) << flags << ": " << r.err;
    EXPECT_NE(r.err.find("edgenmt translate: error: "), std::string::npos)
        << flags << ": " << r.err;
    EXPECT_EQ(r.out, "") << flags;
  }
}

TEST_F(CliRobustness, TheLargestBeamAndLengthTheCliAllowsStillFitTheArena) {
  // The session is sized from the options, so the CLI's maxima must plan and run.
  const RunResult r =
      Translate("abc\nabcdefgabcde\n", "--beam 64 --nbest 64 --max-len 512 --alpha 0.6 --beta 0.2");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).size(), 128u);
}

TEST_F(CliRobustness, CorruptModelFilesExitTwoNamingTheFile) {
  const std::vector<uint8_t> good = testing::ReadFile(model_path());
  struct Case {
    std::string name, bytes, reason;
  };
  std::string bad_identifier(good.begin(), good.end());
  bad_identifier[4] = 'X';
  std::string future(good.begin(), good.end());
  const std::vector<Case> cases = {
      {"empty.enmt", "", "InvalidArgument: model buffer is empty"},
      {"truncated.enmt",
       std::string(good.begin(), good.begin() + static_cast<long>(good.size() / 3)), "Model"},
      {"text.enmt", "this is not a model\n", "ModelMalformed"},
      {"identifier.enmt", bad_identifier, "identifier"},
  };
  for (const Case& c : cases) {
    const std::string path = scratch_ / c.name;
    WriteBytes(path, c.bytes);
    for (const RunResult& r :
         {Inspect(path),
          RunTool(EDGENMT_CLI_PATH, "translate -m " + Quote(path), scratch_, "abc\n")}) {
      EXPECT_EQ(r.exit_code, 2) << c.name << ": " << r.err;
      EXPECT_EQ(r.err.rfind("edgenmt: error: " + path + ": ", 0), 0u) << r.err;
      EXPECT_NE(r.err.find(c.reason), std::string::npos) << r.err;
      EXPECT_EQ(r.out, "") << c.name;
    }
  }
  const std::string missing = scratch_ / "missing.enmt";
  RunResult r = Inspect(missing);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("edgenmt: error: " + missing + ": No such file", 0), 0u) << r.err;
  r = Inspect(scratch_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  r = Inspect(model_path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("format version " + std::to_string(kFormatVersion)), std::string::npos)
      << r.out;
}

TEST_F(CliRobustness, UsageErrorsExitOne) {
  EXPECT_EQ(RunTool(EDGENMT_CLI_PATH, "", scratch_).exit_code, 1);
  EXPECT_EQ(RunTool(EDGENMT_CLI_PATH, "frobnicate", scratch_).exit_code, 1);
  EXPECT_EQ(RunTool(EDGENMT_CLI_PATH, "translate", scratch_).exit_code, 1);
  EXPECT_EQ(RunTool(EDGENMT_CLI_PATH, "inspect", scratch_).exit_code, 1);
  EXPECT_EQ(RunTool(EDGENMT_CLI_PATH, "inspect a b", scratch_).exit_code, 1);
  EXPECT_EQ(RunTool(EDGENMT_CLI_PATH, "--help", scratch_).exit_code, 0);
}

TEST_F(CliRobustness, UnwritableAlignmentsFileExitsThree) {
  const RunResult r = Translate("abc\n", "--alignments " + Quote(scratch_ / "no-such-dir/a.json"));
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("no-such-dir/a.json"), std::string::npos) << r.err;
}

TEST_F(CliRobustness, EvalDataErrorsExitThreeAndBadWordsAreScoredAsEmpty) {
  auto eval = [&](const std::string& data) {
    return RunTool(EDGENMT_CLI_PATH, "eval -m " + Quote(model_path()) + " --data " + Quote(data),
                   scratch_);
  };
  const std::string missing = scratch_ / "missing.tsv";
  RunResult r = eval(missing);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find(missing + ": cannot open"), std::string::npos) << r.err;
  const std::string no_tab = scratch_ / "no-tab.tsv";
  WriteBytes(no_tab, "abc\ta b\nabc b c\n");
  r = eval(no_tab);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find(no_tab + ":2: expected word<TAB>phonemes"), std::string::npos) << r.err;
  // A word the model refuses (invalid UTF-8, too long) is reported and scored, not fatal.
  const std::string mixed = scratch_ / "mixed.tsv";
  WriteBytes(mixed, "abc\ta b\n\na\xff\tb\n" + std::string(30, 'a') + "\tc\n");
  r = eval(mixed);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("SourceInvalidUtf8"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("SourceTooLong"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("words=3 "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace edgenmt
