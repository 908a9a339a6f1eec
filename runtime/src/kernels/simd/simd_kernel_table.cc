// The SIMD backend's kernel tables: the product kernels run an instruction set's dot-product
// core (simd_dot.h) inside portable drivers; cells, activations and requantization use a
// level's vector versions where it has them; the rest are reference kernels, each named
// (ReferenceForTheRest), so an operation that no level names is absent, not the reference. The
// per-output arithmetic is kernels/product_outputs.h, shared with the reference, so integer
// results are bit-identical to it and float ones differ only by summation order.
#include "kernels/kernel_table_builder.h"
#include "kernels/product_outputs.h"
#include "kernels/simd/activation_table_s16.h"
#include "kernels/simd/simd_activation.h"
#include "kernels/simd/simd_attention.h"
#include "kernels/simd/simd_cell.h"
#include "kernels/simd/simd_dot.h"
#include "kernels/simd/simd_dsp.h"
#include "kernels/simd/simd_helium.h"
#include "kernels/simd/simd_level.h"
#include "kernels/simd/simd_softmax.h"

namespace edgenmt {
namespace {

static_assert(simd::kDotRows <= kHybridScratchRows, "hybrid scratch holds one group of rows");

// Outputs per call of a dot core; the sums of up to kDotRows rows wait on the stack (512 B).
constexpr int32_t kOutputBlock = 32;

inline int32_t BlockSize(int32_t total, int32_t start, int32_t block) {
  return total - start < block ? total - start : block;
}

// ---- portable parts of the drivers ----------------------------------------------------------

template <simd::DotS8Fn Dot>
void DotRowsOneByOne(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride,
                     const int8_t* w, int32_t w_stride, int32_t count, int32_t* acc,
                     int32_t acc_stride) {
  for (int32_t r = 0; r < rows; ++r) {
    Dot(depth, x + static_cast<int64_t>(r) * x_stride, w, w_stride, count,
        acc + static_cast<int64_t>(r) * acc_stride);
  }
}

// The portable output steps, for the levels without vector ones (unused in builds that have
// none of those levels).
[[maybe_unused]]
void HybridOutputBlock(int32_t n, const int32_t* dots, float x_scale, const float* w_scales,
                       const float* bias, bool accumulate, float* y) {
  for (int32_t i = 0; i < n; ++i) StoreHybridOutput(dots[i], x_scale, w_scales, bias, i, accumulate, &y[i]);
}

[[maybe_unused]]
void RequantizeColumnBlock(int32_t n, const int32_t* dots, const int32_t* multiplier,
                           const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                           bool accumulate, int32_t* y) {
  for (int32_t i = 0; i < n; ++i) {
    StoreStridedS32Output(dots[i], multiplier, shift, shift_offset, bias, i, accumulate, &y[i]);
  }
}

[[maybe_unused]]
void RequantizeEmbeddingBlock(int32_t n, const int32_t* dots, int32_t id,
                              const int32_t* row_multiplier, const int32_t* row_shift,
                              const int32_t* multiplier, const int32_t* shift,
                              const int32_t* bias, int32_t* y) {
  for (int32_t i = 0; i < n; ++i) {
    y[i] = EmbeddingS32Output(dots[i], id, row_multiplier, row_shift, multiplier, shift, bias, i);
  }
}

// ---- drivers, over a level L (the structs at the end) ---------------------------------------

template <typename L>
void FullyConnectedF32(int32_t rows, int32_t in_features, int32_t out_features, const float* x,
                       const float* w, const float* bias, float* y, bool accumulate) {
  float dots[kOutputBlock];
  for (int32_t r = 0; r < rows; ++r) {
    const float* x_row = x + static_cast<int64_t>(r) * in_features;
    float* y_row = y + static_cast<int64_t>(r) * out_features;
    for (int32_t m0 = 0; m0 < out_features; m0 += kOutputBlock) {
      const int32_t n = BlockSize(out_features, m0, kOutputBlock);
      L::kDotF32(in_features, x_row, w + static_cast<int64_t>(m0) * in_features, in_features, n,
                 dots);
      for (int32_t i = 0; i < n; ++i) StoreF32Output(dots[i], bias, m0 + i, accumulate, &y_row[m0 + i]);
    }
  }
}

// Products of at least this many rows take a level's panel core where it has one.
constexpr int32_t kPanelMinRows = 8;

// rows (<= kPanelRows) activation rows against every output, 16 outputs at a time through the
// level's panel core; store(r, m0, n, dots) takes row r's sums of outputs [m0, m0 + n). Only
// batched products come here (hosts and Linux boards), so its 1 KiB block of sums may exceed
// the runtime's 1 KiB frame limit, which is for the microcontrollers' single-row paths.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstack-usage="
template <typename L, typename Store>
__attribute__((noinline)) void PanelProduct(int32_t rows, int32_t depth, const int8_t* x, int32_t x_stride, const int8_t* w,
                  int32_t w_stride, int32_t out_features, const Store& store) {
  int32_t dots[simd::kPanelRows][simd::kPanelColumns];
  int32_t sums[simd::kPanelRows];
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* row = x + static_cast<int64_t>(r) * x_stride;
    int32_t sum = 0;
    for (int32_t k = 0; k < depth; ++k) sum += row[k];
    sums[r] = sum;
  }
  for (int32_t m0 = 0; m0 < out_features; m0 += simd::kPanelColumns) {
    const int32_t n = BlockSize(out_features, m0, simd::kPanelColumns);
    L::kDotS8Panel(rows, depth, x, x_stride, sums, w + static_cast<int64_t>(m0) * w_stride,
                   w_stride, n, &dots[0][0], simd::kPanelColumns);
    for (int32_t r = 0; r < rows; ++r) store(r, m0, n, dots[r]);
  }
}
#pragma GCC diagnostic pop

template <typename L>
void FullyConnectedS8Hybrid(int32_t rows, int32_t in_features, int32_t out_features,
                            const float* x, const int8_t* w, const float* w_scales,
                            const float* bias, float* y, bool accumulate, int8_t* x_scratch,
                            int32_t x_scratch_rows) {
  if constexpr (L::kDotS8Panel != nullptr) {
    if (rows >= kPanelMinRows && x_scratch_rows >= simd::kPanelRows) {
      float scales[simd::kPanelRows];
      for (int32_t r0 = 0; r0 < rows; r0 += simd::kPanelRows) {
        const int32_t group = BlockSize(rows, r0, simd::kPanelRows);
        for (int32_t r = 0; r < group; ++r) {
          scales[r] = L::kQuantizeRow(in_features, x + static_cast<int64_t>(r0 + r) * in_features,
                                      x_scratch + static_cast<int64_t>(r) * in_features);
        }
        PanelProduct<L>(group, in_features, x_scratch, in_features, w, in_features, out_features,
                        [&](int32_t r, int32_t m0, int32_t n, const int32_t* dots) {
                          L::kHybridOutputBlock(n, dots, scales[r], w_scales + m0,
                                                bias != nullptr ? bias + m0 : nullptr, accumulate,
                                                y + static_cast<int64_t>(r0 + r) * out_features + m0);
                        });
      }
      return;
    }
  }
  int32_t dots[simd::kDotRows][kOutputBlock];
  float x_scales[simd::kDotRows];
  for (int32_t r0 = 0; r0 < rows; r0 += simd::kDotRows) {
    const int32_t group = BlockSize(rows, r0, simd::kDotRows);
    for (int32_t r = 0; r < group; ++r) {
      x_scales[r] = L::kQuantizeRow(in_features, x + static_cast<int64_t>(r0 + r) * in_features,
                                    x_scratch + static_cast<int64_t>(r) * in_features);
    }
    for (int32_t m0 = 0; m0 < out_features; m0 += kOutputBlock) {
      const int32_t n = BlockSize(out_features, m0, kOutputBlock);
      L::kDotS8Rows(group, in_features, x_scratch, in_features,
                    w + static_cast<int64_t>(m0) * in_features, in_features, n, &dots[0][0],
                    kOutputBlock);
      for (int32_t r = 0; r < group; ++r) {
        L::kHybridOutputBlock(n, dots[r], x_scales[r], w_scales + m0,
                              bias != nullptr ? bias + m0 : nullptr, accumulate,
                              y + static_cast<int64_t>(r0 + r) * out_features + m0);
      }
    }
  }
}

template <typename L>
void FullyConnectedS8S32(int32_t rows, int32_t in_features, int32_t out_features,
                         const int8_t* x, int32_t x_stride, const int8_t* w, int32_t w_stride,
                         const int32_t* multiplier, const int32_t* shift, int32_t shift_offset,
                         const int32_t* bias, int32_t* y, bool accumulate) {
  if constexpr (L::kDotS8Panel != nullptr) {
    if (rows >= kPanelMinRows) {
      for (int32_t r0 = 0; r0 < rows; r0 += simd::kPanelRows) {
        const int32_t group = BlockSize(rows, r0, simd::kPanelRows);
        PanelProduct<L>(group, in_features, x + static_cast<int64_t>(r0) * x_stride, x_stride, w,
                        w_stride, out_features,
                        [&](int32_t r, int32_t m0, int32_t n, const int32_t* dots) {
                          L::kRequantizeColumnBlock(
                              n, dots, multiplier + m0, shift + m0, shift_offset,
                              bias != nullptr ? bias + m0 : nullptr, accumulate,
                              y + static_cast<int64_t>(r0 + r) * out_features + m0);
                        });
      }
      return;
    }
  }
  int32_t dots[simd::kDotRows][kOutputBlock];
  for (int32_t r0 = 0; r0 < rows; r0 += simd::kDotRows) {
    const int32_t group = BlockSize(rows, r0, simd::kDotRows);
    for (int32_t m0 = 0; m0 < out_features; m0 += kOutputBlock) {
      const int32_t n = BlockSize(out_features, m0, kOutputBlock);
      L::kDotS8Rows(group, in_features, x + static_cast<int64_t>(r0) * x_stride, x_stride,
                    w + static_cast<int64_t>(m0) * w_stride, w_stride, n, &dots[0][0],
                    kOutputBlock);
      for (int32_t r = 0; r < group; ++r) {
        L::kRequantizeColumnBlock(n, dots[r], multiplier + m0, shift + m0, shift_offset,
                                  bias != nullptr ? bias + m0 : nullptr, accumulate,
                                  y + static_cast<int64_t>(r0 + r) * out_features + m0);
      }
    }
  }
}

template <typename L>
void EmbeddingFullyConnectedS8S32(int32_t rows, const int32_t* ids, const int8_t* table,
                                  const int32_t* row_multiplier, const int32_t* row_shift,
                                  int32_t dim, int32_t out_features, const int8_t* w,
                                  int32_t w_stride, const int32_t* multiplier,
                                  const int32_t* shift, const int32_t* bias, int32_t* y) {
  int32_t dots[kOutputBlock];
  for (int32_t r = 0; r < rows; ++r) {
    const int32_t id = ids[r];
    const int8_t* x_row = table + static_cast<int64_t>(id) * dim;
    int32_t* y_row = y + static_cast<int64_t>(r) * out_features;
    for (int32_t m0 = 0; m0 < out_features; m0 += kOutputBlock) {
      const int32_t n = BlockSize(out_features, m0, kOutputBlock);
      L::kDotS8(dim, x_row, w + static_cast<int64_t>(m0) * w_stride, w_stride, n, dots);
      L::kRequantizeEmbeddingBlock(n, dots, id, row_multiplier, row_shift, multiplier + m0,
                                   shift + m0, bias != nullptr ? bias + m0 : nullptr, y_row + m0);
    }
  }
}

// ---- the levels: each names the operations it vectorises --------------------------------------

// The operations a level leaves to the reference unless it names its own (no vector version,
// or none faster than the portable kernel); every other one a level must name, or its table
// lacks it.
struct ReferenceForTheRest {
  static constexpr simd::DotS8PanelFn kDotS8Panel = nullptr;  // a level with one names it
  EDGENMT_PROVIDE_REFERENCE_KERNEL(embedding_lookup_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(embedding_lookup_s8_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(local_p_position_q16);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(local_p_window);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(narrow_s32_s16);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(requantize_s16_s8);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(softmax_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(log_softmax_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(softmax_s32_s16);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(log_softmax_s32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(gru_cell_s16);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(local_p_gaussian_s16);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(score_window_s16);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(context_s16_s8);
};

// A level's spec: the products (the portable drivers over the level's dot-product cores, k*
// members) and the operations the level names.
template <typename L>
struct SimdSpec : L {
  EDGENMT_PROVIDE_KERNEL(fully_connected_f32, FullyConnectedF32<L>);
  EDGENMT_PROVIDE_KERNEL(fully_connected_s8_hybrid, FullyConnectedS8Hybrid<L>);
  EDGENMT_PROVIDE_KERNEL(fully_connected_s8_s32, FullyConnectedS8S32<L>);
  EDGENMT_PROVIDE_KERNEL(embedding_fully_connected_s8_s32, EmbeddingFullyConnectedS8S32<L>);
};

#if defined(__x86_64__)
struct Avx2Fma : ReferenceForTheRest {
  static constexpr simd::DotF32Fn kDotF32 = simd::DotF32Avx2Fma;
  static constexpr simd::DotS8Fn kDotS8 = simd::DotS8Avx2;
  static constexpr simd::DotS8RowsFn kDotS8Rows = DotRowsOneByOne<simd::DotS8Avx2>;
  static constexpr simd::QuantizeRowFn kQuantizeRow = simd::QuantizeRowAvx2;
  static constexpr simd::HybridOutputBlockFn kHybridOutputBlock = simd::HybridOutputBlockAvx2;
  static constexpr simd::RequantizeColumnBlockFn kRequantizeColumnBlock = RequantizeColumnBlock;
  static constexpr simd::RequantizeEmbeddingBlockFn kRequantizeEmbeddingBlock = RequantizeEmbeddingBlock;
  EDGENMT_PROVIDE_KERNEL(sigmoid_f32, simd::SigmoidF32Avx2);
  EDGENMT_PROVIDE_KERNEL(tanh_f32, simd::TanhF32Avx2);
  EDGENMT_PROVIDE_KERNEL(lstm_cell_s16, simd::LstmCellS16Table);
  EDGENMT_PROVIDE_KERNEL(tanh_s16, simd::TanhS16Table);
  EDGENMT_PROVIDE_KERNEL(softmax_f32, simd::SoftmaxF32Avx2);
  EDGENMT_PROVIDE_KERNEL(log_softmax_f32, simd::LogSoftmaxF32Avx2);
};

struct Avx512Vnni : Avx2Fma {
  static constexpr simd::DotS8Fn kDotS8 = simd::DotS8Avx512Vnni;
  static constexpr simd::DotS8RowsFn kDotS8Rows = simd::DotS8RowsAvx512Vnni;
  static constexpr simd::DotS8PanelFn kDotS8Panel = simd::DotS8PanelAvx512Vnni;
  static constexpr simd::RequantizeColumnBlockFn kRequantizeColumnBlock = simd::RequantizeColumnBlockAvx512;
  static constexpr simd::RequantizeEmbeddingBlockFn kRequantizeEmbeddingBlock =
      simd::RequantizeEmbeddingBlockAvx512;
  EDGENMT_PROVIDE_KERNEL(lstm_cell_s16, simd::LstmCellS16Avx512);
  EDGENMT_PROVIDE_KERNEL(tanh_s16, simd::TanhS16Avx512);
  EDGENMT_PROVIDE_KERNEL(narrow_s32_s16, simd::NarrowS32S16Avx512);
  EDGENMT_PROVIDE_KERNEL(requantize_s16_s8, simd::RequantizeS16S8Avx512);
  EDGENMT_PROVIDE_KERNEL(softmax_s32_s16, simd::SoftmaxS32S16Avx512);
  EDGENMT_PROVIDE_KERNEL(log_softmax_s32, simd::LogSoftmaxS32Avx512);
  EDGENMT_PROVIDE_KERNEL(gru_cell_s16, simd::GruCellS16Avx512);
  EDGENMT_PROVIDE_KERNEL(local_p_gaussian_s16, simd::LocalPGaussianS16Avx512);
  EDGENMT_PROVIDE_KERNEL(score_window_s16, simd::ScoreWindowS16Avx512);
  EDGENMT_PROVIDE_KERNEL(context_s16_s8, simd::ContextS16S8Avx512);
};
#endif

#if defined(__ARM_NEON)
struct Neon : ReferenceForTheRest {
  static constexpr simd::DotF32Fn kDotF32 = simd::DotF32Neon;
  static constexpr simd::DotS8Fn kDotS8 = simd::DotS8Neon;
  static constexpr simd::DotS8RowsFn kDotS8Rows = simd::DotS8RowsNeon;
  static constexpr simd::QuantizeRowFn kQuantizeRow = simd::QuantizeRowNeon;
#if defined(__aarch64__)
  static constexpr simd::HybridOutputBlockFn kHybridOutputBlock = simd::HybridOutputBlockNeon;
#else
  // ARMv7 NEON flushes subnormal floats to zero; the scalar VFP code is IEEE.
  static constexpr simd::HybridOutputBlockFn kHybridOutputBlock = HybridOutputBlock;
#endif
  static constexpr simd::RequantizeColumnBlockFn kRequantizeColumnBlock = simd::RequantizeColumnBlockNeon;
  static constexpr simd::RequantizeEmbeddingBlockFn kRequantizeEmbeddingBlock =
      simd::RequantizeEmbeddingBlockNeon;
  EDGENMT_PROVIDE_KERNEL(sigmoid_f32, simd::SigmoidF32Neon);
  EDGENMT_PROVIDE_KERNEL(tanh_f32, simd::TanhF32Neon);
  EDGENMT_PROVIDE_KERNEL(lstm_cell_s16, simd::LstmCellS16Neon);
  EDGENMT_PROVIDE_KERNEL(tanh_s16, simd::TanhS16Neon);
  EDGENMT_PROVIDE_KERNEL(narrow_s32_s16, simd::NarrowS32S16Neon);
  EDGENMT_PROVIDE_KERNEL(requantize_s16_s8, simd::RequantizeS16S8Neon);
  EDGENMT_PROVIDE_KERNEL(softmax_s32_s16, simd::SoftmaxS32S16Neon);
  EDGENMT_PROVIDE_KERNEL(log_softmax_s32, simd::LogSoftmaxS32Neon);
  EDGENMT_PROVIDE_KERNEL(local_p_gaussian_s16, simd::LocalPGaussianS16Neon);
  EDGENMT_PROVIDE_KERNEL(score_window_s16, simd::ScoreWindowS16Neon);
  EDGENMT_PROVIDE_KERNEL(context_s16_s8, simd::ContextS16S8Neon);
  EDGENMT_PROVIDE_KERNEL(gru_cell_s16, simd::GruCellS16Neon);
};
#endif

#if defined(__aarch64__)
struct NeonDotprod : Neon {
  static constexpr simd::DotS8Fn kDotS8 = simd::DotS8NeonDotprod;
  static constexpr simd::DotS8RowsFn kDotS8Rows = simd::DotS8RowsNeonDotprod;
};
#endif

#if defined(__ARM_FEATURE_MVE)
// Cortex-M55 / M85: the int8-full operations of the shipped models in MVE except the local-p
// window and the context sum (int64 sums over window positions), which stay portable; the
// float32 activations keep the reference (the firmware runs int8-full).
struct Helium : ReferenceForTheRest {
  static constexpr simd::DotF32Fn kDotF32 = simd::DotF32Helium;
  static constexpr simd::DotS8Fn kDotS8 = simd::DotS8Helium;
  static constexpr simd::DotS8RowsFn kDotS8Rows = simd::DotS8RowsHelium;
  static constexpr simd::QuantizeRowFn kQuantizeRow = ref_quantize_row_f32_s8;
  static constexpr simd::HybridOutputBlockFn kHybridOutputBlock = HybridOutputBlock;
  static constexpr simd::RequantizeColumnBlockFn kRequantizeColumnBlock = simd::RequantizeColumnBlockHelium;
  static constexpr simd::RequantizeEmbeddingBlockFn kRequantizeEmbeddingBlock =
      simd::RequantizeEmbeddingBlockHelium;
  EDGENMT_PROVIDE_REFERENCE_KERNEL(sigmoid_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(tanh_f32);
  EDGENMT_PROVIDE_KERNEL(lstm_cell_s16, simd::LstmCellS16Helium);
  EDGENMT_PROVIDE_KERNEL(tanh_s16, simd::TanhS16Helium);
  EDGENMT_PROVIDE_KERNEL(narrow_s32_s16, simd::NarrowS32S16Helium);
  EDGENMT_PROVIDE_KERNEL(requantize_s16_s8, simd::RequantizeS16S8Helium);
  EDGENMT_PROVIDE_KERNEL(score_window_s16, simd::ScoreWindowS16Helium);
  EDGENMT_PROVIDE_KERNEL(softmax_s32_s16, simd::SoftmaxS32S16Helium);
  EDGENMT_PROVIDE_KERNEL(log_softmax_s32, simd::LogSoftmaxS32Helium);
};
#endif

#if defined(__ARM_FEATURE_DSP) && !defined(__ARM_FEATURE_MVE) && !defined(__ARM_NEON) && !defined(__aarch64__)
// Cortex-M4 / M7 / M33: the products on SMLAD, their requantization on SMULL / QADD; the rest
// portable.
struct Dsp : ReferenceForTheRest {
  static constexpr simd::DotF32Fn kDotF32 = simd::DotF32Dsp;
  static constexpr simd::DotS8Fn kDotS8 = simd::DotS8Dsp;
  static constexpr simd::DotS8RowsFn kDotS8Rows = DotRowsOneByOne<simd::DotS8Dsp>;
  static constexpr simd::QuantizeRowFn kQuantizeRow = ref_quantize_row_f32_s8;
  static constexpr simd::HybridOutputBlockFn kHybridOutputBlock = HybridOutputBlock;
  static constexpr simd::RequantizeColumnBlockFn kRequantizeColumnBlock = simd::RequantizeColumnBlockDsp;
  static constexpr simd::RequantizeEmbeddingBlockFn kRequantizeEmbeddingBlock =
      simd::RequantizeEmbeddingBlockDsp;
  EDGENMT_PROVIDE_REFERENCE_KERNEL(sigmoid_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(tanh_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(lstm_cell_s16);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(tanh_s16);
};
#endif

template <typename L>
KernelTable MakeSimdTable() {
#if defined(__x86_64__)
  simd::GetActivationTablesS16();  // filled now (at Init), not in a session's first step
#endif
  return BuildKernelTable<SimdSpec<L>>(KernelBackend::kSimd);
}

template <typename L>
const KernelTable* TableOf() {
  static const KernelTable table = MakeSimdTable<L>();
  return &table;
}

}  // namespace

Status GetSimdKernelTable(SimdLevel level, const KernelTable** out) {
  if (out == nullptr || level == SimdLevel::kNone) return Status::kInvalidArgument;
  *out = nullptr;
  if (!SimdLevelSupported(level)) return Status::kUnsupported;
  switch (level) {
#if defined(__x86_64__)
    case SimdLevel::kAvx2Fma: *out = TableOf<Avx2Fma>(); return Status::kOk;
    case SimdLevel::kAvx512Vnni: *out = TableOf<Avx512Vnni>(); return Status::kOk;
#endif
#if defined(__ARM_NEON)
    case SimdLevel::kNeon: *out = TableOf<Neon>(); return Status::kOk;
#endif
#if defined(__aarch64__)
    case SimdLevel::kNeonDotprod: *out = TableOf<NeonDotprod>(); return Status::kOk;
#endif
#if defined(__ARM_FEATURE_MVE)
    case SimdLevel::kHelium: *out = TableOf<Helium>(); return Status::kOk;
#endif
#if defined(__ARM_FEATURE_DSP) && !defined(__ARM_FEATURE_MVE) && !defined(__ARM_NEON) && !defined(__aarch64__)
    case SimdLevel::kDsp: *out = TableOf<Dsp>(); return Status::kOk;
#endif
    default: return Status::kUnsupported;
  }
}

}  // namespace edgenmt
