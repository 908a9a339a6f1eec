#include "quantize_int8_range.h"

#include <math.h>

namespace edgenmt::converter {

void Int8RangeErrors::Reset(const std::vector<int32_t>& centers,
                            const std::vector<int32_t>& min_bits,
                            const std::vector<int32_t>& max_bits, const std::vector<bool>& int8) {
  slots_.assign(centers.size(), Slot());
  for (size_t i = 0; i < centers.size(); ++i) {
    Slot& s = slots_[i];
    s.int8 = int8[i];
    if (!s.int8) continue;
    const int lo = centers[i] - kBelow < min_bits[i] ? min_bits[i] : centers[i] - kBelow;
    const int hi = centers[i] + kAbove > max_bits[i] ? max_bits[i] : centers[i] + kAbove;
    s.first = lo;
    s.errors.assign(hi >= lo ? static_cast<size_t>(hi - lo + 1) : 0, 0.0);
    for (int m = lo; m <= hi; ++m) s.steps.push_back(ldexp(1.0, m - 7));
  }
}

void Int8RangeErrors::Add(int32_t slot, const int32_t* q20, int64_t n, bool relu) {
  if (slot < 0 || static_cast<size_t>(slot) >= slots_.size()) return;
  Slot& s = slots_[static_cast<size_t>(slot)];
  if (!s.int8) return;
  s.count += n;
  for (int64_t i = 0; i < n; ++i) {
    if (relu && q20[i] < 0) continue;
    const double x = ldexp(static_cast<double>(q20[i]), -20);
    for (size_t c = 0; c < s.errors.size(); ++c) {
      const double step = s.steps[c];
      // The runtime's requantization: round to nearest, saturate to [-128, 127].
      double q = round(x / step);
      q = q > 127 ? 127 : (q < -128 ? -128 : q);
      const double d = x - q * step;
      s.errors[c] += d * d;
    }
  }
}

int64_t Int8RangeErrors::count(int32_t slot) const {
  if (slot < 0 || static_cast<size_t>(slot) >= slots_.size()) return 0;
  return slots_[static_cast<size_t>(slot)].count;
}

double Int8RangeErrors::error(int32_t slot, int m) const {
  if (slot < 0 || static_cast<size_t>(slot) >= slots_.size()) return -1;
  const Slot& s = slots_[static_cast<size_t>(slot)];
  const int c = m - s.first;
  if (c < 0 || static_cast<size_t>(c) >= s.errors.size()) return -1;
  return s.errors[static_cast<size_t>(c)];
}

int Int8RangeErrors::Best(int32_t slot, int fallback) const {
  if (count(slot) == 0) return fallback;
  const Slot& s = slots_[static_cast<size_t>(slot)];
  if (s.errors.empty()) return fallback;
  size_t best = s.errors.size() - 1;
  for (size_t c = s.errors.size() - 1; c-- > 0;) {
    if (s.errors[c] < s.errors[best]) best = c;
  }
  return s.first + static_cast<int>(best);
}

}  // namespace edgenmt::converter
