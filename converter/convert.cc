#include "convert.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <memory>

#include "atomic_file.h"
#include "convert_error.h"
#include "edgenmt/internal/tensor_layout.h"
#include "edgenmt/translator.h"
#include "encode_tensor.h"

#ifndef EDGENMT_CONVERTER_VERSION
#define EDGENMT_CONVERTER_VERSION "0.0.0"
#endif

namespace edgenmt::converter {
namespace {

ConvertError Usage(const std::string& flag, const std::string& reason) {
  return ConvertError(kExitUsage, flag, reason);
}

}  // namespace

const char* DtypeName(QuantScheme scheme) {
  switch (scheme) {
    case QuantScheme::kFloat32: return "float32";
    case QuantScheme::kInt8Hybrid: return "int8";
    case QuantScheme::kInt8Full: return "int8-full";
  }
  return "?";
}

int32_t DefaultMaxLen(int32_t max_src_len) {
  const int64_t n = 2 * int64_t{max_src_len} + 2;
  return n > kMaxModelDim ? kMaxModelDim : static_cast<int32_t>(n);
}

std::string TodayUtc() {
  time_t now = time(nullptr);
  if (const char* epoch = getenv("SOURCE_DATE_EPOCH")) {
    char* end = nullptr;
    const long long value = strtoll(epoch, &end, 10);
    if (end != epoch && *end == '\0' && value >= 0) now = static_cast<time_t>(value);
  }
  struct tm utc {};
  gmtime_r(&now, &utc);
  char text[32];
  strftime(text, sizeof(text), "%Y-%m-%d", &utc);
  return text;
}

ModelFileContents MakeModelFileContents(const Checkpoint& ckpt, const ConvertOptions& o) {
  const ModelConfig& config = ckpt.config;
  ModelFileContents m;
  m.config = config;
  m.config.scheme = o.scheme;

  const int32_t plan_src_len = o.max_src_len == 0 ? config.max_src_len : o.max_src_len;
  if (plan_src_len < 1 || plan_src_len > config.max_src_len)
    throw Usage("--max-src-len", std::to_string(plan_src_len) + " not in [1, config max_src_len=" +
                                     std::to_string(config.max_src_len) + "]");
  const bool transformer = config.model_type == ModelType::kTransformer;
  m.decoding = o.decoding;
  if (m.decoding.max_len == 0) {
    m.decoding.max_len = DefaultMaxLen(plan_src_len);
    // A Transformer has target positions for max_tgt_len tokens only.
    if (transformer && m.decoding.max_len > config.transformer.max_tgt_len)
      m.decoding.max_len = config.transformer.max_tgt_len;
  }
  if (transformer && m.decoding.max_len > config.transformer.max_tgt_len)
    throw Usage("--max-len", std::to_string(m.decoding.max_len) + " > the model's max_tgt_len " +
                                 std::to_string(config.transformer.max_tgt_len));
  m.decoding.return_attention = false;  // a session's choice, not a file's
  // The runtime's own check (Model::Load runs it again); its "<field>: why" becomes
  // "--<field-with-dashes>: why".
  const char* field = nullptr;
  char why[160];
  if (ValidateDecodingOptions(m.decoding, "", why, sizeof(why), &field) != Status::kOk) {
    std::string flag = std::string("--") + field;
    std::replace(flag.begin(), flag.end(), '_', '-');
    throw Usage(flag, why + strlen(field) + 2);
  }
  // bytes is filled in by Convert() from the runtime's planner (ArenaPlanLimits()).
  m.arena_plan = ArenaPlan{plan_src_len, m.decoding.beam, 0};

  m.src_vocab.tokens = ckpt.src_tokens;
  m.tgt_vocab.tokens = ckpt.tgt_tokens;

  std::vector<ExpectedTensor> expected;
  ForEachExpectedTensor(config, [&](const ExpectedTensor& t) {
    expected.push_back(t);
    return true;
  });
  for (const ExpectedTensor& t : expected) {
    const auto it = ckpt.tensors.find(t.name);
    if (it == ckpt.tensors.end()) throw ConvertError(kExitBadInput, t.name, "missing");
    m.tensors.push_back(EncodeTensor(t.name, it->second, t.role, o.scheme));
  }
  AddRequantization(m.config, &m.tensors);

  // int8-full activation formats until calibration chooses them (docs/INT8.md "Calibration"):
  // LSTM cell states Q4.11 (|c| < 16); a Transformer's residual stream Q8.7, its int8
  // activations s8 @ 2^-4 (|x| < 8).
  ForEachExpectedActivation(m.config, [&](const ExpectedTensor& a) {
    const int bits = !transformer ? 4 : a.shape[2] == 1 ? 3 : 8;
    m.activations.push_back(ActivationFormatRecord{a.name, bits});
    return true;
  });

  m.checkpoint_sha256 = ckpt.safetensors_sha256;
  m.converter_version = std::string("edgenmt-convert ") + EDGENMT_CONVERTER_VERSION;
  m.created = o.created.empty() ? TodayUtc() : o.created;
  m.source = ckpt.dir;
  return m;
}

SessionLimits ArenaPlanLimits(const Model& model) {
  SessionLimits limits;
  limits.max_src_len = model.arena_plan().max_src_len;
  limits.max_beam = model.arena_plan().beam;
  limits.max_nbest = model.arena_plan().beam;
  limits.max_tgt_len = 0;  // the decoding default max_len
  limits.backend = KernelBackend::kReference;
  limits.attention = false;
  return limits;
}

namespace {

// Transformer calibration rounds: each runs with the formats the previous one chose, so every
// activation is observed downstream of calibrated ones (its int8 inputs would lose the signal
// at the widest formats).
constexpr int kTransformerCalibrationRounds = 3;

// docs/INT8.md "Calibration": RNN: build the file with every cell at the widest format, run it
// over the calibration sources and store the per-cell formats found. Transformer: the same from
// the default formats, kTransformerCalibrationRounds times, the last choosing its int8 formats
// by squared error (quantize.h Int8RangeChoice).
void CalibrateInt8Full(const ConvertOptions& o, ModelFileContents* contents,
                       std::vector<std::string>* lines) {
  const bool transformer = contents->config.model_type == ModelType::kTransformer;
  std::vector<std::string> sources;
  try {
    sources = ReadCalibrationSources(o.calibration_path, o.calibration_max_lines);
  } catch (const ConvertError&) {
    if (o.calibration_required) throw;
    lines->push_back(
        "calibration file " + o.calibration_path + " not found: " +
        (transformer ? "default activation formats kept" : "every LSTM cell kept at Q4.11"));
    return;
  }
  if (!transformer) {
    for (ActivationFormatRecord& a : contents->activations) a.int_bits = kMaxActivationIntBits;
  }
  std::vector<ActivationCalibration> cells;
  int64_t sentences = 0;
  const int rounds = transformer ? kTransformerCalibrationRounds : 1;
  for (int round = 0; round < rounds; ++round) {
    const std::vector<uint8_t> file = BuildModelFile(*contents);
    const size_t padded =
        (file.size() + kModelBufferAlignment - 1) / kModelBufferAlignment * kModelBufferAlignment;
    std::unique_ptr<void, decltype(&free)> buffer(aligned_alloc(kModelBufferAlignment, padded),
                                                  &free);
    if (buffer == nullptr) throw ConvertError(kExitWriteFailed, "calibration", "out of memory");
    memcpy(buffer.get(), file.data(), file.size());
    auto model = std::make_unique<Model>();
    if (model->Load(buffer.get(), file.size()) != Status::kOk)
      throw ConvertError(kExitBadInput, "calibration", model->error_detail());
    const bool last = round + 1 == rounds;
    cells = CalibrateActivationFormats(*model, sources, contents->decoding.max_len, &sentences,
                                       last ? o.calibration_progress : nullptr,
                                       transformer && last ? Int8RangeChoice::kLeastSquaredError
                                                           : Int8RangeChoice::kMaxWithHeadroom);
    for (size_t i = 0; i < cells.size() && i < contents->activations.size(); ++i) {
      contents->activations[i].int_bits = cells[i].int_bits;
    }
  }
  lines->push_back("calibration " + o.calibration_path + ": " + std::to_string(sentences) +
                   " sentences (integer decoder, greedy" +
                   (transformer ? ", " + std::to_string(rounds) + " rounds)" : ")"));
  for (const ActivationCalibration& cell : cells) {
    char line[160];
    if (cell.int8) {
      snprintf(line, sizeof(line), "  %-30s max|x| %8.3f -> s8 @ 2^%d", cell.name.c_str(),
               cell.abs_max, cell.int_bits - 7);
    } else {
      snprintf(line, sizeof(line),
               transformer ? "  %-30s max|x| %8.3f -> Q%d.%d" : "  %-30s max|c| %7.3f -> Q%d.%d",
               cell.name.c_str(), cell.abs_max, cell.int_bits, 15 - cell.int_bits);
    }
    lines->push_back(line);
  }
}

}  // namespace

ConvertSummary Convert(const ConvertOptions& o) {
  if (o.checkpoint_dir.empty()) throw Usage("--checkpoint", "required");
  if (o.out_path.empty()) throw Usage("--out", "required");
  const Checkpoint ckpt = LoadCheckpoint(o.checkpoint_dir);
  std::vector<uint8_t> file;
  ConvertSummary summary = ConvertCheckpoint(ckpt, o, &file);
  WriteFileAtomically(o.out_path, file);
  return summary;
}

ConvertSummary ConvertCheckpoint(const Checkpoint& ckpt, const ConvertOptions& o,
                                 std::vector<uint8_t>* out_file) {
  ModelFileContents contents = MakeModelFileContents(ckpt, o);
  std::vector<std::string> calibration_lines;
  if (o.scheme == QuantScheme::kInt8Full && !contents.activations.empty()) {
    CalibrateInt8Full(o, &contents, &calibration_lines);
  }

  // Verify with the runtime's loader before anything touches the output path, then record the
  // exact arena size the runtime's planner reports for this file, and verify the final bytes.
  ConvertSummary summary;
  std::vector<uint8_t> file = BuildModelFile(contents);
  for (int pass = 0; pass < 2; ++pass) {
    void* aligned =
        aligned_alloc(kModelBufferAlignment, (file.size() + kModelBufferAlignment - 1) /
                                                 kModelBufferAlignment * kModelBufferAlignment);
    if (aligned == nullptr) throw ConvertError(kExitWriteFailed, "model buffer", "out of memory");
    std::unique_ptr<void, decltype(&free)> holder(aligned, &free);
    memcpy(aligned, file.data(), file.size());
    auto model = std::make_unique<Model>();
    const Status status = model->Load(aligned, file.size());
    if (status != Status::kOk) {
      throw ConvertError(kExitBadInput, ckpt.dir,
                         std::string("converted model fails verification (") + StatusName(status) +
                             "): " + model->error_detail());
    }
    if (pass == 0) {
      // A file the converter writes is a file the runtime runs: a model this runtime cannot
      // plan a session for (e.g. a score int8-full does not implement) is refused here.
      size_t bytes = 0;
      char why[160];
      const Status planned =
          RequiredArenaBytes(*model, ArenaPlanLimits(*model), &bytes, why, sizeof why);
      if (planned != Status::kOk) {
        throw ConvertError(kExitBadInput, ckpt.dir,
                           std::string("the runtime cannot run this model as ") +
                               DtypeName(o.scheme) + " (" + StatusName(planned) + "): " + why);
      }
      contents.arena_plan.bytes = bytes;
      file = BuildModelFile(contents);
      continue;
    }
    summary.config = model->config();
    summary.decoding = model->decoding_defaults();
    summary.arena_plan = model->arena_plan();
    summary.tensors = model->num_tensors();
    for (int32_t i = 0; i < model->num_tensors(); ++i) {
      TensorView view{};
      model->TensorAt(i, &view);
      summary.parameters += view.element_count();
    }
  }
  summary.file_bytes = file.size();
  summary.checkpoint_sha256 = ckpt.safetensors_sha256;
  summary.calibration = calibration_lines;
  if (o.scheme != QuantScheme::kFloat32) {
    for (const TensorRecord& record : contents.tensors) {
      summary.quantization.push_back(
          ReportTensor(record.name, ckpt.tensors.at(record.name), record));
    }
    ConvertOptions float_options = o;
    float_options.scheme = QuantScheme::kFloat32;
    summary.float32_file_bytes = BuildModelFile(MakeModelFileContents(ckpt, float_options)).size();
  }
  *out_file = std::move(file);
  return summary;
}

}  // namespace edgenmt::converter
