// The xnnpack backend: XNNPACK's fully-connected operator for the float32 products over weight
// matrices (packed at Init into the arena), the portable reference for the other float32
// operations. XNNPACK's integer operators fit neither int8 scheme (docs/BACKENDS.md): the int8
// operations are not named, so an int8 model is refused at Init (kUnsupported) instead of
// running the reference under this backend's name.
#include "kernels/kernel_table.h"
#include "kernels/kernel_table_builder.h"
#include "kernels/xnnpack/xnnpack_fully_connected_f32.h"

namespace edgenmt {
namespace {

struct XnnpackSpec {
  EDGENMT_PROVIDE_KERNEL(pack_fully_connected_f32, XnnpackPackFullyConnectedF32);
  EDGENMT_PROVIDE_KERNEL(packed_fully_connected_f32, XnnpackPackedFullyConnectedF32);
  // Left to the reference: the products a packed matrix cannot serve (attention scores over
  // the encoder's memory, accumulating or partial products) and the other float32 operations.
  EDGENMT_PROVIDE_REFERENCE_KERNEL(fully_connected_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(sigmoid_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(tanh_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(softmax_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(log_softmax_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(embedding_lookup_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(layer_norm_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(relu_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(gelu_f32);
};

}  // namespace

const KernelTable* XnnpackKernelTable() {
  if (!XnnpackReady()) return nullptr;
  static const KernelTable table = [] {
    KernelTable t = BuildKernelTable<XnnpackSpec>(KernelBackend::kXnnpack);
    t.packed_min_rows = 1;
    return t;
  }();
  return &table;
}

}  // namespace edgenmt
