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
  kSimd = 2,       // hand-written SIMD: AVX2+FMA / AVX-512 VNNI on x86-64, NEON (+dot product)
                   // on ARM; the best level this CPU has, detected at run time
  kAuto = 3,       // per operation, the fastest compiled-in backend (kernels/kernel_table.cc)
};

// Every backend, in enum order (for listings and name parsing).
constexpr KernelBackend kKernelBackends[] = {KernelBackend::kReference, KernelBackend::kXnnpack,
                                             KernelBackend::kSimd, KernelBackend::kAuto};

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
