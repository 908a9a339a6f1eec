// Which kernel implementation a Translator computes with.
//
// Every backend implements the same contract as the portable reference (runtime/src/kernels/
// kernel_table.h) and is tested against it. Selecting a backend that this build does not
// contain is an error (Status::kUnsupported), never a silent fallback to another backend.
#ifndef EDGENMT_KERNEL_BACKEND_H_
#define EDGENMT_KERNEL_BACKEND_H_

#include <stdint.h>

namespace edgenmt {

enum class KernelBackend : uint8_t {
  kReference = 0,  // portable C++, always compiled in
  kXnnpack = 1,    // XNNPACK (compiled in with EDGENMT_WITH_XNNPACK)
  kNeon = 2,       // hand-written ARM NEON (compiled in with EDGENMT_WITH_NEON)
};

// Stable name ("reference", "xnnpack", "neon"); "unknown" for a value outside the enum.
const char* KernelBackendName(KernelBackend backend);

// True when `backend` is compiled into this build.
bool KernelBackendAvailable(KernelBackend backend);

// The operations of the kernel table (runtime/src/kernels/kernel_table.h), for tools that show
// which backend computes what (`edgenmt translate --profile`): operation `index` in
// [0, KernelOperationCount()) is named KernelOperationName(index) ("fully_connected_f32", ...;
// nullptr outside the range); KernelOperationImplemented says whether `backend` provides it
// (false when the backend is not compiled in). int8-full's integer kernels are not in the
// table: they are the portable reference everywhere.
int32_t KernelOperationCount();
const char* KernelOperationName(int32_t index);
bool KernelOperationImplemented(KernelBackend backend, int32_t index);

}  // namespace edgenmt

#endif  // EDGENMT_KERNEL_BACKEND_H_
