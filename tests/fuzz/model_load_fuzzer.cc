// libFuzzer target over the whole path a model file takes: Model::Load on arbitrary bytes must
// return a status (with a detail) and never crash or read outside the buffer; a model that
// loads must have accessors that stay inside it, and a Translator sized with
// RequiredArenaBytes must translate a short source without any sanitizer finding.
//
// Input: the raw model file. Seeds: tests/fuzz/models/*.enmt and tests/data/models/*.enmt.
// Run: make fuzz (FUZZ_SECONDS=600), or by hand
//   build/fuzz/tests/model_load_fuzzer -max_len=24576 build/fuzz/corpus/model_load \
//       tests/fuzz/models tests/data/models
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sanitizer/asan_interface.h>

#include <initializer_list>

#include "edgenmt/model.h"
#include "edgenmt/translator.h"

namespace {

// Caps that keep one execution in the millisecond range whatever the file claims.
constexpr int32_t kMaxSrcLen = 6;
constexpr int32_t kMaxBeam = 2;
constexpr int32_t kMaxTgtLen = 6;
constexpr size_t kMaxArenaBytes = size_t{32} << 20;

// asan_interface.h makes these no-ops in builds without ASan.
void PoisonTail(uint8_t* p, size_t size, size_t rounded) {
  ASAN_POISON_MEMORY_REGION(p + size, rounded - size);
}
void UnpoisonTail(uint8_t* p, size_t size, size_t rounded) {
  ASAN_UNPOISON_MEMORY_REGION(p + size, rounded - size);
}

void Check(bool ok) {
  if (!ok) abort();
}

template <typename T>
T Min(T a, T b) {
  return a < b ? a : b;
}

void InspectAndTranslate(const edgenmt::Model& model, const uint8_t* buffer, size_t size) {
  for (int32_t i = 0; i < model.num_tensors(); ++i) {
    edgenmt::TensorView view{};
    Check(model.TensorAt(i, &view) == edgenmt::Status::kOk);
    const uint8_t* p = static_cast<const uint8_t*>(view.data);
    Check(p >= buffer && view.bytes <= size &&
          p - buffer <= static_cast<ptrdiff_t>(size - view.bytes));
    Check(static_cast<size_t>(view.element_count()) * edgenmt::DTypeSize(view.dtype) == view.bytes);
    Check(strlen(view.name) < size);
    edgenmt::TensorView again{};
    Check(model.FindTensor(view.name, &again) == edgenmt::Status::kOk && again.data == view.data);
    for (int32_t k = 0; k < view.num_scales; ++k) Check(view.scales[k] > 0);
  }
  for (const edgenmt::VocabularyView vocab : {model.src_vocab(), model.tgt_vocab()}) {
    for (int32_t id = 0; id < vocab.size; ++id) {
      const edgenmt::TokenView token = vocab.Token(id);
      Check(token.size > 0 && vocab.Find(token.data, token.size) == id);
    }
  }
  const edgenmt::Provenance p = model.provenance();
  Check(strlen(p.checkpoint_sha256) + strlen(p.converter_version) + strlen(p.created) +
            strlen(p.source) <
        size);

  edgenmt::SessionLimits limits;
  limits.max_src_len = Min(model.config().max_src_len, kMaxSrcLen);
  limits.max_beam = kMaxBeam;
  limits.max_nbest = kMaxBeam;
  limits.max_tgt_len = kMaxTgtLen;
  limits.attention = model.config().rnn.attention != edgenmt::AttentionType::kNone;
  size_t bytes = 0;
  if (edgenmt::RequiredArenaBytes(model, limits, &bytes) != edgenmt::Status::kOk) return;
  if (bytes == 0 || bytes > kMaxArenaBytes) return;
  void* arena = aligned_alloc(64, (bytes + 63) / 64 * 64);
  edgenmt::Translator translator;
  // One byte short first: must be kArenaTooSmall, never a write past the end.
  Check(translator.Init(&model, arena, bytes - 1, limits) == edgenmt::Status::kArenaTooSmall);
  const edgenmt::Status init = translator.Init(&model, arena, bytes, limits);
  if (init == edgenmt::Status::kOk) {
    Check(translator.arena_bytes_used() == bytes);
    edgenmt::TranslateOptions options;
    options.beam = kMaxBeam;
    options.nbest = kMaxBeam;
    options.max_len = kMaxTgtLen;
    options.alpha = 0.6f;
    options.beta = 0.2f;
    options.return_attention = limits.attention;
    // Source ids chosen by the file's size, so different mutants decode different sources.
    int32_t ids[kMaxSrcLen];
    const int32_t src_len =
        1 + static_cast<int32_t>(size % static_cast<size_t>(limits.max_src_len));
    for (int32_t i = 0; i < src_len; ++i)
      ids[i] = static_cast<int32_t>((size / 7 + 13 * static_cast<size_t>(i)) %
                                    static_cast<size_t>(model.config().src_vocab_size));
    edgenmt::TranslationResult result;
    if (translator.TranslateIds(ids, src_len, options, &result) == edgenmt::Status::kOk) {
      Check(result.num_hypotheses >= 1 && result.num_hypotheses <= options.nbest);
      for (int32_t h = 0; h < result.num_hypotheses; ++h) {
        const edgenmt::Hypothesis& hyp = result.hypotheses[h];
        Check(hyp.length >= 0 && hyp.length <= kMaxTgtLen && strlen(hyp.text) == hyp.text_length);
      }
    } else {
      Check(translator.error_detail()[0] != '\0');
    }
    (void)translator.Translate("ab c", 4, options, &result);
  } else {
    Check(translator.error_detail()[0] != '\0');
  }
  free(arena);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The loader requires a 64-byte aligned buffer; copy into one and poison the rounding slack
  // so ASan reports any read past `size`, exactly as with an unaligned exact-size copy.
  const size_t rounded = size == 0 ? 64 : (size + 63) / 64 * 64;
  uint8_t* buffer = static_cast<uint8_t*>(aligned_alloc(edgenmt::kModelBufferAlignment, rounded));
  if (size > 0) memcpy(buffer, data, size);
  PoisonTail(buffer, size, rounded);
  edgenmt::Model model;
  const edgenmt::Status status = model.Load(buffer, size);
  if (status == edgenmt::Status::kOk) {
    InspectAndTranslate(model, buffer, size);
  } else {
    Check(!model.loaded() && model.error_detail()[0] != '\0');
    Check(model.num_tensors() == 0);
  }
  UnpoisonTail(buffer, size, rounded);
  free(buffer);
  return 0;
}
