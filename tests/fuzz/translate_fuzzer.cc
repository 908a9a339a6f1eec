// libFuzzer target over source text and decoding options with fixed good models: the tokenizer
// (UTF-8 decoding, whitespace, unknown characters, over-long lines), the option and limit
// checks, greedy and beam search, attention history and detokenization must return a status
// and never crash, whatever the line and the options.
//
// Models: every tests/fuzz/models/*.enmt (each architecture family in float32, int8 and, where
// it has an integer path, int8-full), loaded once.
// Input: byte 0 picks the model, bytes 1..3 the options (below), the rest is the source line
// (or, with flag kIdsFlag, raw little-endian int32 source ids, out-of-range ones included).
// Seeds: tests/fuzz/corpus/translate/. Run: make fuzz.
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

#include "edgenmt/model.h"
#include "edgenmt/tokenizer.h"
#include "edgenmt/translator.h"

namespace {

constexpr int32_t kMaxBeam = 4;
constexpr int32_t kMaxTgtLen = 8;
constexpr uint8_t kAlphaFlag = 1, kBetaFlag = 2, kRatioFlag = 4, kAttentionFlag = 8, kIdsFlag = 16,
                  kOverLimitFlag = 32;

void Check(bool ok) {
  if (!ok) abort();
}

// One fixed model and its session; lives for the whole process.
struct Loaded {
  ~Loaded() {
    free(file);
    free(arena);
  }
  std::string name;
  void* file = nullptr;
  edgenmt::Model model;
  void* arena = nullptr;
  edgenmt::Translator translator;
};

std::vector<Loaded*>* g_models = nullptr;

void* ReadAligned(const std::string& path, size_t* size) {
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return nullptr;
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  void* p = aligned_alloc(64, (static_cast<size_t>(n) + 63) / 64 * 64 + 64);
  *size = fread(p, 1, static_cast<size_t>(n), f);
  fclose(f);
  return p;
}

void LoadModels() {
  g_models = new std::vector<Loaded*>();
  std::vector<std::string> names;
  if (DIR* dir = opendir(EDGENMT_FUZZ_MODEL_DIR)) {
    while (const dirent* e = readdir(dir)) {
      const std::string name = e->d_name;
      if (name.size() > 5 && name.compare(name.size() - 5, 5, ".enmt") == 0) names.push_back(name);
    }
    closedir(dir);
  }
  std::sort(names.begin(), names.end());  // stable model indices across runs
  for (const std::string& name : names) {
    Loaded* m = new Loaded();
    m->name = name;
    size_t size = 0;
    m->file = ReadAligned(std::string(EDGENMT_FUZZ_MODEL_DIR) + "/" + name, &size);
    if (m->file == nullptr || m->model.Load(m->file, size) != edgenmt::Status::kOk) {
      fprintf(stderr, "translate_fuzzer: %s: %s\n", name.c_str(), m->model.error_detail());
      abort();
    }
    edgenmt::SessionLimits limits;
    limits.max_beam = kMaxBeam;
    limits.max_nbest = kMaxBeam;
    limits.max_tgt_len = kMaxTgtLen;
    limits.attention = m->model.config().rnn.attention != edgenmt::AttentionType::kNone;
    // Every model of every scheme must get a session, except the verifier seed with zero
    // points (asymmetric int8, which no kernel computes): loading is all it is for.
    const bool must_run = name.find("-zero-points") == std::string::npos;
    size_t bytes = 0;
    edgenmt::Status status = edgenmt::RequiredArenaBytes(m->model, limits, &bytes);
    if (status == edgenmt::Status::kOk) {
      m->arena = aligned_alloc(64, (bytes + 63) / 64 * 64);
      status = m->translator.Init(&m->model, m->arena, bytes, limits);
    }
    if (status != edgenmt::Status::kOk) {
      fprintf(stderr, "translate_fuzzer: %s: no session: %s: %s\n", name.c_str(),
              edgenmt::StatusName(status), m->translator.error_detail());
      if (must_run) abort();
      delete m;
      continue;
    }
    g_models->push_back(m);
  }
  if (g_models->empty()) {
    fprintf(stderr, "translate_fuzzer: no models in %s\n", EDGENMT_FUZZ_MODEL_DIR);
    abort();
  }
}

void CheckResult(const edgenmt::TranslationResult& result, const edgenmt::TranslateOptions& o,
                 const edgenmt::Model& model) {
  Check(result.num_hypotheses >= 1 && result.num_hypotheses <= o.nbest);
  Check(result.src_len >= 1 && result.src_len <= model.config().max_src_len);
  for (int32_t h = 0; h < result.num_hypotheses; ++h) {
    const edgenmt::Hypothesis& hyp = result.hypotheses[h];
    Check(hyp.length >= 0 && hyp.length <= o.max_len);
    Check(strlen(hyp.text) == hyp.text_length);
    for (int32_t i = 0; i < hyp.length; ++i)
      Check(hyp.ids[i] >= 0 && hyp.ids[i] < model.config().tgt_vocab_size);
    if (o.return_attention) {
      Check(hyp.attention != nullptr);
      float sum = 0;
      for (int32_t k = 0; k < hyp.attention_steps * result.src_len; ++k) sum += hyp.attention[k];
      (void)sum;  // read every element: ASan checks the bounds
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  LoadModels();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  Loaded& m = *(*g_models)[data[0] % g_models->size()];
  const uint8_t flags = data[3];
  edgenmt::TranslateOptions o;
  o.beam = 1 + (data[1] & 3);
  o.nbest = 1 + ((data[1] >> 2) & 3);  // may exceed beam: kInvalidArgument
  o.max_len = 1 + (data[2] & 7);
  o.min_len = (data[2] >> 3) & 3;
  o.alpha = (flags & kAlphaFlag) ? 0.6f : 0.0f;
  o.beta = (flags & kBetaFlag) ? 0.4f : 0.0f;
  o.max_len_ratio = (flags & kRatioFlag) ? 1.5f : 0.0f;
  o.return_attention = (flags & kAttentionFlag) != 0;
  if (flags & kOverLimitFlag) o.beam = kMaxBeam + 1 + (data[1] >> 4);  // kLimitExceeded
  const char* text = reinterpret_cast<const char*>(data + 4);
  const size_t len = size - 4;

  edgenmt::TranslationResult result;
  edgenmt::Status status;
  if (flags & kIdsFlag) {
    int32_t ids[64];
    const int32_t n = static_cast<int32_t>(std::min<size_t>(len / 4, 64));
    memcpy(ids, text, static_cast<size_t>(n) * 4);
    status = m.translator.TranslateIds(ids, n, o, &result);
  } else {
    status = m.translator.Translate(text, len, o, &result);
  }
  const bool options_valid =
      o.nbest <= o.beam &&
      (!o.return_attention || m.model.config().rnn.attention != edgenmt::AttentionType::kNone);
  if (status == edgenmt::Status::kOk) {
    Check(options_valid && o.beam <= kMaxBeam);
    CheckResult(result, o, m.model);
  } else {
    Check(m.translator.error_detail()[0] != '\0');
    Check(strcmp(edgenmt::StatusName(status), "") != 0);
  }

  // The tokenizer on its own, with a tiny id buffer (the over-long path) and detokenization of
  // whatever ids it produced.
  int32_t ids[3];
  int32_t num_ids = 0, unknown = 0, seen = 0;
  status = edgenmt::TokenizeSource(m.model, text, len, ids, 3, &num_ids, &unknown, &seen);
  Check(num_ids >= 0 && num_ids <= 3 && unknown <= seen);
  if (status == edgenmt::Status::kSourceTooLong) Check(seen > 3 && num_ids == 3);
  if (status == edgenmt::Status::kOk) {
    const int32_t tgt = m.model.config().tgt_vocab_size;
    for (int32_t i = 0; i < num_ids; ++i) ids[i] = ids[i] % tgt;
    char out[256];
    size_t out_len = 0;
    Check(edgenmt::DetokenizeTarget(m.model, ids, num_ids, out, sizeof out, &out_len) ==
              edgenmt::Status::kOk &&
          out_len == strlen(out));
  }
  return 0;
}
