// The phonemizer over the file `make models` builds (build/<preset>/models/phonemizer-en.enmt):
// file checks, exact arena, the dictionary first, the sentence test set by category, bad text
// and user lexicons.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "edgenmt/phonemizer.h"

namespace edgenmt {
namespace {

std::vector<uint8_t> ReadBytes(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

// The file at a 64-byte boundary, as flash or mmap would give it.
struct AlignedFile {
  explicit AlignedFile(const std::vector<uint8_t>& bytes) : storage(bytes.size() / 8 + 16) {
    data = reinterpret_cast<uint8_t*>(storage.data());
    while (reinterpret_cast<uintptr_t>(data) % 64) ++data;
    if (!bytes.empty()) std::memcpy(data, bytes.data(), bytes.size());
    size = bytes.size();
  }
  std::vector<uint64_t> storage;
  uint8_t* data;
  size_t size;
};

struct Output {
  std::string text;
  std::vector<std::string> warnings;
};
void Write(void* user, const char* bytes, size_t n) {
  static_cast<Output*>(user)->text.append(bytes, n);
}
void Warn(void* user, const char* message) {
  static_cast<Output*>(user)->warnings.push_back(message);
}

class PhonemizerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    file_ = new AlignedFile(ReadBytes(EDGENMT_PHONEMIZER_FILE));
    ASSERT_GT(file_->size, 1000u) << EDGENMT_PHONEMIZER_FILE;
  }
  static void TearDownTestSuite() { delete file_; }

  Status Make(Phonemizer* p, const PhonemizerLimits& limits, std::vector<uint64_t>* arena) {
    size_t bytes = 0;
    const Status s = Phonemizer::RequiredArenaBytes(file_->data, file_->size, limits, &bytes);
    if (s != Status::kOk) return s;
    arena->assign(bytes / 8 + 1, 0);
    const Status init = p->Init(file_->data, file_->size, limits, arena->data(), bytes);
    if (init == Status::kOk) {
      EXPECT_EQ(p->arena_bytes_used(), bytes);
    }
    return init;
  }
  std::string Run(Phonemizer* p, const std::string& line, PhonemeFormat format,
                  Output* out = nullptr) {
    Output local;
    Output* o = out ? out : &local;
    PhonemizerOutput output;
    output.write = &Write;
    output.warn = &Warn;
    output.user = o;
    EXPECT_EQ(p->Phonemize(line.data(), line.size(), format, output), Status::kOk);
    return o->text;
  }

  static AlignedFile* file_;
};
AlignedFile* PhonemizerTest::file_ = nullptr;

TEST_F(PhonemizerTest, ArenaIsExactAndChecked) {
  PhonemizerLimits limits;
  size_t bytes = 0;
  ASSERT_EQ(Phonemizer::RequiredArenaBytes(file_->data, file_->size, limits, &bytes), Status::kOk);
  std::vector<uint64_t> arena(bytes / 8 + 1);
  Phonemizer p;
  EXPECT_EQ(p.Init(file_->data, file_->size, limits, arena.data(), bytes - 1),
            Status::kArenaTooSmall);
  EXPECT_EQ(p.required_arena_bytes(), bytes);
  EXPECT_EQ(p.Init(file_->data, file_->size, limits, arena.data(), bytes), Status::kOk);
  EXPECT_GT(p.lexicon_words(), 100000u);
}

TEST_F(PhonemizerTest, CorruptFilesAreRejected) {
  PhonemizerLimits limits;
  std::vector<uint64_t> arena(1 << 20);
  Phonemizer p;
  // Truncated at many points, and single bytes changed in the header and the lexicon.
  for (size_t cut : {size_t{0}, size_t{7}, size_t{100}, file_->size / 2, file_->size - 1}) {
    std::vector<uint8_t> bytes(file_->data, file_->data + cut);
    AlignedFile bad(bytes);
    EXPECT_NE(p.Init(bad.data, bad.size, limits, arena.data(), arena.size() * 8), Status::kOk)
        << "cut at " << cut;
  }
  std::vector<uint8_t> bytes(file_->data, file_->data + file_->size);
  for (size_t at : {size_t{4}, size_t{5}, size_t{6}, size_t{7}}) {  // the identifier
    std::vector<uint8_t> copy = bytes;
    copy[at] ^= 0x5A;
    AlignedFile bad(copy);
    EXPECT_EQ(p.Init(bad.data, bad.size, limits, arena.data(), arena.size() * 8),
              Status::kModelMalformed);
  }
  // Bytes changed anywhere (the header, the tables, the lexicon's slots and entries): Init
  // refuses the file or, where the change left it valid, the phonemizer reads safely (ASan runs
  // this too). The lexicon's entries sit before the model's bytes at the end of the file.
  std::vector<uint64_t> big_arena(file_->size / 8 + (8 << 20) / 8);
  int refused = 0;
  for (size_t i = 0; i < 60; ++i) {
    const size_t at = (i * 2654435761u) % (file_->size / 2);
    std::vector<uint8_t> copy = bytes;
    copy[at] ^= static_cast<uint8_t>(1 + i % 255);
    AlignedFile bad(copy);
    Phonemizer q;
    if (q.Init(bad.data, bad.size, limits, big_arena.data(), big_arena.size() * 8) != Status::kOk) {
      ++refused;
      continue;
    }
    Run(&q, "Dr. Smith read 42 books.", PhonemeFormat::kJson);
  }
  EXPECT_GT(refused, 0);
  // A plain model file is not a phonemizer file.
  EXPECT_EQ(p.Init(file_->data + 64, 64, limits, arena.data(), arena.size() * 8),
            Status::kModelMalformed);
  // Misaligned.
  EXPECT_EQ(p.Init(file_->data + 1, file_->size - 1, limits, arena.data(), arena.size() * 8),
            Status::kInvalidArgument);
}

TEST_F(PhonemizerTest, EveryDictionaryWordIsItsFirstPronunciation) {
  Phonemizer p;
  std::vector<uint64_t> arena;
  ASSERT_EQ(Make(&p, PhonemizerLimits(), &arena), Status::kOk);
  std::ifstream dict(EDGENMT_CMUDICT_FILE, std::ios::binary);
  ASSERT_TRUE(dict) << EDGENMT_CMUDICT_FILE;
  std::string line, last;
  int checked = 0, wrong = 0;
  while (std::getline(dict, line)) {
    if (line.empty() || line[0] == ';') continue;
    const size_t sep = line.find("  ");
    std::string word = line.substr(0, sep);
    if (word.find('(') != std::string::npos) continue;  // alternates
    bool letters = word.size() < 64;
    for (char& c : word) {
      if (c >= 'A' && c <= 'Z')
        c = static_cast<char>(c - 'A' + 'a');
      else if (c != '\'')
        letters = false;
    }
    if (!letters) continue;
    char out[512];
    WordOrigin origin;
    ASSERT_EQ(p.PhonemizeWord(word.data(), word.size(), out, sizeof out, &origin), Status::kOk);
    ++checked;
    if (line.substr(sep + 2) != out) {
      if (++wrong <= 5) ADD_FAILURE() << word << ": " << out << " != " << line.substr(sep + 2);
    }
  }
  EXPECT_GT(checked, 120000);
  EXPECT_EQ(wrong, 0);
}

TEST_F(PhonemizerTest, MustShowSentence) {
  Phonemizer p;
  std::vector<uint64_t> arena;
  ASSERT_EQ(Make(&p, PhonemizerLimits(), &arena), Status::kOk);
  const std::string line = "Dr. Smith paid $3.50 on May 3rd, 2024, to read what he had read.";
  const nlohmann::json j = nlohmann::json::parse(Run(&p, line, PhonemeFormat::kJson));
  std::string words, read;
  for (const auto& token : j["tokens"]) {
    for (const auto& w : token.value("words", nlohmann::json::array())) {
      words += (words.empty() ? "" : " ") + w["word"].get<std::string>();
      if (w["word"] == "read") read += w["phonemes"].get<std::string>() + ";";
    }
  }
  EXPECT_EQ(words,
            "doctor smith paid three dollars fifty cents on may third twenty twenty four "
            "to read what he had read");
  EXPECT_EQ(read, "R IY1 D;R EH1 D;");
  const std::string ipa = Run(&p, line, PhonemeFormat::kIpa);
  EXPECT_EQ(ipa.back(), '\n');
  EXPECT_NE(ipa.find("\xCB\x88"), std::string::npos);  // a primary stress mark
}

// tests/data/phonemizer/sentences.tsv: category, text, expected words (heteronyms as
// word|PH_ON_ES). Accuracy is printed per category; each must stay at or above its floor.
TEST_F(PhonemizerTest, SentenceTestSet) {
  Phonemizer p;
  std::vector<uint64_t> arena;
  ASSERT_EQ(Make(&p, PhonemizerLimits(), &arena), Status::kOk);
  std::ifstream in(EDGENMT_TEST_DATA_DIR "/phonemizer/sentences.tsv");
  ASSERT_TRUE(in);
  std::map<std::string, std::pair<int, int>> score;  // category -> (right, total)
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    const size_t a = line.find('\t'), b = line.find('\t', a + 1);
    ASSERT_NE(b, std::string::npos) << line;
    const std::string category = line.substr(0, a), text = line.substr(a + 1, b - a - 1);
    std::istringstream expected_stream(line.substr(b + 1));
    std::vector<std::pair<std::string, std::string>> expected;  // word, phonemes or ""
    std::string item;
    while (expected_stream >> item) {
      const size_t bar = item.find('|');
      std::string phones = bar == std::string::npos ? "" : item.substr(bar + 1);
      for (char& c : phones)
        if (c == '_') c = ' ';
      expected.emplace_back(item.substr(0, bar), phones);
    }
    const nlohmann::json j = nlohmann::json::parse(Run(&p, text, PhonemeFormat::kJson));
    std::vector<std::pair<std::string, std::string>> got;
    for (const auto& token : j["tokens"]) {
      for (const auto& w : token.value("words", nlohmann::json::array())) {
        got.emplace_back(w["word"].get<std::string>(), w["phonemes"].get<std::string>());
      }
    }
    bool ok = got.size() == expected.size();
    for (size_t i = 0; ok && i < got.size(); ++i) {
      ok = got[i].first == expected[i].first &&
           (expected[i].second.empty() || got[i].second == expected[i].second);
    }
    auto& s = score[category];
    s.second++;
    if (ok) {
      s.first++;
    } else {
      std::string words;
      for (const auto& g : got) words += g.first + (g.first == "read" ? "|" + g.second : "") + " ";
      std::printf("  [%s] %s\n    got: %s\n", category.c_str(), text.c_str(), words.c_str());
    }
    ++lines;
  }
  EXPECT_GE(lines, 300);
  int right = 0;
  for (const auto& [category, s] : score) {
    std::printf("sentence_accuracy %s %d/%d %.1f%%\n", category.c_str(), s.first, s.second,
                100.0 * s.first / s.second);
    right += s.first;
  }
  std::printf("sentence_accuracy all %d/%d %.1f%%\n", right, lines, 100.0 * right / lines);
  EXPECT_GE(100.0 * right / lines, EDGENMT_SENTENCE_FLOOR);
}

TEST_F(PhonemizerTest, BadTextNeverLosesALine) {
  Phonemizer p;
  std::vector<uint64_t> arena;
  ASSERT_EQ(Make(&p, PhonemizerLimits(), &arena), Status::kOk);
  for (PhonemeFormat format :
       {PhonemeFormat::kArpabet, PhonemeFormat::kIpa, PhonemeFormat::kJson}) {
    Output out;
    const std::string bad = std::string("ok \xFF\xFE \x01\x07 caf\xC3\xA9 \xF0\x9F\x98\x80 ") +
                            std::string(1, '\0') + " end";
    const std::string text = Run(&p, bad, format, &out);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
    EXPECT_EQ(out.warnings.size(), 4u);
    if (format == PhonemeFormat::kJson) {
      EXPECT_NO_THROW(nlohmann::json::parse(text));
    }
    EXPECT_EQ(Run(&p, "", format), format == PhonemeFormat::kJson ? "{\"tokens\":[]}\n" : "\n");
  }
  // A 100 KB line of words and numbers, and a 6,400-letter "word" (read in pieces).
  std::string long_line;
  while (long_line.size() < 100000) long_line += "the 42 cats, ";
  const std::string text = Run(&p, long_line, PhonemeFormat::kArpabet);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
  EXPECT_GT(text.size(), long_line.size());
  const std::string one_word(6400, 'a');  // 100 pieces of 64 letters, 200 model calls
  Output out;
  const std::string t2 = Run(&p, one_word, PhonemeFormat::kJson, &out);
  EXPECT_NO_THROW(nlohmann::json::parse(t2));
}

void CollectLexiconErrors(void* user, uint32_t line, const char* message) {
  static_cast<std::vector<std::string>*>(user)->push_back(std::to_string(line) + ": " + message);
}

TEST_F(PhonemizerTest, UserLexicon) {
  const std::string good =
      ";;; comment\nEDGENMT  EH1 JH EH2 N EH1 M T IY1\nedgenmt(1)  EH1 JH\n"
      "tomato  T AH0 M AA1 T OW2\n";
  PhonemizerLimits limits;
  limits.user_lexicon_max_words = 4;
  limits.user_lexicon_max_bytes = static_cast<uint32_t>(good.size());
  Phonemizer p;
  std::vector<uint64_t> arena;
  ASSERT_EQ(Make(&p, limits, &arena), Status::kOk);
  std::vector<std::string> errors;
  ASSERT_EQ(p.LoadUserLexicon(good.data(), good.size(), &CollectLexiconErrors, &errors),
            Status::kOk);
  EXPECT_TRUE(errors.empty());
  const nlohmann::json j = nlohmann::json::parse(Run(&p, "Tomato edgenmt", PhonemeFormat::kJson));
  EXPECT_EQ(j["tokens"][0]["words"][0]["phonemes"], "T AH0 M AA1 T OW2");
  EXPECT_EQ(j["tokens"][0]["words"][0]["origin"], "user_lexicon");
  EXPECT_EQ(j["tokens"][1]["words"][0]["phonemes"], "EH1 JH EH2 N EH1 M T IY1");
  const std::string bad = "good  G UH1 D\nbad  B XX D\nworse\nco.op  K OW1\n";
  ASSERT_LE(bad.size(), good.size());
  errors.clear();
  EXPECT_EQ(p.LoadUserLexicon(bad.data(), bad.size(), &CollectLexiconErrors, &errors),
            Status::kUserLexiconInvalid);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0].substr(0, 3), "2: ");
  EXPECT_EQ(errors[1].substr(0, 3), "3: ");
  EXPECT_EQ(errors[2].substr(0, 3), "4: ");
  EXPECT_NE(std::string(p.error_detail()).find("line 2"), std::string::npos);
  std::string too_big(good.size() + 1, 'a');
  EXPECT_EQ(p.LoadUserLexicon(too_big.data(), too_big.size(), nullptr, nullptr),
            Status::kLimitExceeded);
}

TEST_F(PhonemizerTest, NoLexiconReadsFromTheModel) {
  PhonemizerLimits limits;
  limits.use_lexicon = false;
  Phonemizer p;
  std::vector<uint64_t> arena;
  ASSERT_EQ(Make(&p, limits, &arena), Status::kOk);
  char out[256];
  WordOrigin origin;
  ASSERT_EQ(p.PhonemizeWord("hello", 5, out, sizeof out, &origin), Status::kOk);
  EXPECT_EQ(origin, WordOrigin::kModel);
  EXPECT_GT(std::strlen(out), 3u);
}

}  // namespace
}  // namespace edgenmt
