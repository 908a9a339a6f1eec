// translate_words MODEL.enmt WORD...: prints "WORD<TAB>translation" per word, with the model's
// stored decoding defaults (as `edgenmt translate` uses them). Exit 1 on any error.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#include "edgenmt/model.h"
#include "edgenmt/translator.h"

namespace {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<void, FreeDeleter>;

// Model files must start on a 64-byte boundary (the runtime reads weights in place).
AlignedBuffer ReadModelFile(const char* path, size_t* size) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) return nullptr;
  *size = bytes.size();
  AlignedBuffer buffer(std::aligned_alloc(64, (bytes.size() + 63) / 64 * 64 + 64));
  if (buffer) std::memcpy(buffer.get(), bytes.data(), bytes.size());
  return buffer;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: translate_words MODEL.enmt WORD...\n");
    return 1;
  }
  size_t model_size = 0;
  AlignedBuffer model_bytes = ReadModelFile(argv[1], &model_size);
  edgenmt::Model model;
  if (!model_bytes || model.Load(model_bytes.get(), model_size) != edgenmt::Status::kOk) {
    std::fprintf(stderr, "translate_words: %s: %s\n", argv[1], model.error_detail());
    return 1;
  }
  const edgenmt::TranslateOptions options = edgenmt::TranslateOptions::FromModel(model);
  edgenmt::SessionLimits limits;
  limits.max_beam = options.beam;
  limits.max_nbest = options.nbest;
  size_t arena_bytes = 0;
  if (edgenmt::RequiredArenaBytes(model, limits, &arena_bytes) != edgenmt::Status::kOk) {
    std::fprintf(stderr, "translate_words: cannot plan a session\n");
    return 1;
  }
  AlignedBuffer arena(std::aligned_alloc(16, (arena_bytes + 15) / 16 * 16));
  edgenmt::Translator translator;
  if (!arena || translator.Init(&model, arena.get(), arena_bytes, limits) != edgenmt::Status::kOk) {
    std::fprintf(stderr, "translate_words: %s\n", translator.error_detail());
    return 1;
  }
  for (int i = 2; i < argc; ++i) {
    edgenmt::TranslationResult result;
    const edgenmt::Status status =
        translator.Translate(argv[i], std::strlen(argv[i]), options, &result);
    if (status != edgenmt::Status::kOk) {
      std::fprintf(stderr, "translate_words: %s: %s: %s\n", argv[i], edgenmt::StatusName(status),
                   translator.error_detail());
      return 1;
    }
    std::printf("%s\t%s\n", argv[i], result.hypotheses[0].text);
  }
  std::fprintf(stderr, "translate_words: arena %zu bytes, model %zu bytes\n", arena_bytes,
               model_size);
  return 0;
}
