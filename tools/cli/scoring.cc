#include "scoring.h"

#include <algorithm>
#include <fstream>
#include <unordered_map>

namespace edgenmt::cli {

int EditDistance(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int substitute = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, substitute});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> SplitOnSpaces(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
    size_t j = i;
    while (j < s.size() && !(s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n')) ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

bool ReadEvalData(const std::string& path, std::vector<EvalItem>* items, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = path + ": cannot open";
    return false;
  }
  std::unordered_map<std::string, size_t> index;
  std::string line;
  int64_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const size_t tab = line.find('\t');
    if (tab == std::string::npos || tab == 0) {
      *error = path + ":" + std::to_string(line_number) + ": expected word<TAB>phonemes";
      return false;
    }
    std::string word = line.substr(0, tab);
    auto phonemes = SplitOnSpaces(line.substr(tab + 1));
    auto it = index.find(word);
    if (it == index.end()) {
      index.emplace(word, items->size());
      items->push_back(EvalItem{word, {std::move(phonemes)}});
    } else {
      (*items)[it->second].references.push_back(std::move(phonemes));
    }
  }
  return true;
}

void ErrorRateAccumulator::Add(const std::vector<std::string>& hypothesis,
                               const std::vector<std::vector<std::string>>& references) {
  int best = -1;
  size_t best_length = 0;
  for (const auto& reference : references) {
    const int d = EditDistance(hypothesis, reference);
    if (best < 0 || d < best) {  // strict: ties keep the first listed reference
      best = d;
      best_length = reference.size();
    }
  }
  ++words_;
  if (best != 0) ++wrong_words_;
  edits_ += best;
  reference_tokens_ += static_cast<int64_t>(best_length);
}

double ErrorRateAccumulator::wer_percent() const {
  return words_ == 0 ? 0.0
                     : 100.0 * static_cast<double>(wrong_words_) / static_cast<double>(words_);
}

double ErrorRateAccumulator::per_percent() const {
  return reference_tokens_ == 0
             ? 0.0
             : 100.0 * static_cast<double>(edits_) / static_cast<double>(reference_tokens_);
}

}  // namespace edgenmt::cli
