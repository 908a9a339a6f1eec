// The kernel interface every layer computes through: a table of function pointers chosen once
// at Init by KernelBackend (tflite-micro / CMSIS-NN style: one contract, several builds).
//
// Contract shared by all backends (the reference in kernels/reference/ defines it):
// - All matrices are dense and row-major; float32 unless the name says otherwise.
// - Kernels never allocate, never fail and never read outside the sizes given; callers
//   validate shapes and ids before calling (at Prepare time, or ids before a step).
// - Elementwise kernels allow output == input (in place); other kernels require output not to
//   overlap any input unless stated.
// - Pointers need only natural (4-byte) alignment; arena buffers are 16-byte aligned and model
//   tensors 64-byte aligned, which backends may exploit with aligned loads where they check.
#ifndef EDGENMT_KERNELS_KERNEL_TABLE_H_
#define EDGENMT_KERNELS_KERNEL_TABLE_H_

#include <stdint.h>

#include "edgenmt/internal/arena.h"
#include "edgenmt/kernel_backend.h"
#include "edgenmt/status.h"
#include "kernels/kernel_operations.h"

namespace edgenmt {

// Rows of the hybrid product's activation scratch (KernelTable::fully_connected_s8_hybrid): at
// least kHybridScratchRows; sessions that batch sources reserve kHybridBatchScratchRows, so a
// backend can read each weight once for that many rows.
constexpr int32_t kHybridScratchRows = 4;
constexpr int32_t kHybridBatchScratchRows = 16;

// One function pointer per operation of kernels/kernel_operations.h, in its order; nullptr
// means the backend lacks the operation, and a layer needing it returns kUnsupported at
// Prepare, never at Eval. Backends build their tables with kernels/kernel_table_builder.h.
struct KernelTable {
  KernelBackend backend;

#define EDGENMT_KERNEL_TABLE_FIELD(name, ret, params) ret(*name) params = nullptr;
  EDGENMT_KERNEL_OPERATIONS(EDGENMT_KERNEL_TABLE_FIELD)
#undef EDGENMT_KERNEL_TABLE_FIELD

  // Products of at least this many rows use the packed weights, fewer use fully_connected_f32
  // (auto: where each measured faster, tools/bench/kernel_bench.cc). Unused without packing.
  int32_t packed_min_rows = 0;
};

#define EDGENMT_KERNEL_PLUS_ONE(name, ret, params) +1
// Operations in the list, and those of them with a reference kernel (they come first).
constexpr int32_t kKernelOperationCount = 0 EDGENMT_KERNEL_OPERATIONS(EDGENMT_KERNEL_PLUS_ONE);
constexpr int32_t kReferenceKernelOperationCount =
    0 EDGENMT_REFERENCE_KERNEL_OPERATIONS(EDGENMT_KERNEL_PLUS_ONE);
#undef EDGENMT_KERNEL_PLUS_ONE

// No function pointer outside the list: the table is the backend, one pointer per operation
// and packed_min_rows (a hand-added pointer would change the size).
struct KernelTableShape {
  KernelBackend backend;
  void (*operations[kKernelOperationCount])();
  int32_t packed_min_rows;
};
static_assert(sizeof(KernelTable) == sizeof(KernelTableShape),
              "KernelTable's function pointers come from EDGENMT_KERNEL_OPERATIONS only");

// Whether `table` has operation `index` (KernelOperationName order); false outside the range.
bool KernelOperationPresent(const KernelTable& table, int32_t index);

// The portable reference table (static storage): what other backends are tested against; they
// name the reference kernels they keep (EDGENMT_PROVIDE_REFERENCE_KERNEL), never copy it.
const KernelTable& ReferenceKernelTable();

// Returns the table for `backend` in *out (static storage, valid forever). kUnsupported when
// the backend is not compiled into this build; kInvalidArgument for a null out or a value
// outside the enum.
Status GetKernelTable(KernelBackend backend, const KernelTable** out);

}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_KERNEL_TABLE_H_
