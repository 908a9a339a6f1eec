// Model::Load's semantic checks over a FlatBuffer that has already passed the FlatBuffers
// verifier: config, decoding defaults, arena plan, activation formats, vocabularies and every
// tensor (shape against data size, alignment, quantization parameters, finite float data and
// the accumulation bounds of the integer kernels). Internal to the runtime.
#ifndef EDGENMT_MODEL_CHECKER_H_
#define EDGENMT_MODEL_CHECKER_H_

#include <stddef.h>
#include <stdint.h>

#include "edgenmt/model.h"
#include "edgenmt/schema/edgenmt_generated.h"
#include "error_detail.h"

namespace edgenmt {

// Caps on the counts of tensors, buffers and activation formats in one file.
constexpr uint32_t kMaxTensors = 4096;
constexpr uint32_t kMaxBuffers = 4096;

// Unsigned lexicographic byte order; a proper prefix sorts first.
int CompareBytes(const char* a, uint32_t a_size, const char* b, uint32_t b_size);

// Replaces out[0, out_size) with the concatenation of `parts` (C strings and integers; no
// stdio, so Cortex-M builds do not pull in printf) and returns `status`.
template <typename... Parts>
Status WriteDetail(char* out, size_t out_size, Status status, const Parts&... parts) {
  ErrorDetail detail(out, out_size);  // straight into the caller's buffer
  return detail.Fail(status, parts...);
}

// Each check returns kOk or writes its failure into the caller's detail buffer.
class ModelChecker {
 public:
  ModelChecker(const schema::Model* root, char* detail, size_t detail_size)
      : root_(root), detail_(detail), detail_size_(detail_size) {}

  Status ReadConfig(ModelConfig* out);
  Status ReadDecoding(DecodingOptions* out);
  Status ReadArenaPlan(const ModelConfig& cfg, ArenaPlan* out);
  // Model.activations: unique, known names with int_bits in range; every one the config needs.
  Status CheckActivations(const ModelConfig& cfg);
  Status ReadVocabulary(const schema::Vocabulary* v, const char* which, int32_t expected_size,
                        VocabularyView* out);
  // Tensor `index`: name, shape, data size and alignment, quantization, float values finite,
  // int8 matrices within the int32 accumulation bound.
  Status CheckTensor(uint32_t index, const uint8_t* file_start);

 private:
  template <typename... Parts>
  Status Fail(Status status, const Parts&... parts) {
    return WriteDetail(detail_, detail_size_, status, parts...);
  }
  Status CheckQuantization(const schema::Tensor* t, const char* name, DType dtype, int32_t rank);
  Status CheckRequantization(const schema::Tensor* t, const char* name, DType dtype, int32_t rank,
                             const flatbuffers::Vector<uint8_t>& data);
  Status CheckValues(const schema::Tensor* t, const char* name, DType dtype, int32_t rank,
                     const flatbuffers::Vector<uint8_t>& data);

  const schema::Model* root_;
  char* detail_;
  size_t detail_size_;
};

}  // namespace edgenmt

#endif  // EDGENMT_MODEL_CHECKER_H_
