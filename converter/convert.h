// Checkpoint directory -> .enmt file: the whole conversion behind edgenmt-convert.
#ifndef EDGENMT_CONVERTER_CONVERT_H_
#define EDGENMT_CONVERTER_CONVERT_H_

#include <stdint.h>

#include <functional>
#include <string>

#include "checkpoint.h"
#include "edgenmt/model.h"
#include "edgenmt/translator.h"
#include "model_writer.h"
#include "quantize.h"

namespace edgenmt::converter {

// Decoding defaults written when the command line gives none (documented in converter/README.md).
constexpr int32_t kDefaultBeam = 5;
constexpr int32_t kDefaultNbest = 1;
constexpr float kDefaultAlpha = 0.6f;
constexpr float kDefaultBeta = 0.0f;
constexpr int32_t kDefaultMinLen = 0;
constexpr float kDefaultMaxLenRatio = 0.0f;
// max_len defaults to 2 * max_src_len + 2: G2P and word-level outputs stay well below it.
int32_t DefaultMaxLen(int32_t max_src_len);

// The constants above as the options struct; max_len 0 stands for DefaultMaxLen.
inline DecodingOptions DefaultDecoding() {
  DecodingOptions d;
  d.beam = kDefaultBeam;
  d.nbest = kDefaultNbest;
  d.alpha = kDefaultAlpha;
  d.beta = kDefaultBeta;
  d.min_len = kDefaultMinLen;
  d.max_len = 0;
  d.max_len_ratio = kDefaultMaxLenRatio;
  return d;
}

struct ConvertOptions {
  std::string checkpoint_dir;
  std::string out_path;
  QuantScheme scheme = QuantScheme::kFloat32;
  int32_t max_src_len = 0;  // arena plan source length; 0 = config.max_src_len
  // The decoding defaults the file stores (checked by ValidateDecodingOptions, each bad field
  // reported as its flag: --beam, --min-len...). decoding.beam is also the arena plan's beam;
  // decoding.max_len 0 = DefaultMaxLen(arena max_src_len); return_attention is not stored.
  DecodingOptions decoding = DefaultDecoding();
  std::string created;  // ISO 8601; empty = today (UTC), or SOURCE_DATE_EPOCH's date if set
  // int8-full calibration sources (docs/INT8.md "Calibration"): TSV, first field per line.
  std::string calibration_path = "data/g2p/dev.tsv";
  // True when --calibration was given: an unreadable file is then an error. The default file
  // missing (e.g. running outside the repository) keeps Q4.11 cells and says so.
  bool calibration_required = false;
  int64_t calibration_max_lines = 2000;
  // Called during int8-full calibration (CalibrateCellFormats): (sources done, total).
  std::function<void(int64_t, int64_t)> calibration_progress;
};

struct ConvertSummary {
  ModelConfig config{};
  DecodingOptions decoding{};
  ArenaPlan arena_plan{};
  int64_t parameters = 0;
  int32_t tensors = 0;
  size_t file_bytes = 0;
  std::string checkpoint_sha256;
  // int8 schemes: one line per tensor (storage, bytes, SQNR) and the float32 file's size.
  std::vector<TensorQuantizationReport> quantization;
  size_t float32_file_bytes = 0;
  // int8-full: calibration result lines (one per LSTM cell, or why none ran).
  std::vector<std::string> calibration;
};

// The file contents for an already checked checkpoint (no I/O). Throws ConvertError
// (kExitUsage) for options out of range.
ModelFileContents MakeModelFileContents(const Checkpoint& checkpoint,
                                        const ConvertOptions& options);

// The limits the recorded arena plan is computed for: the plan's max_src_len and beam, n-best
// up to the beam, the decoding default max_len, reference kernels, no attention history.
// `edgenmt inspect` recomputes the plan with the same limits.
SessionLimits ArenaPlanLimits(const Model& model);

// Reads options.checkpoint_dir, builds the file, verifies it with Model::Load (the runtime's own
// verifier) and writes options.out_path atomically. Throws ConvertError; on any error no output
// file is created or changed.
ConvertSummary Convert(const ConvertOptions& options);

// Everything Convert does after reading the checkpoint and before writing: the file's bytes
// (int8-full calibrated, verified, arena planned) into *out_file. options.checkpoint_dir and
// options.out_path are not used. Throws ConvertError.
ConvertSummary ConvertCheckpoint(const Checkpoint& checkpoint, const ConvertOptions& options,
                                 std::vector<uint8_t>* out_file);

// The --dtype spelling of a scheme: "float32", "int8", "int8-full".
const char* DtypeName(QuantScheme scheme);

// Today's date in UTC as YYYY-MM-DD (honours SOURCE_DATE_EPOCH for reproducible builds).
std::string TodayUtc();

}  // namespace edgenmt::converter

#endif  // EDGENMT_CONVERTER_CONVERT_H_
