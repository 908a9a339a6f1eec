// How a backend builds its KernelTable: from a spec, a struct whose static members are named
// after the operations the backend provides,
//   struct Spec {
//     EDGENMT_PROVIDE_KERNEL(sigmoid_f32, simd::SigmoidF32Avx2);  // its own kernel
//     EDGENMT_PROVIDE_REFERENCE_KERNEL(softmax_f32);              // left to the reference
//   };
//   BuildKernelTable<Spec>(KernelBackend::kSimd)
// Every operation a spec does not name stays absent (nullptr): Init refuses a model needing
// it (kUnsupported) and the profile shows "(none)", where copying the reference table and
// overriding entries would run the reference under the backend's name.
#ifndef EDGENMT_KERNELS_KERNEL_TABLE_BUILDER_H_
#define EDGENMT_KERNELS_KERNEL_TABLE_BUILDER_H_

#include <type_traits>

#include "kernels/kernel_operations.h"
#include "kernels/kernel_table.h"
#include "kernels/kernels_s8.h"
#include "kernels/reference/reference_kernels.h"

// A spec's entry for `op`: `kernel` converts to exactly KernelTable::op's type or the build
// fails (a kernel with another signature is never installed).
#define EDGENMT_PROVIDE_KERNEL(op, kernel) \
  static constexpr decltype(::edgenmt::KernelTable::op) op = kernel
// A spec's entry leaving `op` to its reference kernel (ref_<op>; KernelOperationProvider
// reports "reference" for it).
#define EDGENMT_PROVIDE_REFERENCE_KERNEL(op) EDGENMT_PROVIDE_KERNEL(op, ::edgenmt::ref_##op)

namespace edgenmt {
namespace kernel_spec {

// Has_<op><Spec>: whether Spec names op. One trait per operation: a member name cannot be a
// template argument.
#define EDGENMT_KERNEL_SPEC_HAS(name, ret, params) \
  template <typename S, typename = void>           \
  struct Has_##name : std::false_type {};          \
  template <typename S>                            \
  struct Has_##name<S, std::void_t<decltype(S::name)>> : std::true_type {};
EDGENMT_KERNEL_OPERATIONS(EDGENMT_KERNEL_SPEC_HAS)
#undef EDGENMT_KERNEL_SPEC_HAS

}  // namespace kernel_spec

// The table of `backend` holding the kernels Spec names, nullptr for every other operation;
// packed_min_rows 0 (the caller sets it where the spec packs weights).
template <typename Spec>
constexpr KernelTable BuildKernelTable(KernelBackend backend) {
  KernelTable table{};
  table.backend = backend;
#define EDGENMT_KERNEL_SPEC_SET(name, ret, params) \
  if constexpr (kernel_spec::Has_##name<Spec>::value) table.name = Spec::name;
  EDGENMT_KERNEL_OPERATIONS(EDGENMT_KERNEL_SPEC_SET)
#undef EDGENMT_KERNEL_SPEC_SET
  return table;
}

// The reference backend: every operation that has a reference kernel, nothing packed.
struct ReferenceKernelSpec {
#define EDGENMT_REFERENCE_SPEC_ENTRY(name, ret, params) EDGENMT_PROVIDE_REFERENCE_KERNEL(name);
  EDGENMT_REFERENCE_KERNEL_OPERATIONS(EDGENMT_REFERENCE_SPEC_ENTRY)
#undef EDGENMT_REFERENCE_SPEC_ENTRY
};

}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_KERNEL_TABLE_BUILDER_H_
