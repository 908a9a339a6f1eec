// Backend selection. Optimized backends register here behind their build flag; a backend that
// is not compiled in is reported as kUnsupported so a misconfigured build is never silently
// slower or different.
#include "kernels/kernel_table.h"

#include "kernels/kernels_s8.h"
#include "kernels/reference/reference_kernels.h"

namespace edgenmt {
namespace {

constexpr KernelTable kReferenceTable = {
    KernelBackend::kReference,
    ref_fully_connected_f32,
    ref_sigmoid_f32,
    ref_tanh_f32,
    ref_softmax_f32,
    ref_log_softmax_f32,
    ref_embedding_lookup_f32,
    ref_fully_connected_s8_hybrid,
    ref_embedding_lookup_s8_f32,
};

}  // namespace

#if defined(EDGENMT_WITH_XNNPACK)
const KernelTable* XnnpackKernelTable();  // kernels/xnnpack/
#endif
#if defined(EDGENMT_WITH_NEON)
const KernelTable* NeonKernelTable();     // kernels/neon/
#endif

const char* KernelBackendName(KernelBackend backend) {
  switch (backend) {
    case KernelBackend::kReference: return "reference";
    case KernelBackend::kXnnpack: return "xnnpack";
    case KernelBackend::kNeon: return "neon";
  }
  return "unknown";
}

bool KernelBackendAvailable(KernelBackend backend) {
  const KernelTable* table = nullptr;
  return GetKernelTable(backend, &table) == Status::kOk;
}

Status GetKernelTable(KernelBackend backend, const KernelTable** out) {
  if (out == nullptr) return Status::kInvalidArgument;
  *out = nullptr;
  switch (backend) {
    case KernelBackend::kReference:
      *out = &kReferenceTable;
      return Status::kOk;
    case KernelBackend::kXnnpack:
#if defined(EDGENMT_WITH_XNNPACK)
      *out = XnnpackKernelTable();
      return Status::kOk;
#else
      return Status::kUnsupported;
#endif
    case KernelBackend::kNeon:
#if defined(EDGENMT_WITH_NEON)
      *out = NeonKernelTable();
      return Status::kOk;
#else
      return Status::kUnsupported;
#endif
  }
  return Status::kInvalidArgument;
}

}  // namespace edgenmt
