// <immintrin.h> for the AVX-512 files of the SIMD backend (and only them: the pragmas below
// apply to the rest of the including file). GCC 12's AVX-512 intrinsics warn about their own
// _mm512_undefined_* idiom where they are inlined (GCC bug 105593); the files that include this
// read no uninitialized value.
#ifndef EDGENMT_KERNELS_X86_AVX512_VNNI_AVX512_INTRINSICS_H_
#define EDGENMT_KERNELS_X86_AVX512_VNNI_AVX512_INTRINSICS_H_

#include <immintrin.h>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#endif  // EDGENMT_KERNELS_X86_AVX512_VNNI_AVX512_INTRINSICS_H_
