// Run-time CPU feature detection for the SIMD levels. A level is compiled in when its
// instruction-set folder is (runtime/kernel_instruction_sets.cmake defines EDGENMT_SIMD_<LEVEL>).
// x86-64 asks the compiler's cpuid support (which also checks that the OS saves the AVX / AVX-512
// register state); Linux on ARMv8 reads the kernel's HWCAP bits. ARMv7 builds require NEON from
// their flags (toolchains/), so NEON is there whenever it is compiled in; likewise Helium and the
// DSP extension on Cortex-M, whose firmware is built for one core. An M55 also has the DSP
// extension, but its build leaves that level out (Helium does everything it would, and the flash is
// small).
#include "kernels/simd/simd_level.h"

#include <stdlib.h>
#include <string.h>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace edgenmt {
namespace {

#if defined(__aarch64__) && defined(__linux__)
constexpr unsigned long kHwcapAsimdDotProduct = 1UL << 20;  // HWCAP_ASIMDDP, asm/hwcap.h
#endif

bool CpuHas(SimdLevel level) {
  switch (level) {
#if EDGENMT_SIMD_AVX2_FMA
    case SimdLevel::kAvx2Fma:
      __builtin_cpu_init();
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
#if EDGENMT_SIMD_AVX2_FMA && EDGENMT_SIMD_AVX512_VNNI
    case SimdLevel::kAvx512Vnni:
      __builtin_cpu_init();
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
             __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vnni");
#endif
#if EDGENMT_SIMD_NEON
    case SimdLevel::kNeon: return true;
#endif
#if EDGENMT_SIMD_NEON_DOTPROD
    case SimdLevel::kNeonDotprod:
#if defined(__linux__)
      return (getauxval(AT_HWCAP) & kHwcapAsimdDotProduct) != 0;
#elif defined(__ARM_FEATURE_DOTPROD)
      return true;
#else
      return false;
#endif
#endif
#if EDGENMT_SIMD_HELIUM
    case SimdLevel::kHelium: return true;
#endif
#if EDGENMT_SIMD_DSP
    case SimdLevel::kDsp: return true;
#endif
    default: return false;
  }
}

}  // namespace

const char* SimdLevelName(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx2Fma: return "avx2-fma";
    case SimdLevel::kAvx512Vnni: return "avx512-vnni";
    case SimdLevel::kNeon: return "neon";
    case SimdLevel::kNeonDotprod: return "neon-dotprod";
    case SimdLevel::kHelium: return "helium";
    case SimdLevel::kDsp: return "dsp";
    case SimdLevel::kNone: break;
  }
  return "none";
}

bool SimdLevelSupported(SimdLevel level) { return CpuHas(level); }

SimdLevel BestSimdLevel() {
  // EDGENMT_FORCE_ISA=<level name> (tests and benchmarks: every level end to end on one
  // machine): that level if this CPU has it, else none, so the simd backend is unavailable
  // rather than running another level under the forced name.
  const char* forced = getenv("EDGENMT_FORCE_ISA");
  if (forced != nullptr && forced[0] != '\0') {
    for (SimdLevel level : kSimdLevels) {
      if (strcmp(forced, SimdLevelName(level)) == 0)
        return CpuHas(level) ? level : SimdLevel::kNone;
    }
    return SimdLevel::kNone;
  }
  constexpr SimdLevel kFastestFirst[] = {SimdLevel::kAvx512Vnni,  SimdLevel::kAvx2Fma,
                                         SimdLevel::kNeonDotprod, SimdLevel::kNeon,
                                         SimdLevel::kHelium,      SimdLevel::kDsp};
  for (SimdLevel level : kFastestFirst) {
    if (CpuHas(level)) return level;
  }
  return SimdLevel::kNone;
}

}  // namespace edgenmt
