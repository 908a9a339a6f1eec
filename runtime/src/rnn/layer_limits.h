// Compile-time caps of the layer objects (they hold fixed arrays so they can live in the arena
// or on the stack without heap). A model beyond these caps is refused with kUnsupported at
// Prepare, never truncated.
#ifndef EDGENMT_RNN_LAYER_LIMITS_H_
#define EDGENMT_RNN_LAYER_LIMITS_H_

#include <stdint.h>

namespace edgenmt {

// Stacked encoder or decoder layers a runtime build supports (the file format allows up to
// kMaxModelLayers; raising this costs about 100 bytes of State per layer).
constexpr int32_t kMaxRuntimeLayers = 8;

}  // namespace edgenmt

#endif  // EDGENMT_RNN_LAYER_LIMITS_H_
