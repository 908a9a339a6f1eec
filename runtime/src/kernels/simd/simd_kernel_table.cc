// The SIMD backend's kernel tables: the product kernels run an instruction set's dot-product
// core (simd_dot.h) inside portable drivers (simd_product_drivers.h); cells, activations and
// requantization use a level's vector versions where it has them; the rest are reference kernels,
// each named (ReferenceForTheRest), so an operation that no level names is absent, not the
// reference. The per-output arithmetic is kernels/product_outputs.h, shared with the reference, so
// integer results are bit-identical to it and float ones differ only by summation order.
#include "kernels/kernel_table_builder.h"
#include "kernels/product_outputs.h"
#include "kernels/simd/activation_table_s16.h"
#include "kernels/simd/simd_activation.h"
#include "kernels/simd/simd_attention.h"
#include "kernels/simd/simd_cell.h"
#include "kernels/simd/simd_dot.h"
#include "kernels/simd/simd_dsp.h"
#include "kernels/simd/simd_helium.h"
#include "kernels/simd/simd_layer_norm.h"
#include "kernels/simd/simd_level.h"
#include "kernels/simd/simd_product_drivers.h"
#include "kernels/simd/simd_softmax.h"
#include "kernels/simd/simd_transformer_s8.h"

namespace edgenmt {
namespace {
using namespace simd_drivers;  // NOLINT: the drivers are this file's
// ---- the levels: each names the operations it vectorises --------------------------------------

// The operations a level leaves to the reference unless it names its own (no vector version,
// or none faster than the portable kernel); every other one a level must name, or its table
// lacks it.
struct ReferenceForTheRest {
  // A level with a panel core names it (kDotS8Panel) and sets kHasPanel (a flag, not a
  // comparison of the pointer with null: that is no constant expression under ASan).
  static constexpr bool kHasPanel = false;
  EDGENMT_PROVIDE_REFERENCE_KERNEL(embedding_lookup_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(embedding_lookup_s8_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(layer_norm_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(relu_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(gelu_f32);
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
  // The int8-full Transformer's operations: the x86, NEON and Helium levels name their own for
  // all seven (docs/BACKENDS.md); the DSP level leaves them portable.
  EDGENMT_PROVIDE_REFERENCE_KERNEL(embedding_lookup_s8_s32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(layer_norm_s32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(requantize_s32_s8);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(gelu_s32_s8);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(residual_add_s32_s16);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(attention_scores_s8);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(attention_context_s8);
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

#if EDGENMT_SIMD_AVX2_FMA
struct Avx2Fma : ReferenceForTheRest {
  static constexpr simd::DotF32Fn kDotF32 = simd::DotF32Avx2Fma;
  static constexpr simd::DotS8Fn kDotS8 = simd::DotS8Avx2;
  static constexpr simd::DotS8RowsFn kDotS8Rows = DotRowsOneByOne<simd::DotS8Avx2>;
  static constexpr simd::QuantizeRowFn kQuantizeRow = simd::QuantizeRowAvx2;
  static constexpr simd::HybridOutputBlockFn kHybridOutputBlock = simd::HybridOutputBlockAvx2;
  static constexpr simd::RequantizeColumnBlockFn kRequantizeColumnBlock =
      simd::RequantizeColumnBlockAvx2;
  static constexpr simd::RequantizeEmbeddingBlockFn kRequantizeEmbeddingBlock =
      simd::RequantizeEmbeddingBlockAvx2;
  EDGENMT_PROVIDE_KERNEL(sigmoid_f32, simd::SigmoidF32Avx2);
  EDGENMT_PROVIDE_KERNEL(tanh_f32, simd::TanhF32Avx2);
  EDGENMT_PROVIDE_KERNEL(lstm_cell_s16, simd::LstmCellS16Table);
  EDGENMT_PROVIDE_KERNEL(tanh_s16, simd::TanhS16Table);
  EDGENMT_PROVIDE_KERNEL(softmax_f32, simd::SoftmaxF32Avx2);
  EDGENMT_PROVIDE_KERNEL(log_softmax_f32, simd::LogSoftmaxF32Avx2);
  EDGENMT_PROVIDE_KERNEL(layer_norm_f32, simd::LayerNormF32Avx2);
  EDGENMT_PROVIDE_KERNEL(relu_f32, simd::ReluF32Avx2);
  EDGENMT_PROVIDE_KERNEL(embedding_lookup_s8_s32, simd::EmbeddingLookupS8S32Avx2);
  EDGENMT_PROVIDE_KERNEL(layer_norm_s32, simd::LayerNormS32Avx2);
  EDGENMT_PROVIDE_KERNEL(gelu_s32_s8, simd::GeluS32S8Avx2);
  EDGENMT_PROVIDE_KERNEL(requantize_s32_s8, simd::RequantizeS32S8Avx2);
  EDGENMT_PROVIDE_KERNEL(residual_add_s32_s16, simd::ResidualAddS32S16Avx2);
  EDGENMT_PROVIDE_KERNEL(attention_scores_s8, simd::AttentionScoresS8Avx2);
  EDGENMT_PROVIDE_KERNEL(attention_context_s8, simd::AttentionContextS8Avx2);
  EDGENMT_PROVIDE_KERNEL(softmax_s32_s16, simd::SoftmaxS32S16Avx2);
  EDGENMT_PROVIDE_KERNEL(log_softmax_s32, simd::LogSoftmaxS32Avx2);
  EDGENMT_PROVIDE_KERNEL(local_p_gaussian_s16, simd::LocalPGaussianS16Avx2);
  EDGENMT_PROVIDE_KERNEL(narrow_s32_s16, simd::NarrowS32S16Avx2);
  EDGENMT_PROVIDE_KERNEL(requantize_s16_s8, simd::RequantizeS16S8Avx2);
  EDGENMT_PROVIDE_KERNEL(score_window_s16, simd::ScoreWindowS16Avx2);
  EDGENMT_PROVIDE_KERNEL(context_s16_s8, simd::ContextS16S8Avx2);
};

#endif
#if EDGENMT_SIMD_AVX2_FMA && EDGENMT_SIMD_AVX512_VNNI
struct Avx512Vnni : Avx2Fma {
  static constexpr simd::DotS8Fn kDotS8 = simd::DotS8Avx512Vnni;
  static constexpr simd::DotS8RowsFn kDotS8Rows = simd::DotS8RowsAvx512Vnni;
  static constexpr bool kHasPanel = true;
  static constexpr simd::DotS8PanelFn kDotS8Panel = simd::DotS8PanelAvx512Vnni;
  static constexpr simd::HybridOutputBlockFn kHybridOutputBlock = simd::HybridOutputBlockAvx512;
  static constexpr simd::RequantizeColumnBlockFn kRequantizeColumnBlock =
      simd::RequantizeColumnBlockAvx512;
  static constexpr simd::RequantizeEmbeddingBlockFn kRequantizeEmbeddingBlock =
      simd::RequantizeEmbeddingBlockAvx512;
  EDGENMT_PROVIDE_KERNEL(sigmoid_f32, simd::SigmoidF32Avx512);
  EDGENMT_PROVIDE_KERNEL(tanh_f32, simd::TanhF32Avx512);
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

#if EDGENMT_SIMD_NEON
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
  static constexpr simd::RequantizeColumnBlockFn kRequantizeColumnBlock =
      simd::RequantizeColumnBlockNeon;
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
  EDGENMT_PROVIDE_KERNEL(layer_norm_f32, simd::LayerNormF32Neon);
  EDGENMT_PROVIDE_KERNEL(relu_f32, simd::ReluF32Neon);
  EDGENMT_PROVIDE_KERNEL(embedding_lookup_s8_s32, simd::EmbeddingLookupS8S32Neon);
  EDGENMT_PROVIDE_KERNEL(layer_norm_s32, simd::LayerNormS32Neon);
  EDGENMT_PROVIDE_KERNEL(gelu_s32_s8, simd::GeluS32S8Neon);
  EDGENMT_PROVIDE_KERNEL(requantize_s32_s8, simd::RequantizeS32S8Neon);
  EDGENMT_PROVIDE_KERNEL(residual_add_s32_s16, simd::ResidualAddS32S16Neon);
  EDGENMT_PROVIDE_KERNEL(attention_scores_s8, simd::AttentionScoresS8Neon);
  EDGENMT_PROVIDE_KERNEL(attention_context_s8, simd::AttentionContextS8Neon);
};
#endif

#if EDGENMT_SIMD_NEON_DOTPROD
struct NeonDotprod : Neon {
  static constexpr simd::DotS8Fn kDotS8 = simd::DotS8NeonDotprod;
  static constexpr simd::DotS8RowsFn kDotS8Rows = simd::DotS8RowsNeonDotprod;
  // No panel core: an sdot-by-element panel (weights transposed in registers) measured more
  // instructions per word under QEMU than these 4 x 4 rows (3.9 M against 2.95 M, int8 greedy
  // at batch 32), which read each weight once per 4 rows already.
};
#endif

#if EDGENMT_SIMD_HELIUM
// Cortex-M55 / M85: the int8-full operations of the shipped models in MVE except the local-p
// window, which stays portable (the context sum keeps the reference's int64 for weights past
// its int32 bound); the float32 activations keep the reference (the firmware runs int8-full).
struct Helium : ReferenceForTheRest {
  static constexpr simd::DotF32Fn kDotF32 = simd::DotF32Helium;
  static constexpr simd::DotS8Fn kDotS8 = simd::DotS8Helium;
  static constexpr simd::DotS8RowsFn kDotS8Rows = simd::DotS8RowsHelium;
  static constexpr simd::QuantizeRowFn kQuantizeRow = ref_quantize_row_f32_s8;
  static constexpr simd::HybridOutputBlockFn kHybridOutputBlock = HybridOutputBlock;
  static constexpr simd::RequantizeColumnBlockFn kRequantizeColumnBlock =
      simd::RequantizeColumnBlockHelium;
  static constexpr simd::RequantizeEmbeddingBlockFn kRequantizeEmbeddingBlock =
      simd::RequantizeEmbeddingBlockHelium;
  EDGENMT_PROVIDE_REFERENCE_KERNEL(sigmoid_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(tanh_f32);
  EDGENMT_PROVIDE_KERNEL(lstm_cell_s16, simd::LstmCellS16Helium);
  EDGENMT_PROVIDE_KERNEL(tanh_s16, simd::TanhS16Helium);
  EDGENMT_PROVIDE_KERNEL(narrow_s32_s16, simd::NarrowS32S16Helium);
  EDGENMT_PROVIDE_KERNEL(requantize_s16_s8, simd::RequantizeS16S8Helium);
  EDGENMT_PROVIDE_KERNEL(score_window_s16, simd::ScoreWindowS16Helium);
  EDGENMT_PROVIDE_KERNEL(context_s16_s8, simd::ContextS16S8Helium);
  EDGENMT_PROVIDE_KERNEL(softmax_s32_s16, simd::SoftmaxS32S16Helium);
  EDGENMT_PROVIDE_KERNEL(log_softmax_s32, simd::LogSoftmaxS32Helium);
  EDGENMT_PROVIDE_KERNEL(embedding_lookup_s8_s32, simd::EmbeddingLookupS8S32Helium);
  EDGENMT_PROVIDE_KERNEL(layer_norm_s32, simd::LayerNormS32Helium);
  EDGENMT_PROVIDE_KERNEL(gelu_s32_s8, simd::GeluS32S8Helium);
  EDGENMT_PROVIDE_KERNEL(requantize_s32_s8, simd::RequantizeS32S8Helium);
  EDGENMT_PROVIDE_KERNEL(residual_add_s32_s16, simd::ResidualAddS32S16Helium);
  EDGENMT_PROVIDE_KERNEL(attention_scores_s8, simd::AttentionScoresS8Helium);
  EDGENMT_PROVIDE_KERNEL(attention_context_s8, simd::AttentionContextS8Helium);
};
#endif

#if EDGENMT_SIMD_DSP
// Cortex-M4 / M7 / M33: the products and the Transformer's attention on SMLAD, the products'
// requantization on SMULL / QADD; the rest portable.
struct Dsp : ReferenceForTheRest {
  static constexpr simd::DotF32Fn kDotF32 = simd::DotF32Dsp;
  static constexpr simd::DotS8Fn kDotS8 = simd::DotS8Dsp;
  static constexpr simd::DotS8RowsFn kDotS8Rows = DotRowsOneByOne<simd::DotS8Dsp>;
  static constexpr simd::QuantizeRowFn kQuantizeRow = ref_quantize_row_f32_s8;
  static constexpr simd::HybridOutputBlockFn kHybridOutputBlock = HybridOutputBlock;
  static constexpr simd::RequantizeColumnBlockFn kRequantizeColumnBlock =
      simd::RequantizeColumnBlockDsp;
  static constexpr simd::RequantizeEmbeddingBlockFn kRequantizeEmbeddingBlock =
      simd::RequantizeEmbeddingBlockDsp;
  EDGENMT_PROVIDE_REFERENCE_KERNEL(sigmoid_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(tanh_f32);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(lstm_cell_s16);
  EDGENMT_PROVIDE_REFERENCE_KERNEL(tanh_s16);
  EDGENMT_PROVIDE_KERNEL(attention_scores_s8, simd::AttentionScoresS8Dsp);
  EDGENMT_PROVIDE_KERNEL(attention_context_s8, simd::AttentionContextS8Dsp);
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
#if EDGENMT_SIMD_AVX2_FMA
    case SimdLevel::kAvx2Fma: *out = TableOf<Avx2Fma>(); return Status::kOk;
#endif
#if EDGENMT_SIMD_AVX2_FMA && EDGENMT_SIMD_AVX512_VNNI
    case SimdLevel::kAvx512Vnni: *out = TableOf<Avx512Vnni>(); return Status::kOk;
#endif
#if EDGENMT_SIMD_NEON
    case SimdLevel::kNeon: *out = TableOf<Neon>(); return Status::kOk;
#endif
#if EDGENMT_SIMD_NEON_DOTPROD
    case SimdLevel::kNeonDotprod: *out = TableOf<NeonDotprod>(); return Status::kOk;
#endif
#if EDGENMT_SIMD_HELIUM
    case SimdLevel::kHelium: *out = TableOf<Helium>(); return Status::kOk;
#endif
#if EDGENMT_SIMD_DSP
    case SimdLevel::kDsp: *out = TableOf<Dsp>(); return Status::kOk;
#endif
    default: return Status::kUnsupported;
  }
}

}  // namespace edgenmt
