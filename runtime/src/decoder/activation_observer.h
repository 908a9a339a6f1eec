// Calibration's view of a decoder (the converter's int8-full calibration, docs/INT8.md
// "Calibration"): a decoder whose scheme has calibrated activation formats records, per
// tensor_layout.h ExpectedActivations() entry, the largest |value| it computes there (LSTM cell
// states in their stored format; a Transformer's activations in Q11.20) and, where a sink is
// given, hands it the values it observes in Q11.20 before they are narrowed. Null stops it;
// the float schemes ignore it.
#ifndef EDGENMT_DECODER_ACTIVATION_OBSERVER_H_
#define EDGENMT_DECODER_ACTIVATION_OBSERVER_H_

#include <stdint.h>

namespace edgenmt {

// The values a Transformer activation takes, in Q11.20, before the runtime narrows them to its
// format: every int8 activation, and the residual stream where it is narrowed from Q11.20
// (embedding, post-norm sums); the consumer keeps the slots it needs. slot: the
// ExpectedActivations() index; relu: the narrowing clamps negatives to 0. Called synchronously
// from the decoder's Encode / Step; `user` is the caller's.
struct ActivationValueSink {
  void (*observe)(void* user, int32_t slot, const int32_t* q20, int64_t n, bool relu) = nullptr;
  void* user = nullptr;
};

class ActivationObserver {
 public:
  // max_abs: one slot per ExpectedActivations() entry, raised in place; values: null, or a
  // sink for the Transformer's activation values (the RNN ignores it). Both owned
  // by the caller and valid while set.
  virtual void set_activation_observer(int32_t* max_abs, const ActivationValueSink* values) = 0;

 protected:
  ~ActivationObserver() = default;  // not owned through this interface
};

}  // namespace edgenmt

#endif  // EDGENMT_DECODER_ACTIVATION_OBSERVER_H_
