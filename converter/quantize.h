// Quantization of checkpoint tensors for the int8 schemes (docs/INT8.md): symmetric per-row
// int8, quantization error as SQNR, integer requantization parameters, and the calibration
// records the int8-full scheme needs for activations whose range is not known in advance.
//
// Host-only (std library, exceptions allowed); the integer rounding itself is
// edgenmt/internal/fixed_point.h, shared with the runtime so both sides compute identical integers.
#ifndef EDGENMT_CONVERTER_QUANTIZE_H_
#define EDGENMT_CONVERTER_QUANTIZE_H_

#include <stdint.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "edgenmt/model.h"

namespace edgenmt::converter {

// ---- weights ------------------------------------------------------------------------------------

// A [rows, cols] matrix quantized symmetrically per row: w[r][c] ~ scales[r] * values[r][c].
struct QuantizedRows {
  std::vector<int8_t> values;  // rows * cols, in [-127, 127]
  std::vector<float> scales;   // rows, > 0 (max|row| / 127; see below for all-zero rows)
};

// scale_r = max_c |w[r][c]| / 127, q = round(w / scale_r) with ties away from zero. Rows of all
// zeros get values 0 and the smallest scale of the other rows (1 when every row is zero): the
// file format requires scales > 0, and such a scale never becomes the tensor's largest.
// Non-finite input throws ConvertError(kExitBadInput).
QuantizedRows QuantizeRowsSymmetric(const float* data, int64_t rows, int64_t cols);

// values * scales, row by row (what the hybrid runtime computes with).
std::vector<float> DequantizeRows(const QuantizedRows& q, int64_t rows, int64_t cols);

// Signal-to-quantization-noise ratio 10 log10(sum x^2 / sum (x - y)^2) in dB. +infinity when
// the approximation is exact (including an all-zero signal reproduced exactly); -infinity for a
// zero signal approximated by nonzero values.
double SqnrDb(const float* reference, const float* approx, int64_t n);

// One line of the converter summary and of `edgenmt inspect`.
struct TensorQuantizationReport {
  std::string name;
  std::string storage;  // "f32", "int8/row", "int32"...
  int64_t elements = 0;
  int64_t float_bytes = 0;   // elements * 4
  int64_t stored_bytes = 0;  // data plus scales
  double sqnr_db = 0;        // +inf for exactly stored tensors
};

// ---- integer requantization (int8-full) --------------------------------------------------------

// Per-row (multiplier, shift) pairs for real factors input_scale * weight_scales[r] * 2^pow2 /
// output_scale, computed from the float32 bit patterns with
// fxp::QuantizeMultiplierFromFloatBits exactly as the runtime does at Prepare. Throws
// ConvertError(kExitBadInput) when a factor is not representable.
struct RequantMultipliers {
  std::vector<int32_t> multiplier;
  std::vector<int32_t> shift;
};
RequantMultipliers ComputeRequantMultipliers(const std::vector<float>& weight_scales,
                                             float input_scale, float output_scale, int pow2);

// int8-full: adds to every int8 tensor the requantization constants the runtime binds it with
// (docs/INT8.md "Requantization constants"). Transformer: scale 1 for every int8 tensor. RNN:
// embeddings their row rescale to the shared scale;
// encoder layer 0's W_ih (both directions) the source embedding's shared scale; decoder layer
// 0's W_ih the target embedding's shared scale and, when its input has more columns (c_t, h̃,
// s8 @ 2^-7), scale 1; every other int8 matrix scale 1. Other schemes: nothing.
struct TensorRecord;
void AddRequantization(const ModelConfig& config, std::vector<TensorRecord>* tensors);

// Biases in a fixed-point accumulation format: round(b * 2^frac_bits) with ties away from zero,
// saturated to int32 (Q11.20 for frac_bits = 20, docs/INT8.md).
std::vector<int32_t> QuantizeBiasFixedPoint(const float* bias, int64_t n, int frac_bits);

// ---- calibration --------------------------------------------------------------------------------

// The observed range of one activation over the calibration set.
struct ActivationRange {
  double min = 0;
  double max = 0;
  int64_t count = 0;  // values observed

  void Observe(const float* values, int64_t n);
  void Merge(const ActivationRange& other);
  double abs_max() const { return max > -min ? max : -min; }
};

// Named activation ranges filled by a calibration pass (the converter runs the float model over
// the calibration sources with an observer and records every activation that needs a static
// format). Names are documented in docs/INT8.md "Calibrated activations", e.g.
// "encoder.rnn.l0.cell", "encoder.rnn.l0_reverse.cell", "decoder.layers.0.cell".
class CalibrationTable {
 public:
  void Observe(const std::string& name, const float* values, int64_t n);
  // Null when nothing was observed under `name`.
  const ActivationRange* Find(const std::string& name) const;
  const std::map<std::string, ActivationRange>& ranges() const { return ranges_; }
  int64_t sentences = 0;  // calibration sentences run

 private:
  std::map<std::string, ActivationRange> ranges_;
};

// Smallest m in [min_bits, max_bits] with abs_max * headroom < 2^m: the integer bits of a
// power-of-two format (int16 Qm.(15-m), or int8 at 2^(m-7)) that holds the observed range with
// `headroom` to spare (>= 1), or that lets the largest values saturate (< 1). Returns max_bits
// when even that does not hold it (values then saturate).
int PowerOfTwoIntegerBits(double abs_max, double headroom, int min_bits, int max_bits);

// Reads calibration sources: the first tab-separated field of each non-empty line of a TSV
// (data/g2p/dev.tsv has "word<TAB>phonemes"). At most max_lines (0 = all). Throws
// ConvertError(kExitBadInput) when the file cannot be read.
std::vector<std::string> ReadCalibrationSources(const std::string& path, int64_t max_lines);

// ---- int8-full activation formats ------------------------------------------------------------

// Headroom over the observed max |value| of an int16 format (LSTM cell states, a Transformer's
// residual stream): the chosen format holds 1.25x the calibration range.
constexpr double kCellHeadroom = 1.25;
// int8 formats (a Transformer's sublayer inputs, projections, hidden layers) have 7 bits of
// resolution, so they trade the rarest extremes for a bit of it: a power of two within
// 1 / 0.85 of the observed max is kept, and values above it saturate. This max rule sets the
// formats of every calibration round but the last, which chooses each int8 format by its
// squared error instead (Int8RangeChoice::kLeastSquaredError, quantize_int8_range.h). Chosen on the
// dev split (g2p-en-transformer's int8-full outputs identical to float32: 98.45 % at 1.0, 98.85 %
// at 0.85, on its first-run weights). Measured again on the shipped weights (2026-11-27): dev
// greedy 98.73-98.89 % for every value in 0.75..1.0, no trend, so 0.85 stays (docs/INT8.md
// "int8-full Transformer").
constexpr double kInt8Headroom = 0.85;

// How CalibrateActivationFormats picks an int8 format: the max rule above, or, among the
// powers of two from 3 bits narrower to 1 bit wider than the format the model runs with now,
// the one whose saturating round-to-nearest loses least over the observed values (squared
// error; on the shipped Transformers it lowered the mean and max per-step log-prob error
// against float32 by 6-7 % and 20-35 % on the dev split).
enum class Int8RangeChoice { kMaxWithHeadroom, kLeastSquaredError };

struct ActivationCalibration {
  std::string name;    // ExpectedActivations() name, e.g. "decoder.layers.0.cell"
  bool int8 = false;   // s8 @ 2^(int_bits - 7); else int16 Q(int_bits).(15 - int_bits)
  double abs_max = 0;  // observed max |value|
  int int_bits = 0;    // chosen format
};

// Runs `model` (int8-full, loaded) with the integer decoder and reference kernels, greedily,
// up to max_len steps, over `sources` (lines that do not tokenize are skipped), observing every
// calibrated activation (tensor_layout.h ExpectedActivations(): LSTM cell states, read in
// their stored formats, which should be wide enough not to clip, e.g. all Q6.9; a
// Transformer's activations, read in Q11.20 before they are narrowed), and picks each format
// with PowerOfTwoIntegerBits(abs_max, kCellHeadroom or kInt8Headroom, the range
// ExpectedActivations() allows), or, for int8 formats under kLeastSquaredError, by error.
// Empty for models without calibrated formats. `progress`, when set, is called with (sources
// done, total) after every kCalibrationProgressEvery sources and once at the end.
constexpr size_t kCalibrationProgressEvery = 200;
std::vector<ActivationCalibration> CalibrateActivationFormats(
    const Model& model, const std::vector<std::string>& sources, int32_t max_len,
    int64_t* sentences_run, const std::function<void(int64_t, int64_t)>& progress = nullptr,
    Int8RangeChoice int8_choice = Int8RangeChoice::kMaxWithHeadroom);

}  // namespace edgenmt::converter

#endif  // EDGENMT_CONVERTER_QUANTIZE_H_
