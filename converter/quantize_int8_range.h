// Range choice by quantization error for the int8-full Transformer's power-of-two int8 formats
// (docs/INT8.md "Calibration"). A max rule with a fixed headroom treats every tensor alike; a
// heavy-tailed one (a ReLU hidden layer, a projection with a few large channels) loses more to
// a coarse step than it would to clipping its rarest values, and a compact one the reverse.
// Summing the squared error each candidate format would make over the values the calibration
// actually sees picks, per tensor, the format that loses least (Nagel et al. 2021, "A White
// Paper on Neural Network Quantization", MSE range setting, restricted to powers of two).
//
// Host-only (the converter).
#ifndef EDGENMT_CONVERTER_QUANTIZE_INT8_RANGE_H_
#define EDGENMT_CONVERTER_QUANTIZE_INT8_RANGE_H_

#include <stdint.h>

#include <vector>

namespace edgenmt::converter {

class Int8RangeErrors {
 public:
  // Candidates, per slot: integer bits m (s8 @ 2^(m - 7)) from center - kBelow to
  // center + kAbove, within [min_bits, max_bits]. Slots with int8 false collect nothing.
  static constexpr int kBelow = 3;
  static constexpr int kAbove = 1;
  void Reset(const std::vector<int32_t>& centers, const std::vector<int32_t>& min_bits,
             const std::vector<int32_t>& max_bits, const std::vector<bool>& int8);

  // Adds n values in Q11.20 (relu: negative values become 0, the same for every candidate, so
  // they are skipped). slot out of range or not int8: ignored.
  void Add(int32_t slot, const int32_t* q20, int64_t n, bool relu);

  int64_t count(int32_t slot) const;
  // Sum of squared errors (real units) of candidate m; -1 when m is not a candidate.
  double error(int32_t slot, int m) const;
  // The candidate with the smallest error (ties: the wider); `fallback` when nothing was seen.
  int Best(int32_t slot, int fallback) const;

 private:
  struct Slot {
    bool int8 = false;
    int first = 0;               // m of errors[0]
    std::vector<double> errors;  // one per candidate
    std::vector<double> steps;   // 2^(m - 7) per candidate
    int64_t count = 0;
  };
  std::vector<Slot> slots_;
};

}  // namespace edgenmt::converter

#endif  // EDGENMT_CONVERTER_QUANTIZE_INT8_RANGE_H_
