#include "quantize.h"

#include <math.h>
#include <string.h>

#include <fstream>
#include <limits>

#include "convert_error.h"
#include "edgenmt/internal/fixed_point.h"
#include "edgenmt/internal/int8_requantization.h"

namespace edgenmt::converter {
namespace {

using fxp::FloatToBits;

}  // namespace

QuantizedRows QuantizeRowsSymmetric(const float* data, int64_t rows, int64_t cols) {
  QuantizedRows q;
  q.values.resize(static_cast<size_t>(rows * cols));
  q.scales.resize(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = data + r * cols;
    float max_abs = 0.0f;
    for (int64_t c = 0; c < cols; ++c) {
      if (!std::isfinite(row[c]))
        throw ConvertError(kExitBadInput, "quantize",
                           "non-finite weight in row " + std::to_string(r));
      max_abs = std::max(max_abs, std::fabs(row[c]));
    }
    // The scale is the float32 value the file stores; quantize with exactly that value. All-zero
    // rows get theirs below.
    const float scale = max_abs > 0.0f ? max_abs / 127.0f : 0.0f;
    q.scales[static_cast<size_t>(r)] = scale;
    if (scale == 0.0f) continue;
    for (int64_t c = 0; c < cols; ++c) {
      const double v = static_cast<double>(row[c]) / scale;
      const long rounded = lround(v);  // ties away from zero
      q.values[static_cast<size_t>(r * cols + c)] =
          static_cast<int8_t>(rounded > 127 ? 127 : (rounded < -127 ? -127 : rounded));
    }
  }
  // An all-zero row (an embedding's padding row, a pruned unit) stores values 0 and the
  // smallest scale of the tensor's other rows (1 if every row is zero): the file format needs
  // scales > 0, and a scale that is never the tensor's largest cannot become the shared scale
  // of an int8-full embedding or an outlier of any per-tensor statistic.
  float smallest = 0.0f;
  for (float s : q.scales) smallest = s > 0.0f && (smallest == 0.0f || s < smallest) ? s : smallest;
  for (float& s : q.scales) s = s > 0.0f ? s : (smallest > 0.0f ? smallest : 1.0f);
  return q;
}

std::vector<float> DequantizeRows(const QuantizedRows& q, int64_t rows, int64_t cols) {
  std::vector<float> out(static_cast<size_t>(rows * cols));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[static_cast<size_t>(r * cols + c)] =
          q.scales[static_cast<size_t>(r)] *
          static_cast<float>(q.values[static_cast<size_t>(r * cols + c)]);
  return out;
}

double SqnrDb(const float* reference, const float* approx, int64_t n) {
  double signal = 0.0, noise = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double x = reference[i];
    const double e = x - static_cast<double>(approx[i]);
    signal += x * x;
    noise += e * e;
  }
  if (noise == 0.0) return std::numeric_limits<double>::infinity();
  if (signal == 0.0) return -std::numeric_limits<double>::infinity();
  return 10.0 * log10(signal / noise);
}

RequantMultipliers ComputeRequantMultipliers(const std::vector<float>& weight_scales,
                                             float input_scale, float output_scale, int pow2) {
  RequantMultipliers r;
  r.multiplier.resize(weight_scales.size());
  r.shift.resize(weight_scales.size());
  for (size_t i = 0; i < weight_scales.size(); ++i) {
    int shift = 0;
    if (!fxp::QuantizeMultiplierFromFloatBits(
            FloatToBits(input_scale), FloatToBits(weight_scales[i]), FloatToBits(output_scale),
            pow2, &r.multiplier[i], &shift)) {
      throw ConvertError(kExitBadInput, "quantize",
                         "requantization factor out of range for row " + std::to_string(i));
    }
    r.shift[i] = shift;
  }
  return r;
}

std::vector<int32_t> QuantizeBiasFixedPoint(const float* bias, int64_t n, int frac_bits) {
  std::vector<int32_t> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(bias[i]))
      throw ConvertError(kExitBadInput, "quantize", "non-finite bias at " + std::to_string(i));
    const double v = ldexp(static_cast<double>(bias[i]), frac_bits);
    const double clamped =
        v > 2147483647.0 ? 2147483647.0 : (v < -2147483648.0 ? -2147483648.0 : v);
    out[static_cast<size_t>(i)] = static_cast<int32_t>(llround(clamped));
  }
  return out;
}

void ActivationRange::Observe(const float* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = values[i];
    if (count == 0) {
      min = max = v;
    } else {
      min = v < min ? v : min;
      max = v > max ? v : max;
    }
    ++count;
  }
}

void ActivationRange::Merge(const ActivationRange& other) {
  if (other.count == 0) return;
  if (count == 0) {
    *this = other;
    return;
  }
  min = other.min < min ? other.min : min;
  max = other.max > max ? other.max : max;
  count += other.count;
}

void CalibrationTable::Observe(const std::string& name, const float* values, int64_t n) {
  ranges_[name].Observe(values, n);
}

const ActivationRange* CalibrationTable::Find(const std::string& name) const {
  auto it = ranges_.find(name);
  return it == ranges_.end() || it->second.count == 0 ? nullptr : &it->second;
}

int PowerOfTwoIntegerBits(double abs_max, double headroom, int min_bits, int max_bits) {
  for (int m = min_bits; m < max_bits; ++m) {
    if (abs_max * headroom < ldexp(1.0, m)) return m;
  }
  return max_bits;
}

std::vector<std::string> ReadCalibrationSources(const std::string& path, int64_t max_lines) {
  std::ifstream in(path);
  if (!in) throw ConvertError(kExitBadInput, "--calibration", "cannot read " + path);
  std::vector<std::string> sources;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string source = line.substr(0, line.find('\t'));
    if (source.find_first_not_of(" \t") == std::string::npos) continue;
    sources.push_back(source);
    if (max_lines > 0 && static_cast<int64_t>(sources.size()) >= max_lines) break;
  }
  return sources;
}

}  // namespace edgenmt::converter
