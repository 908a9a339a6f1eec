// Shared by the robustness tests (robustness_model_test.cc, robustness_translator_test.cc): the
// model files they corrupt, a copy whose slack ASan poisons, loading and using a model the way
// the runtime's callers do, and byte patches through the generated FlatBuffers accessors.
#ifndef EDGENMT_TESTS_ROBUSTNESS_SUPPORT_H_
#define EDGENMT_TESTS_ROBUSTNESS_SUPPORT_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <string>
#include <vector>

#include "edgenmt/model.h"
#include "edgenmt/schema/edgenmt_generated.h"
#include "gtest/gtest.h"
#include "model_writer.h"

namespace edgenmt {
namespace robustness {

namespace fb = ::edgenmt::schema;

// ---- Model files --------------------------------------------------------------------------

struct NamedFile {
  std::string name;
  std::vector<uint8_t> bytes;
  bool transformer = false;  // model_type transformer: the RNN's config fields are not read
};

// Every golden checkpoint of tests/data/golden, converted in memory exactly as edgenmt-convert
// would (built once, on first use).
const std::vector<NamedFile>& GoldenFiles();

// The tiny model (tests/tiny_checkpoint.h) as ModelFileContents, for builder-made variants.
const converter::ModelFileContents& TinyContents();

// The files every sweep runs over: the goldens (real trained shapes) and the tiny model, so the
// suite still means something when the golden directory is missing.
std::vector<NamedFile> SweepFiles();

// A 64-byte aligned copy whose allocation slack (up to the next multiple of 64) is poisoned, so
// under ASan a read at or past `size` is reported like a read past an exact-size allocation.
class PoisonedCopy {
 public:
  PoisonedCopy(const uint8_t* bytes, size_t size, size_t offset = 0);
  explicit PoisonedCopy(const std::vector<uint8_t>& bytes, size_t offset = 0)
      : PoisonedCopy(bytes.data(), bytes.size(), offset) {}
  ~PoisonedCopy();
  PoisonedCopy(const PoisonedCopy&) = delete;
  PoisonedCopy& operator=(const PoisonedCopy&) = delete;
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  size_t rounded_;
  uint8_t* storage_;
  uint8_t* data_;
  size_t size_;
};

// ---- Using a model the way the runtime's callers do ------------------------------------------

// Everything a caller can reach on a loaded model, checked to stay inside the buffer, then a
// Translator sized by RequiredArenaBytes (capped limits) translating a short source.
void UseLoadedModel(const Model& model, const uint8_t* buffer, size_t size,
                    const std::string& where);

struct Outcome {
  Status status;
  std::string detail;
};

// Loads `bytes[0, size)`; a refusal must leave an unloaded model and a detail, an acceptance
// must give a usable model.
Outcome LoadAndUse(const uint8_t* bytes, size_t size, const std::string& where, size_t offset = 0);
Outcome LoadAndUse(const std::vector<uint8_t>& bytes, const std::string& where);

#define EXPECT_REFUSED(outcome, want_status, want_text)                                 \
  do {                                                                                  \
    const ::edgenmt::robustness::Outcome o_ = (outcome);                                \
    EXPECT_EQ(o_.status, want_status) << StatusName(o_.status) << ": " << o_.detail;    \
    EXPECT_NE(o_.detail.find(want_text), std::string::npos) << "detail: " << o_.detail; \
  } while (0)

// ---- Byte patches through the generated accessors ---------------------------------------------

// Where a field of a generated table is stored, or null when absent (defaults are not stored).
// Generated tables derive privately from flatbuffers::Table at the same address.
template <typename T>
const uint8_t* AddressOf(const T* table, flatbuffers::voffset_t field) {
  return reinterpret_cast<const flatbuffers::Table*>(table)->GetAddressOf(field);
}

// Offset of a scalar field of `table` inside `bytes`; fails the test if the field is absent.
template <typename T>
size_t FieldOffset(const std::vector<uint8_t>& bytes, const T* table,
                   flatbuffers::voffset_t field) {
  const uint8_t* p = AddressOf(table, field);
  EXPECT_NE(p, nullptr) << "field not stored";
  return p == nullptr ? 0 : static_cast<size_t>(p - bytes.data());
}

template <typename T>
void Poke(std::vector<uint8_t>* bytes, size_t offset, T value) {
  ASSERT_LE(offset + sizeof(T), bytes->size());
  memcpy(bytes->data() + offset, &value, sizeof(T));
}

template <typename T>
T Peek(const std::vector<uint8_t>& bytes, size_t offset) {
  T value;
  memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

const fb::Model* Root(const std::vector<uint8_t>& bytes);

// The tensor named `name` in the file (a test failure when there is none).
const fb::Tensor* TensorNamed(const std::vector<uint8_t>& bytes, const std::string& name);

// Offset of element `i` of a vector inside `bytes`.
template <typename V>
size_t ElementOffset(const std::vector<uint8_t>& bytes, const V* vector, uint32_t i) {
  return static_cast<size_t>(reinterpret_cast<const uint8_t*>(vector->Data()) - bytes.data()) +
         i * sizeof(typename V::return_type);
}

// A copy of `bytes` with one int32 config field set to `value`.
std::vector<uint8_t> WithConfigInt(const std::vector<uint8_t>& bytes, flatbuffers::voffset_t field,
                                   int32_t value);

// The same for one of the RNN's options: in Config.rnn (format 2) or, in a format 1 file,
// Config's flat field of that name.
std::vector<uint8_t> WithRnnConfigInt(const std::vector<uint8_t>& bytes,
                                      flatbuffers::voffset_t rnn_field,
                                      flatbuffers::voffset_t flat_field, int32_t value);

}  // namespace robustness
}  // namespace edgenmt

#endif  // EDGENMT_TESTS_ROBUSTNESS_SUPPORT_H_
