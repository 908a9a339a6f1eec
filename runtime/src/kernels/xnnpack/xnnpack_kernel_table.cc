// The xnnpack backend: XNNPACK's fully-connected operator for the float32 products over weight
// matrices (packed at Init into the arena), the portable reference for every other operation.
// XNNPACK's integer operators fit neither int8 scheme (docs/BACKENDS.md): the int8 entries are
// left out, so an int8 model is refused at Init (kUnsupported) instead of running the reference
// under this backend's name.
#include "kernels/kernel_table.h"
#include "kernels/xnnpack/xnnpack_fully_connected_f32.h"

namespace edgenmt {

const KernelTable* XnnpackKernelTable() {
  if (!XnnpackReady()) return nullptr;
  static const KernelTable table = [] {
    KernelTable t = ReferenceKernelTable();
    t.backend = KernelBackend::kXnnpack;
    t.fully_connected_s8_hybrid = nullptr;
    t.embedding_lookup_s8_f32 = nullptr;
    t.fully_connected_s8_s32 = nullptr;
    t.embedding_fully_connected_s8_s32 = nullptr;
    t.narrow_s32_s16 = nullptr;
    t.tanh_s16 = nullptr;
    t.requantize_s16_s8 = nullptr;
    t.lstm_cell_s16 = nullptr;
    t.gru_cell_s16 = nullptr;
    t.softmax_s32_s16 = nullptr;
    t.log_softmax_s32 = nullptr;
    t.local_p_position_q16 = nullptr;
    t.local_p_window = nullptr;
    t.local_p_gaussian_s16 = nullptr;
    t.score_window_s16 = nullptr;
    t.context_s16_s8 = nullptr;
    t.pack_fully_connected_f32 = XnnpackPackFullyConnectedF32;
    t.packed_fully_connected_f32 = XnnpackPackedFullyConnectedF32;
    t.packed_min_rows = 1;
    return t;
  }();
  return &table;
}

}  // namespace edgenmt
