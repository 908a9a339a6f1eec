// G2P scoring shared by `edgenmt eval`, identical to converter/reference/evaluate.py:
// each word is scored against its closest reference pronunciation (minimum phoneme edit
// distance; ties go to the reference listed first in the data file). WER is the share of
// words whose output differs from that reference; PER is the sum of those edit distances over
// the sum of the chosen references' lengths. Both are percentages.
#ifndef EDGENMT_TOOLS_CLI_SCORING_H_
#define EDGENMT_TOOLS_CLI_SCORING_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace edgenmt::cli {

// Levenshtein distance between token sequences (unit costs).
int EditDistance(const std::vector<std::string>& a, const std::vector<std::string>& b);

std::vector<std::string> SplitOnSpaces(const std::string& s);

// One source word with every reference pronunciation, in file order.
struct EvalItem {
  std::string source;
  std::vector<std::vector<std::string>> references;
};

// Reads `word<TAB>phonemes` lines; consecutive or not, lines of the same word are merged in
// order of first appearance. Returns false with *error on a malformed line.
bool ReadEvalData(const std::string& path, std::vector<EvalItem>* items, std::string* error);

class ErrorRateAccumulator {
 public:
  void Add(const std::vector<std::string>& hypothesis,
           const std::vector<std::vector<std::string>>& references);
  int64_t words() const { return words_; }
  double wer_percent() const;
  double per_percent() const;

 private:
  int64_t words_ = 0;
  int64_t wrong_words_ = 0;
  int64_t edits_ = 0;
  int64_t reference_tokens_ = 0;
};

}  // namespace edgenmt::cli

#endif  // EDGENMT_TOOLS_CLI_SCORING_H_
