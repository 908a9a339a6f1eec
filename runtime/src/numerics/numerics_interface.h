// The one interface every numeric scheme implements (numerics/float_numerics.h is its
// documentation): the types and members the generic model code (rnn/) names. A compile-time
// check, so a scheme cannot drift from the other: a member added to one and not the other, or
// renamed in one, fails the build here rather than as a template error deep in rnn/.
#ifndef EDGENMT_NUMERICS_NUMERICS_INTERFACE_H_
#define EDGENMT_NUMERICS_NUMERICS_INTERFACE_H_

#include <type_traits>

namespace edgenmt {
namespace numerics_interface {

// Detection of one member or type by name: a name cannot be a template argument, so one trait
// per name (EDGENMT_NUMERICS_MEMBER generates it).
#define EDGENMT_NUMERICS_MEMBER(name)                                                       \
  template <typename N, typename = void>                                                    \
  struct Has_##name : std::false_type {};                                                   \
  template <typename N>                                                                     \
  struct Has_##name<N, std::void_t<decltype(&N::name)>> : std::true_type {};
#define EDGENMT_NUMERICS_TYPE(name)                                                         \
  template <typename N, typename = void>                                                    \
  struct HasType_##name : std::false_type {};                                               \
  template <typename N>                                                                     \
  struct HasType_##name<N, std::void_t<typename N::name>> : std::true_type {};

#define EDGENMT_NUMERICS_MEMBERS(X)                                                         \
  X(Prepare) X(kernels) X(BindEmbedding) X(EmbeddingScaleBits) X(BindMatrix) X(BindBias)    \
  X(BindCell) X(InputScratchElements) X(Linear) X(InputLinear) X(CellStep) X(BridgeHidden)  \
  X(BridgeCellState) X(BridgeCellLinear) X(TanhToHidden) X(AddAcc) X(DotScores)            \
  X(GeneralScores) X(LocalPWindow) X(Softmax) X(LocalPGaussian) X(Context) X(WeightToFloat) \
  X(LogSoftmax) X(HasState) X(kMemoryIsHidden)
#define EDGENMT_NUMERICS_TYPES(X)                                                           \
  X(Hidden) X(State) X(Acc) X(Memory) X(Weight) X(Position) X(BiasT) X(LogProb) X(Matrix)   \
  X(Embedding) X(CellWeights)

EDGENMT_NUMERICS_MEMBERS(EDGENMT_NUMERICS_MEMBER)
EDGENMT_NUMERICS_TYPES(EDGENMT_NUMERICS_TYPE)

template <typename N>
constexpr bool Implements() {
#define EDGENMT_NUMERICS_CHECK_MEMBER(name) Has_##name<N>::value &&
#define EDGENMT_NUMERICS_CHECK_TYPE(name) HasType_##name<N>::value &&
  return EDGENMT_NUMERICS_MEMBERS(EDGENMT_NUMERICS_CHECK_MEMBER)
         EDGENMT_NUMERICS_TYPES(EDGENMT_NUMERICS_CHECK_TYPE) true;
#undef EDGENMT_NUMERICS_CHECK_MEMBER
#undef EDGENMT_NUMERICS_CHECK_TYPE
}

}  // namespace numerics_interface
}  // namespace edgenmt

#endif  // EDGENMT_NUMERICS_NUMERICS_INTERFACE_H_
