// Backend selection. Optimized backends register here behind their build flag; a backend that
// is not compiled in is reported as kUnsupported so a misconfigured build is never silently
// slower or different.
#include "kernels/kernel_table.h"

#include <string.h>

#include "kernels/kernel_table_builder.h"
#include "kernels/simd/simd_level.h"

namespace edgenmt {
namespace {

constexpr KernelTable kReferenceTable =
    BuildKernelTable<ReferenceKernelSpec>(KernelBackend::kReference);

struct KernelOperation {
  const char* name;
  bool (*present)(const KernelTable& table);
  bool (*same)(const KernelTable& a, const KernelTable& b);  // the same function in both
};

#define EDGENMT_KERNEL_OPERATION(field, ret, params)                \
  {#field, [](const KernelTable& t) { return t.field != nullptr; }, \
   [](const KernelTable& a, const KernelTable& b) { return a.field == b.field; }},

constexpr KernelOperation kOperations[] = {EDGENMT_KERNEL_OPERATIONS(EDGENMT_KERNEL_OPERATION)};
#undef EDGENMT_KERNEL_OPERATION
constexpr int32_t kOperationCount = kKernelOperationCount;
static_assert(sizeof kOperations / sizeof kOperations[0] == kOperationCount, "one per operation");

}  // namespace

int32_t KernelOperationCount() { return kOperationCount; }

bool KernelOperationPresent(const KernelTable& table, int32_t index) {
  return index >= 0 && index < kOperationCount && kOperations[index].present(table);
}

const char* KernelOperationName(int32_t index) {
  return index >= 0 && index < kOperationCount ? kOperations[index].name : nullptr;
}

bool KernelOperationImplemented(KernelBackend backend, int32_t index) {
  const KernelTable* table = nullptr;
  return GetKernelTable(backend, &table) == Status::kOk && KernelOperationPresent(*table, index);
}

const char* KernelOperationProvider(KernelBackend backend, int32_t index) {
  const KernelTable* table = nullptr;
  if (GetKernelTable(backend, &table) != Status::kOk || !KernelOperationPresent(*table, index)) {
    return "";
  }
  if (kOperations[index].same(*table, kReferenceTable)) return "reference";
  // auto borrows entries: name the backend an entry really comes from.
  const KernelTable* xnnpack = nullptr;
  if (backend != KernelBackend::kXnnpack &&
      GetKernelTable(KernelBackend::kXnnpack, &xnnpack) == Status::kOk &&
      kOperations[index].same(*table, *xnnpack)) {
    return KernelBackendVariant(KernelBackend::kXnnpack);
  }
  return KernelBackendVariant(backend);
}

#if defined(EDGENMT_WITH_XNNPACK)
const KernelTable* XnnpackKernelTable();  // kernels/xnnpack/; nullptr when XNNPACK refuses the CPU
#endif

namespace {

// Rows from which auto multiplies float32 weights packed by XNNPACK rather than with the SIMD
// product, measured by tools/bench/kernel_bench.cc on the shipped model (AVX-512 machine): one
// row (greedy decoder steps, the encoder's recurrent products) is faster with the SIMD product
// (80.9 us against 113.5 us over every matrix), five rows (beam 5; the encoder projects blocks
// of 4 positions) with XNNPACK's packed GEMM (366 us against 446 us).
constexpr int32_t kAutoPackedMinRows = 2;

// auto: per operation, the fastest backend compiled in and supported by this CPU: the SIMD
// table wherever this CPU has a SIMD level (its entries are never slower than the reference:
// tools/bench), else the reference; with XNNPACK, its packed float32 product for multi-row
// products (kAutoPackedMinRows).
const KernelTable* AutoKernelTable() {
  static const KernelTable table = [] {
    const KernelTable* simd = nullptr;
    KernelTable t =
        GetSimdKernelTable(BestSimdLevel(), &simd) == Status::kOk ? *simd : kReferenceTable;
    t.backend = KernelBackend::kAuto;
#if defined(EDGENMT_WITH_XNNPACK)
    if (const KernelTable* xnnpack = XnnpackKernelTable()) {
      t.pack_fully_connected_f32 = xnnpack->pack_fully_connected_f32;
      t.packed_fully_connected_f32 = xnnpack->packed_fully_connected_f32;
      t.packed_min_rows = BestSimdLevel() == SimdLevel::kNone ? 1 : kAutoPackedMinRows;
    }
#endif
    return t;
  }();
  return &table;
}

}  // namespace

const KernelTable& ReferenceKernelTable() { return kReferenceTable; }

const char* KernelBackendName(KernelBackend backend) {
#define EDGENMT_KERNEL_BACKEND_CASE(id, value, name, what) \
  case KernelBackend::id: return name;
  switch (backend) { EDGENMT_KERNEL_BACKENDS(EDGENMT_KERNEL_BACKEND_CASE) }
#undef EDGENMT_KERNEL_BACKEND_CASE
  return "unknown";
}

bool KernelBackendFromName(const char* name, KernelBackend* out) {
  if (name == nullptr || out == nullptr) return false;
  for (KernelBackend b : kKernelBackends) {
    if (strcmp(name, KernelBackendName(b)) == 0) {
      *out = b;
      return true;
    }
  }
  return false;
}

KernelBackend DefaultKernelBackend() {
#if defined(EDGENMT_DEFAULT_KERNEL_BACKEND)
  // Fixed by the build (CMake EDGENMT_DEFAULT_BACKEND): the board's backend, whatever it is.
  return static_cast<KernelBackend>(EDGENMT_DEFAULT_KERNEL_BACKEND);
#else
  return KernelBackendAvailable(KernelBackend::kSimd) ? KernelBackend::kSimd
                                                      : KernelBackend::kReference;
#endif
}

bool KernelBackendAvailable(KernelBackend backend) {
  const KernelTable* table = nullptr;
  return GetKernelTable(backend, &table) == Status::kOk;
}

const char* KernelBackendVariant(KernelBackend backend) {
  if (!KernelBackendAvailable(backend)) return "";
  switch (backend) {
    case KernelBackend::kReference: return "portable";
    case KernelBackend::kXnnpack: return "xnnpack";
    case KernelBackend::kSimd:
    case KernelBackend::kAuto:
      return BestSimdLevel() == SimdLevel::kNone ? "portable" : SimdLevelName(BestSimdLevel());
  }
  return "";
}

Status GetKernelTable(KernelBackend backend, const KernelTable** out) {
  if (out == nullptr) return Status::kInvalidArgument;
  *out = nullptr;
  switch (backend) {
    case KernelBackend::kReference: *out = &kReferenceTable; return Status::kOk;
    case KernelBackend::kXnnpack:
#if defined(EDGENMT_WITH_XNNPACK)
      *out = XnnpackKernelTable();
      return *out != nullptr ? Status::kOk : Status::kUnsupported;
#else
      return Status::kUnsupported;
#endif
    case KernelBackend::kSimd: {
      const SimdLevel level = BestSimdLevel();
      return level == SimdLevel::kNone ? Status::kUnsupported : GetSimdKernelTable(level, out);
    }
    case KernelBackend::kAuto: *out = AutoKernelTable(); return Status::kOk;
  }
  return Status::kInvalidArgument;
}

}  // namespace edgenmt
