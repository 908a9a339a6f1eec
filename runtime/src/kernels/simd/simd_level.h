// Instruction-set levels of the SIMD backend (KernelBackend::kSimd) and their detection.
// The backend runs the best level this CPU has; tests and tools may ask for any level the CPU
// supports (GetSimdKernelTable), never for one it lacks, so no path can execute an illegal
// instruction.
#ifndef EDGENMT_KERNELS_SIMD_SIMD_LEVEL_H_
#define EDGENMT_KERNELS_SIMD_SIMD_LEVEL_H_

#include <stdint.h>

#include "edgenmt/status.h"
#include "kernels/kernel_table.h"

namespace edgenmt {

enum class SimdLevel : uint8_t {
  kNone = 0,
  kAvx2Fma = 1,      // x86-64: AVX2 int8 (vpmaddwd) and FMA float32
  kAvx512Vnni = 2,   // x86-64: AVX-512 VNNI int8 (vpdpbusd), FMA float32
  kNeon = 3,         // ARMv7-A / ARMv8-A NEON
  kNeonDotprod = 4,  // ARMv8.2-A dot product (SDOT) int8, NEON float32
  kHelium = 5,       // Armv8.1-M MVE (Helium: Cortex-M55, M85), integer and float
  kDsp = 6,          // Armv7E-M / Armv8-M DSP extension (SIMD32: Cortex-M4, M7, M33), SMLAD
};

constexpr SimdLevel kSimdLevels[] = {SimdLevel::kAvx2Fma, SimdLevel::kAvx512Vnni,
                                     SimdLevel::kNeon,    SimdLevel::kNeonDotprod,
                                     SimdLevel::kHelium,  SimdLevel::kDsp};

// "avx2-fma", "avx512-vnni", "neon", "neon-dotprod", "helium", "dsp"; "none" for kNone and
// unknown values. The microcontroller levels are fixed by the build's -mcpu (no run-time
// detection on bare metal): a Cortex-M55 build has Helium, a Cortex-M7 build the DSP extension.
const char* SimdLevelName(SimdLevel level);

// True when `level` is compiled into this build for this architecture and the CPU (and OS)
// support its instructions.
bool SimdLevelSupported(SimdLevel level);

// The fastest supported level; kNone when there is none (then KernelBackend::kSimd is
// unavailable). The environment variable EDGENMT_FORCE_ISA=<level name> (tests, benchmarks)
// picks that level instead where the CPU has it, and none where it does not or the name is
// unknown (docs/BACKENDS.md).
SimdLevel BestSimdLevel();

// The SIMD kernel table of `level` (backend kSimd; static storage). kUnsupported when the level
// is not supported here; kInvalidArgument for a null out or kNone.
Status GetSimdKernelTable(SimdLevel level, const KernelTable** out);

}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_SIMD_SIMD_LEVEL_H_
