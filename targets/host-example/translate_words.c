/* The same through the C API, built with pkg-config (no CMake): `cc translate_words.c
 * $(pkg-config --cflags --libs edgenmt)`. Prints one line per word: WORD<TAB>translation. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edgenmt/edgenmt.h"

static void* read_aligned(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  void* data = aligned_alloc(64, (*size + 63) / 64 * 64 + 64);
  if (data != NULL && fread(data, 1, *size, f) != *size) {
    free(data);
    data = NULL;
  }
  fclose(f);
  return data;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: translate_words_c MODEL.enmt WORD...\n");
    return 1;
  }
  size_t size = 0;
  void* data = read_aligned(argv[1], &size);
  static uint8_t storage[ENMT_MODEL_STORAGE_BYTES_MAX] __attribute__((aligned(16)));
  enmt_model* model = NULL;
  if (data == NULL || enmt_model_load(storage, sizeof storage, data, size, &model) != ENMT_OK) {
    fprintf(stderr, "translate_words_c: %s: %s\n", argv[1],
            data ? enmt_model_error(model) : "unreadable");
    return 1;
  }
  enmt_options options;
  enmt_options_default(model, &options);
  enmt_limits limits;
  enmt_limits_default(model, &limits);
  size_t bytes = 0;
  enmt_translator* translator = NULL;
  void* arena = NULL;
  if (enmt_required_arena_bytes(model, &limits, &bytes) != ENMT_OK ||
      (arena = aligned_alloc(16, (bytes + 15) / 16 * 16)) == NULL ||
      enmt_translator_init(model, arena, bytes, &limits, &translator) != ENMT_OK) {
    fprintf(stderr, "translate_words_c: cannot create a translator\n");
    return 1;
  }
  for (int i = 2; i < argc; ++i) {
    int32_t count = 0;
    enmt_hypothesis best;
    enmt_status status = enmt_translate(translator, argv[i], strlen(argv[i]), &options, &count);
    if (status != ENMT_OK || enmt_get_hypothesis(translator, 0, &best) != ENMT_OK) {
      fprintf(stderr, "translate_words_c: %s: %s\n", argv[i], enmt_status_name(status));
      return 1;
    }
    printf("%s\t%s\n", argv[i], best.text);
  }
  free(arena);
  free(data);
  return 0;
}
