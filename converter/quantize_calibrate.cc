// int8-full calibration (docs/INT8.md "Calibration"): the activation formats (LSTM cell
// states, a Transformer's residual stream and int8 activations) are chosen by running the model
// itself, integer path, over the calibration sources and observing max |value|.
#include <stdlib.h>

#include <memory>

#include "convert_error.h"
#include "decoder/step_decoder.h"
#include "kernels/kernel_table.h"
#include "edgenmt/internal/tensor_layout.h"
#include "edgenmt/tokenizer.h"
#include "error_detail.h"
#include "quantize.h"
#include "quantize_int8_range.h"

namespace edgenmt::converter {

std::vector<ActivationCalibration> CalibrateActivationFormats(
    const Model& model, const std::vector<std::string>& sources, int32_t max_len,
    int64_t* sentences_run, const std::function<void(int64_t, int64_t)>& progress,
    Int8RangeChoice int8_choice) {
  const ModelConfig& c = model.config();
  std::vector<ActivationCalibration> cells;
  std::vector<int32_t> min_bits, max_bits;
  ForEachExpectedActivation(c, [&](const ExpectedTensor& t) {
    ActivationCalibration cell;
    cell.name = t.name;
    cell.int8 = t.shape[2] == 1;
    cells.push_back(cell);
    min_bits.push_back(t.shape[0]);
    max_bits.push_back(t.shape[1]);
    return true;
  });
  *sentences_run = 0;
  if (cells.empty()) return cells;
  std::vector<int32_t> observed_bits(cells.size());
  for (size_t i = 0; i < cells.size(); ++i) {
    if (model.FindActivationFormat(cells[i].name.c_str(), &observed_bits[i]) != Status::kOk)
      throw ConvertError(kExitBadInput, cells[i].name, "activation format missing");
  }

  const KernelTable* kernels = nullptr;
  if (GetKernelTable(KernelBackend::kReference, &kernels) != Status::kOk)
    throw ConvertError(kExitBadInput, "--dtype int8-full", "no reference kernels");
  auto decoder = std::make_unique<StepDecoder>();
  OwnedErrorDetail detail;
  Arena measuring;
  if (decoder->Prepare(model, kernels, c.max_src_len, 1, &measuring, &detail) != Status::kOk)
    throw ConvertError(kExitBadInput, "--dtype int8-full",
                       std::string("the runtime cannot run this model: ") + detail.c_str());
  const size_t bytes = measuring.used();
  std::unique_ptr<void, decltype(&free)> memory(
      aligned_alloc(
          kArenaAlignment,
          (bytes + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment + kArenaAlignment),
      &free);
  Arena arena(memory.get(), bytes + kArenaAlignment);
  decoder = std::make_unique<StepDecoder>();
  if (decoder->Prepare(model, kernels, c.max_src_len, 1, &arena, &detail) != Status::kOk)
    throw ConvertError(kExitBadInput, "--dtype int8-full",
                       std::string("the runtime cannot run this model: ") + detail.c_str());

  std::vector<int32_t> max_raw(cells.size(), 0);
  // kLeastSquaredError: the int8 slots' values go to a sink that sums each candidate's error
  // around the format the model runs with now.
  const bool by_error = int8_choice == Int8RangeChoice::kLeastSquaredError;
  Int8RangeErrors errors;
  ActivationValueSink sink;
  if (by_error) {
    std::vector<bool> int8(cells.size());
    for (size_t i = 0; i < cells.size(); ++i) int8[i] = cells[i].int8;
    errors.Reset(observed_bits, min_bits, max_bits, int8);
    sink.observe = [](void* user, int32_t slot, const int32_t* q20, int64_t n, bool relu) {
      static_cast<Int8RangeErrors*>(user)->Add(slot, q20, n, relu);
    };
    sink.user = &errors;
  }
  decoder->set_activation_observer(max_raw.data(), by_error ? &sink : nullptr);
  std::vector<int32_t> ids(static_cast<size_t>(c.max_src_len));
  const int32_t bos = model.tgt_vocab().bos_id, eos = model.tgt_vocab().eos_id;
  const int64_t total = static_cast<int64_t>(sources.size());
  for (int64_t done = 0; done < total; ++done) {
    if (progress && done > 0 && done % static_cast<int64_t>(kCalibrationProgressEvery) == 0) {
      progress(done, total);
    }
    const std::string& source = sources[static_cast<size_t>(done)];
    int32_t n = 0, unknown = 0;
    if (TokenizeSource(model, source.data(), source.size(), ids.data(), c.max_src_len, &n,
                       &unknown) != Status::kOk) {
      continue;  // too long, empty or not UTF-8: not representative input
    }
    decoder->Encode(ids.data(), n);
    int32_t token = bos;
    for (int32_t t = 0; t < max_len; ++t) {
      decoder->Step(&token, 1);
      const float* log_probs = decoder->log_probs();
      int32_t best = 0;
      for (int32_t v = 1; v < c.tgt_vocab_size; ++v)
        best = log_probs[v] > log_probs[best] ? v : best;
      token = best;
      if (token == eos) break;
    }
    ++*sentences_run;
  }
  if (progress) progress(total, total);
  // The observer's units: an LSTM cell's stored format, a Transformer's Q11.20.
  const bool transformer = c.model_type == ModelType::kTransformer;
  for (size_t i = 0; i < cells.size(); ++i) {
    const int frac_bits = transformer ? 20 : 15 - observed_bits[i];
    cells[i].abs_max =
        static_cast<double>(max_raw[i]) / static_cast<double>(int64_t{1} << frac_bits);
    cells[i].int_bits = PowerOfTwoIntegerBits(
        cells[i].abs_max, cells[i].int8 ? kInt8Headroom : kCellHeadroom, min_bits[i], max_bits[i]);
    if (by_error && cells[i].int8) {
      cells[i].int_bits = errors.Best(static_cast<int32_t>(i), cells[i].int_bits);
    }
  }
  return cells;
}

}  // namespace edgenmt::converter
