// The one interface every numeric scheme's core implements (numerics/float_numerics.h is its
// documentation): the types and members model code names. A compile-time check, so a scheme
// cannot drift from the other: a member added to one and not the other, or renamed in one,
// fails the build here rather than as a template error deep in a model folder. A model type
// checks its own operations the same way (rnn/rnn_numerics_interface.h).
#ifndef EDGENMT_NUMERICS_NUMERICS_INTERFACE_H_
#define EDGENMT_NUMERICS_NUMERICS_INTERFACE_H_

#include <type_traits>

namespace edgenmt {
namespace numerics_interface {

// Detection of one member or type by name: a name cannot be a template argument, so one trait
// per name (EDGENMT_NUMERICS_MEMBER generates it).
#define EDGENMT_NUMERICS_MEMBER(name)     \
  template <typename N, typename = void>  \
  struct Has_##name : std::false_type {}; \
  template <typename N>                   \
  struct Has_##name<N, std::void_t<decltype(&N::name)>> : std::true_type {};
#define EDGENMT_NUMERICS_TYPE(name)           \
  template <typename N, typename = void>      \
  struct HasType_##name : std::false_type {}; \
  template <typename N>                       \
  struct HasType_##name<N, std::void_t<typename N::name>> : std::true_type {};

// clang-format off
#define EDGENMT_NUMERICS_MEMBERS(X)                                                      \
  X(Prepare) X(kernels) X(BindEmbedding) X(EmbeddingScaleBits) X(BindMatrix) X(BindBias) \
  X(Linear) X(TanhToHidden) X(AddAcc) X(Softmax) X(WeightToFloat) X(LogSoftmax)
// clang-format on
#define EDGENMT_NUMERICS_TYPES(X) \
  X(Hidden) X(Acc) X(Weight) X(BiasT) X(LogProb) X(Matrix) X(Embedding)

EDGENMT_NUMERICS_MEMBERS(EDGENMT_NUMERICS_MEMBER)
EDGENMT_NUMERICS_TYPES(EDGENMT_NUMERICS_TYPE)

template <typename N>
constexpr bool Implements() {
#define EDGENMT_NUMERICS_CHECK_MEMBER(name) Has_##name<N>::value&&
#define EDGENMT_NUMERICS_CHECK_TYPE(name) HasType_##name<N>::value&&
  return EDGENMT_NUMERICS_MEMBERS(EDGENMT_NUMERICS_CHECK_MEMBER)
      EDGENMT_NUMERICS_TYPES(EDGENMT_NUMERICS_CHECK_TYPE) true;
#undef EDGENMT_NUMERICS_CHECK_MEMBER
#undef EDGENMT_NUMERICS_CHECK_TYPE
}

}  // namespace numerics_interface
}  // namespace edgenmt

#endif  // EDGENMT_NUMERICS_NUMERICS_INTERFACE_H_
