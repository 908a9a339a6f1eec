// The XNNPACK backend's float32 product over weights packed once at Init (XNNPACK's
// fully-connected operator, create -> setup -> run), with XNNPACK's memory in the arena.
//
// XNNPACK is initialized once per process with an allocator (xnn_initialize) that, while a
// matrix is being packed, hands out memory from the arena block that packing was given, so
// every byte of an operator and of its packed weights lives in the caller's arena and nothing
// is allocated after Init (tests/no_allocation_test.cc); outside packing it serves the heap,
// like XNNPACK's default, for other users of XNNPACK in the same process. The exact size of an
// operator is not exposed by XNNPACK: packing first builds it once on the heap to count its
// allocations (planning, before Init returns), then takes one persistent arena block of that size
// and builds it again there. A measuring or overflowed arena only counts.
#ifndef EDGENMT_KERNELS_XNNPACK_XNNPACK_FULLY_CONNECTED_F32_H_
#define EDGENMT_KERNELS_XNNPACK_XNNPACK_FULLY_CONNECTED_F32_H_

#include <stdint.h>

#include "edgenmt/internal/arena.h"
#include "edgenmt/status.h"

namespace edgenmt {

// True once XNNPACK is initialized with the arena allocator (first call initializes; false
// when XNNPACK refuses this CPU).
bool XnnpackReady();

// Packs w [out_features, in_features] (row-major, PyTorch nn.Linear) into a persistent block
// of `arena`; *packed is the operator, valid as long as the arena memory (never freed: the
// arena's owner reclaims it with the arena). *packed = nullptr in a measuring or overflowed
// arena (the bytes are still counted). w must stay valid only during the call (XNNPACK copies
// it). kInternal when XNNPACK fails to create the operator; kUnsupported when its allocations
// do not come through this allocator (another component of the process initialized XNNPACK
// with its own), so they could not be placed in the arena.
Status XnnpackPackFullyConnectedF32(int32_t in_features, int32_t out_features, const float* w,
                                    Arena* arena, const void** packed);

// y[r][m] = sum_k x[r][k] w[m][k] + (bias ? bias[m] : 0) for r < rows and every output of the
// packed matrix; x [rows, in_features] and y [rows, out_features] contiguous, not overlapping.
// Single-threaded (no thread pool). Never allocates.
void XnnpackPackedFullyConnectedF32(const void* packed, int32_t rows, const float* x,
                                    const float* bias, float* y);

}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_XNNPACK_XNNPACK_FULLY_CONNECTED_F32_H_
