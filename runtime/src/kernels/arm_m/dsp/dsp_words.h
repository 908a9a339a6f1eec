// 32-bit words of int8 for the DSP-extension kernels (dot_dsp.cc, transformer_s8_dsp.cc): an
// unaligned load, the odd-byte sign extension that ACLE's __sxtb16 has no rotated form for,
// and the two SMLAD of one word's four products.
#ifndef EDGENMT_KERNELS_ARM_M_DSP_DSP_WORDS_H_
#define EDGENMT_KERNELS_ARM_M_DSP_DSP_WORDS_H_

#include <arm_acle.h>
#include <stdint.h>
#include <string.h>

namespace edgenmt {
namespace simd {

inline uint32_t LoadWord(const int8_t* p) {  // unaligned: LDR allows it on these cores
  uint32_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}

// Bytes 1 and 3 sign-extended (SXTB16 with its rotation, one instruction).
inline uint32_t ExtendOdd(uint32_t v) {
  uint32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

// a += x . w over one word, x given as its even and odd bytes extended: bytes 0 and 2, then 1
// and 3.
inline int32_t Smlad4(uint32_t x_even, uint32_t x_odd, uint32_t w, int32_t a) {
  a = __smlad(x_even, __sxtb16(w), a);
  return __smlad(x_odd, ExtendOdd(w), a);
}

}  // namespace simd
}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_ARM_M_DSP_DSP_WORDS_H_
