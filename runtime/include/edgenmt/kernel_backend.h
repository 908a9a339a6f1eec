// Which kernel implementation a Translator computes with.
//
// Every backend implements the same contract as the portable reference (runtime/src/kernels/
// kernel_table.h) and is tested against it. Selecting a backend that this build does not
// contain is an error (Status::kUnsupported), never a silent fallback to another backend.
#ifndef EDGENMT_KERNEL_BACKEND_H_
#define EDGENMT_KERNEL_BACKEND_H_

#include <stdint.h>

namespace edgenmt {

// The one list of backends: X(enumerator, value, name, what it is). The enum, kKernelBackends
// and KernelBackendName are made from it here; CMake reads its names from this file
// (EDGENMT_DEFAULT_BACKEND); the C API's ENMT_BACKEND_* (edgenmt.h, static_asserts in c_api.cc)
// and Python's BACKENDS (python/edgenmt/_capi.py) are checked against it by the ctest
// backend_list_consistent (tests/scripts/check_backend_list.py). Append only: values are ABI.
// clang-format off
#define EDGENMT_KERNEL_BACKENDS(X)                                                              \
  X(kReference, 0, "reference", "portable C++, always compiled in")                            \
  X(kXnnpack,   1, "xnnpack",   "XNNPACK (compiled in with EDGENMT_WITH_XNNPACK)")               \
  X(kSimd,      2, "simd",      "hand-written SIMD at the best level this CPU has (simd_level)") \
  X(kAuto,      3, "auto",      "per operation, the fastest compiled-in backend")
// clang-format on

#define EDGENMT_KERNEL_BACKEND_ENUMERATOR(id, value, name, what) id = value,
enum class KernelBackend : uint8_t { EDGENMT_KERNEL_BACKENDS(EDGENMT_KERNEL_BACKEND_ENUMERATOR) };
#undef EDGENMT_KERNEL_BACKEND_ENUMERATOR

// Every backend, in enum order (for listings and name parsing).
#define EDGENMT_KERNEL_BACKEND_ELEMENT(id, value, name, what) KernelBackend::id,
constexpr KernelBackend kKernelBackends[] = {
    EDGENMT_KERNEL_BACKENDS(EDGENMT_KERNEL_BACKEND_ELEMENT)};
#undef EDGENMT_KERNEL_BACKEND_ELEMENT

// The backend a session gets when the caller names none (SessionLimits, enmt_limits_default,
// the CLI, Python): the fast one for this machine, so a new user never gets the portable
// reference by accident. A build fixes it at compile time with CMake's EDGENMT_DEFAULT_BACKEND
// (the firmware presets name their board's backend); otherwise kSimd where this build has it
// and the CPU has its baseline level (AVX2+FMA, NEON), else kReference (a CPU below that
// baseline, or a build without a SIMD backend). XNNPACK is never the default: it costs a second
// copy of the float32 weights in the arena (docs/BACKENDS.md), so `auto` is asked for by name.
// Which one it is, is reported by KernelBackendName / KernelBackendVariant of the result.
KernelBackend DefaultKernelBackend();

// Stable name ("reference", "xnnpack", "simd", "auto"); "unknown" for a value outside the enum.
const char* KernelBackendName(KernelBackend backend);

// The backend named `name` (a KernelBackendName); false, *out unchanged, for any other string.
bool KernelBackendFromName(const char* name, KernelBackend* out);

// True when `backend` is compiled into this build and can run on this CPU (kSimd needs at
// least the baseline level of its architecture: AVX2+FMA on x86-64, NEON on ARM).
bool KernelBackendAvailable(KernelBackend backend);

// What `backend` runs on this CPU, for reports: the instruction level of kSimd ("avx512-vnni",
// "avx2-fma", "neon-dotprod", "neon"), "portable" for the reference, and "" when the backend is
// not available. Static string.
const char* KernelBackendVariant(KernelBackend backend);

// The operations of the kernel table (runtime/src/kernels/kernel_table.h), for tools that show
// which backend computes what (`edgenmt translate --profile`): operation `index` in
// [0, KernelOperationCount()) is named KernelOperationName(index) ("fully_connected_f32", ...;
// nullptr outside the range); KernelOperationImplemented says whether `backend` provides it
// (false when the backend is not available). KernelOperationProvider says what really runs
// it: "reference" where the backend uses the portable kernel, else the backend's variant
// (KernelBackendVariant: "avx512-vnni", ...); "" when not implemented. Static strings.
int32_t KernelOperationCount();
const char* KernelOperationName(int32_t index);
bool KernelOperationImplemented(KernelBackend backend, int32_t index);
const char* KernelOperationProvider(KernelBackend backend, int32_t index);

}  // namespace edgenmt

#endif  // EDGENMT_KERNEL_BACKEND_H_
