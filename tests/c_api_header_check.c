/* Compiled as C (not C++): proves edgenmt.h is a valid C header and its entry points link. */
#include "edgenmt/edgenmt.h"

int edgenmt_c_api_header_check(const void* data, size_t size) {
  static unsigned char storage[ENMT_MODEL_STORAGE_BYTES_MAX] __attribute__((aligned(16)));
  enmt_model* model = 0;
  enmt_limits limits;
  size_t bytes = 0;
  if (enmt_model_load(storage, sizeof storage, data, size, &model) != ENMT_OK) return 1;
  enmt_limits_default(model, &limits);
  if (enmt_required_arena_bytes(model, &limits, &bytes) != ENMT_OK) return 2;
  return bytes > 0 ? 0 : 3;
}

/* The batch callback type and entry points compile as C too (not called: c_api_test runs them). */
static void edgenmt_c_api_header_check_callback(void* user, int32_t index, enmt_status status,
                                                const enmt_batch_result* result,
                                                const char* detail) {
  enmt_hypothesis h;
  (void)index;
  (void)status;
  (void)detail;
  if (result != 0 && enmt_batch_get_hypothesis(result, 0, &h) == ENMT_OK)
    *(size_t*)user += h.text_length;
}

enmt_status edgenmt_c_api_header_check_batch(enmt_translator* translator,
                                             const char* const* sources, const size_t* lengths,
                                             int32_t count, const enmt_options* options,
                                             size_t* total) {
  return enmt_translate_batch(translator, sources, lengths, count, options,
                              edgenmt_c_api_header_check_callback, total);
}
