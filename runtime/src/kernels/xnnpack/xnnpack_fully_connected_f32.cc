#include "kernels/xnnpack/xnnpack_fully_connected_f32.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <xnnpack.h>

namespace edgenmt {
namespace {

// Where XNNPACK's allocations go while one matrix is packed. Counting: from the heap (freed
// again when the counted operator is deleted), only to learn the bytes. Placing: bump
// allocation inside one arena block sized by the count. Outside packing (XNNPACK is one per
// process: another part of the application may use it too) the heap serves, as XNNPACK's
// default allocator would; the runtime itself never has XNNPACK allocate then (setup and run
// do not allocate: tests/no_allocation_test.cc counts every heap allocation of Translate).
struct PackTarget {
  bool counting = false;
  size_t counted = 0;         // counting: arena bytes the same requests will need
  uint8_t* cursor = nullptr;  // placing: next free byte of the block
  uint8_t* end = nullptr;
};
thread_local PackTarget* g_target = nullptr;

size_t RoundUpToArenaAlignment(size_t bytes) {
  return (bytes + (kArenaAlignment - 1)) & ~(kArenaAlignment - 1);
}

// A block's worst case in the arena: cursors stay kArenaAlignment-aligned, so aligning one up
// to `alignment` skips at most alignment - kArenaAlignment bytes.
size_t PlacedBytes(size_t alignment, size_t size) {
  const size_t pad = alignment > kArenaAlignment ? alignment - kArenaAlignment : 0;
  return pad + RoundUpToArenaAlignment(size);
}

void* AlignedAllocate(void*, size_t alignment, size_t size) {
  PackTarget* t = g_target;
  if (size > SIZE_MAX / 2) return nullptr;
  if (alignment < kArenaAlignment) alignment = kArenaAlignment;
  if (t == nullptr || t->counting) {
    void* p = nullptr;
    if (posix_memalign(&p, alignment, RoundUpToArenaAlignment(size)) != 0) return nullptr;
    if (t != nullptr) t->counted += PlacedBytes(alignment, size);
    return p;
  }
  const uintptr_t at =
      (reinterpret_cast<uintptr_t>(t->cursor) + (alignment - 1)) & ~(alignment - 1);
  uint8_t* p = reinterpret_cast<uint8_t*>(at);
  if (p > t->end || static_cast<size_t>(t->end - p) < RoundUpToArenaAlignment(size)) return nullptr;
  t->cursor = p + RoundUpToArenaAlignment(size);
  return p;
}

void* Allocate(void* context, size_t size) {
  return AlignedAllocate(context, kArenaAlignment, size);
}

// Never needed by the operators the runtime creates; elsewhere the heap's, as by default.
void* Reallocate(void*, void* pointer, size_t size) {
  return g_target == nullptr ? realloc(pointer, size) : nullptr;
}

void Deallocate(void*, void* pointer) {
  // Heap blocks come from counting or from outside packing; arena blocks go with the arena.
  if (pointer != nullptr && (g_target == nullptr || g_target->counting)) free(pointer);
}

const xnn_allocator kArenaAllocator = {nullptr,    Allocate,        Reallocate,
                                       Deallocate, AlignedAllocate, Deallocate};

// One packed matrix: the operator, its shape, and a padded copy of one input row (XNNPACK may
// read XNN_EXTRA_BYTES past its input, and the last input row can end at the arena's end).
struct PackedProduct {
  xnn_operator_t op;
  int32_t in_features;
  int32_t out_features;
  float* padded_row;  // [in_features] + XNN_EXTRA_BYTES
};

xnn_status CreateOperator(int32_t in_features, int32_t out_features, const float* w,
                          xnn_operator_t* op) {
  return xnn_create_fully_connected_nc_f32(
      static_cast<size_t>(in_features), static_cast<size_t>(out_features),
      static_cast<size_t>(in_features), static_cast<size_t>(out_features), w, /*bias=*/nullptr,
      -INFINITY, INFINITY, /*flags=*/0, op);
}

void Run(xnn_operator_t op, int32_t rows, const float* x, float* y) {
  xnn_status status =
      xnn_setup_fully_connected_nc_f32(op, static_cast<size_t>(rows), x, y, /*threadpool=*/nullptr);
  if (status == xnn_status_success) status = xnn_run_operator(op, /*threadpool=*/nullptr);
  assert(status == xnn_status_success && "XNNPACK product on a packed operator failed");
  (void)status;
}

}  // namespace

bool XnnpackReady() {
  static const bool ready = xnn_initialize(&kArenaAllocator) == xnn_status_success;
  return ready;
}

Status XnnpackPackFullyConnectedF32(int32_t in_features, int32_t out_features, const float* w,
                                    Arena* arena, const void** packed) {
  *packed = nullptr;
  if (!XnnpackReady() || in_features < 1 || out_features < 1 || w == nullptr) {
    return Status::kInternal;
  }
  // Count: build the operator on the heap once (XNNPACK copies and packs w), then delete it.
  PackTarget count;
  count.counting = true;
  g_target = &count;
  xnn_operator_t op = nullptr;
  xnn_status status = CreateOperator(in_features, out_features, w, &op);
  if (op != nullptr) xnn_delete_operator(op);
  g_target = nullptr;
  if (status != xnn_status_success) return Status::kInternal;
  // Nothing counted: XNNPACK allocates through another component's allocator (it was
  // initialized before this one, or again after it), so its memory cannot be placed in the
  // arena. Refused rather than allocating behind the arena's back.
  if (count.counted == 0) return Status::kUnsupported;

  const size_t row_bytes =
      RoundUpToArenaAlignment(sizeof(float) * static_cast<size_t>(in_features) + XNN_EXTRA_BYTES);
  PackedProduct* product = static_cast<PackedProduct*>(arena->Allocate(sizeof(PackedProduct)));
  float* padded_row = static_cast<float*>(arena->Allocate(row_bytes));
  uint8_t* block = static_cast<uint8_t*>(arena->Allocate(count.counted));
  if (product == nullptr || padded_row == nullptr || block == nullptr || !arena->writable()) {
    return Status::kOk;  // measuring or overflowed: counted only
  }
  PackTarget place;
  place.cursor = block;
  place.end = block + count.counted;
  g_target = &place;
  op = nullptr;
  status = CreateOperator(in_features, out_features, w, &op);
  g_target = nullptr;
  if (status != xnn_status_success) return Status::kInternal;  // same requests: cannot happen
  memset(padded_row, 0, row_bytes);
  *product = PackedProduct{op, in_features, out_features, padded_row};
  *packed = product;
  return Status::kOk;
}

void XnnpackPackedFullyConnectedF32(const void* packed, int32_t rows, const float* x,
                                    const float* bias, float* y) {
  const PackedProduct& p = *static_cast<const PackedProduct*>(packed);
  const int64_t in = p.in_features;
  const int64_t out = p.out_features;
  // Rows before the last read their over-read from the next row of x; the last goes through
  // the padded copy.
  if (rows > 1) Run(p.op, rows - 1, x, y);
  memcpy(p.padded_row, x + (rows - 1) * in, sizeof(float) * static_cast<size_t>(in));
  Run(p.op, 1, p.padded_row, y + (rows - 1) * out);
  if (bias == nullptr) return;
  for (int32_t r = 0; r < rows; ++r) {
    float* row = y + r * out;
    for (int64_t m = 0; m < out; ++m) row[m] += bias[m];
  }
}

}  // namespace edgenmt
