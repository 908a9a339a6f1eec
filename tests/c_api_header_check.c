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
