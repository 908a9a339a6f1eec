// libFuzzer target: Model::Load on arbitrary bytes must return a status, never crash or read
// outside the buffer; a loaded model's accessors must stay inside it too.
// Build: cmake --preset fuzz && cmake --build --preset fuzz; run:
//   build/fuzz/tests/model_load_fuzzer -max_len=65536 tests/data/models
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "edgenmt/model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // The loader requires a 64-byte aligned buffer; copy into one (exact size, so ASan sees
  // any read past the end).
  uint8_t* buffer = static_cast<uint8_t*>(aligned_alloc(edgenmt::kModelBufferAlignment,
                                                        (size + 63) / 64 * 64));
  memcpy(buffer, data, size);
  edgenmt::Model model;
  if (model.Load(buffer, size) == edgenmt::Status::kOk) {
    for (int32_t i = 0; i < model.num_tensors(); ++i) {
      edgenmt::TensorView view{};
      if (model.TensorAt(i, &view) != edgenmt::Status::kOk) abort();
      const uint8_t* p = static_cast<const uint8_t*>(view.data);
      if (p < buffer || p + view.bytes > buffer + size) abort();
    }
    const edgenmt::VocabularyView vocab = model.src_vocab();
    for (int32_t id = 0; id < vocab.size; ++id) {
      const edgenmt::TokenView token = vocab.Token(id);
      if (vocab.Find(token.data, token.size) != id) abort();
    }
    (void)model.provenance();
  }
  free(buffer);
  return 0;
}
