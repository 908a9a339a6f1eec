// Calibration's view of a decoder (the converter's int8-full calibration, docs/INT8.md
// "Calibration"): a decoder whose scheme has calibrated activation formats records, per
// tensor_layout.h ExpectedActivations() entry, the largest |value| it computes there (LSTM cell
// states in their stored format; a Transformer's activations in Q11.20). Null stops it; the
// float schemes ignore it.
#ifndef EDGENMT_DECODER_ACTIVATION_OBSERVER_H_
#define EDGENMT_DECODER_ACTIVATION_OBSERVER_H_

#include <stdint.h>

namespace edgenmt {

class ActivationObserver {
 public:
  // max_abs: one slot per ExpectedActivations() entry, raised in place; owned by the caller
  // and valid while set.
  virtual void set_activation_observer(int32_t* max_abs) = 0;

 protected:
  ~ActivationObserver() = default;  // not owned through this interface
};

}  // namespace edgenmt

#endif  // EDGENMT_DECODER_ACTIVATION_OBSERVER_H_
