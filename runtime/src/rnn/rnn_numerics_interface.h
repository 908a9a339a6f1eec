// The RNN's operations every numeric scheme implements over its core (rnn/float_rnn_numerics.h
// is their documentation), checked at compile time like the core (numerics/numerics_interface.h).
#ifndef EDGENMT_RNN_RNN_NUMERICS_INTERFACE_H_
#define EDGENMT_RNN_RNN_NUMERICS_INTERFACE_H_

#include "numerics/numerics_interface.h"

namespace edgenmt {
namespace rnn_numerics_interface {

// clang-format off
#define EDGENMT_RNN_NUMERICS_MEMBERS(X)                                                \
  X(BindCell) X(InputScratchElements) X(InputLinear) X(CellStep) X(BridgeHidden)       \
  X(BridgeCellState) X(BridgeCellLinear) X(DotScores) X(GeneralScores) X(LocalPWindow) \
  X(LocalPGaussian) X(Context) X(HasState) X(kMemoryIsHidden)
// clang-format on
#define EDGENMT_RNN_NUMERICS_TYPES(X) X(State) X(Memory) X(Position) X(CellWeights)

EDGENMT_RNN_NUMERICS_MEMBERS(EDGENMT_NUMERICS_MEMBER)
EDGENMT_RNN_NUMERICS_TYPES(EDGENMT_NUMERICS_TYPE)

template <typename N>
constexpr bool Implements() {
#define EDGENMT_RNN_NUMERICS_CHECK_MEMBER(name) Has_##name<N>::value&&
#define EDGENMT_RNN_NUMERICS_CHECK_TYPE(name) HasType_##name<N>::value&&
  return numerics_interface::Implements<N>() &&
         EDGENMT_RNN_NUMERICS_MEMBERS(EDGENMT_RNN_NUMERICS_CHECK_MEMBER)
             EDGENMT_RNN_NUMERICS_TYPES(EDGENMT_RNN_NUMERICS_CHECK_TYPE) true;
#undef EDGENMT_RNN_NUMERICS_CHECK_MEMBER
#undef EDGENMT_RNN_NUMERICS_CHECK_TYPE
}

}  // namespace rnn_numerics_interface
}  // namespace edgenmt

#endif  // EDGENMT_RNN_RNN_NUMERICS_INTERFACE_H_
