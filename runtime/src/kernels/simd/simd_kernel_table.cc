// The SIMD backend's kernel tables: the product kernels run an instruction set's dot-product
// core (simd_dot.h) inside portable drivers; every other entry is the reference kernel. The
// per-output arithmetic is kernels/product_outputs.h, shared with the reference, so integer
// results are bit-identical to it and float ones differ only by summation order.
#include "kernels/kernels_s8.h"
#include "kernels/product_outputs.h"
#include "kernels/simd/simd_activation.h"
#include "kernels/simd/simd_cell.h"
#include "kernels/simd/simd_dot.h"
#include "kernels/simd/simd_level.h"

namespace edgenmt {
namespace {

// Outputs per call of a dot core: the sums wait on the stack (256 B) for their outputs.
constexpr int32_t kOutputBlock = 64;

inline int32_t BlockSize(int32_t out_features, int32_t m0) {
  return out_features - m0 < kOutputBlock ? out_features - m0 : kOutputBlock;
}

template <simd::DotF32Fn Dot>
void FullyConnectedF32(int32_t rows, int32_t in_features, int32_t out_features, const float* x,
                       const float* w, const float* bias, float* y, bool accumulate) {
  float dots[kOutputBlock];
  for (int32_t r = 0; r < rows; ++r) {
    const float* x_row = x + static_cast<int64_t>(r) * in_features;
    float* y_row = y + static_cast<int64_t>(r) * out_features;
    for (int32_t m0 = 0; m0 < out_features; m0 += kOutputBlock) {
      const int32_t n = BlockSize(out_features, m0);
      Dot(in_features, x_row, w + static_cast<int64_t>(m0) * in_features, in_features, n, dots);
      for (int32_t i = 0; i < n; ++i) StoreF32Output(dots[i], bias, m0 + i, accumulate, &y_row[m0 + i]);
    }
  }
}

template <simd::DotS8Fn Dot, simd::QuantizeRowFn QuantizeRow>
void FullyConnectedS8Hybrid(int32_t rows, int32_t in_features, int32_t out_features,
                            const float* x, const int8_t* w, const float* w_scales,
                            const float* bias, float* y, bool accumulate, int8_t* x_scratch) {
  int32_t dots[kOutputBlock];
  for (int32_t r = 0; r < rows; ++r) {
    const float x_scale =
        QuantizeRow(in_features, x + static_cast<int64_t>(r) * in_features, x_scratch);
    float* y_row = y + static_cast<int64_t>(r) * out_features;
    for (int32_t m0 = 0; m0 < out_features; m0 += kOutputBlock) {
      const int32_t n = BlockSize(out_features, m0);
      Dot(in_features, x_scratch, w + static_cast<int64_t>(m0) * in_features, in_features, n, dots);
      for (int32_t i = 0; i < n; ++i) {
        StoreHybridOutput(dots[i], x_scale, w_scales, bias, m0 + i, accumulate, &y_row[m0 + i]);
      }
    }
  }
}

// The portable requantization of a block (every level without a vector one).
void RequantizeColumnBlock(int32_t n, const int32_t* dots, const int32_t* multiplier,
                           const int32_t* shift, int32_t shift_offset, const int32_t* bias,
                           bool accumulate, int32_t* y) {
  for (int32_t i = 0; i < n; ++i) {
    StoreStridedS32Output(dots[i], multiplier, shift, shift_offset, bias, i, accumulate, &y[i]);
  }
}

void RequantizeEmbeddingBlock(int32_t n, const int32_t* dots, int32_t id,
                              const int32_t* row_multiplier, const int32_t* row_shift,
                              const int32_t* multiplier, const int32_t* shift,
                              const int32_t* bias, int32_t* y) {
  for (int32_t i = 0; i < n; ++i) {
    y[i] = EmbeddingS32Output(dots[i], id, row_multiplier, row_shift, multiplier, shift, bias, i);
  }
}

template <simd::DotS8Fn Dot, simd::RequantizeColumnBlockFn Requantize>
void FullyConnectedS8S32(int32_t rows, int32_t in_features, int32_t out_features,
                         const int8_t* x, int32_t x_stride, const int8_t* w, int32_t w_stride,
                         const int32_t* multiplier, const int32_t* shift, int32_t shift_offset,
                         const int32_t* bias, int32_t* y, bool accumulate) {
  int32_t dots[kOutputBlock];
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* x_row = x + static_cast<int64_t>(r) * x_stride;
    int32_t* y_row = y + static_cast<int64_t>(r) * out_features;
    for (int32_t m0 = 0; m0 < out_features; m0 += kOutputBlock) {
      const int32_t n = BlockSize(out_features, m0);
      Dot(in_features, x_row, w + static_cast<int64_t>(m0) * w_stride, w_stride, n, dots);
      Requantize(n, dots, multiplier + m0, shift + m0, shift_offset,
                 bias != nullptr ? bias + m0 : nullptr, accumulate, y_row + m0);
    }
  }
}

template <simd::DotS8Fn Dot, simd::RequantizeEmbeddingBlockFn Requantize>
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
      const int32_t n = BlockSize(out_features, m0);
      Dot(dim, x_row, w + static_cast<int64_t>(m0) * w_stride, w_stride, n, dots);
      Requantize(n, dots, id, row_multiplier, row_shift, multiplier + m0, shift + m0,
                 bias != nullptr ? bias + m0 : nullptr, y_row + m0);
    }
  }
}

using ActivationFn = void (*)(int32_t n, const float* x, float* y);

template <simd::DotF32Fn F32, simd::DotS8Fn S8, simd::QuantizeRowFn QuantizeRow,
          ActivationFn Sigmoid, ActivationFn Tanh>
KernelTable MakeSimdTable() {
  KernelTable table = ReferenceKernelTable();
  table.backend = KernelBackend::kSimd;
  table.sigmoid_f32 = Sigmoid;
  table.tanh_f32 = Tanh;
  table.fully_connected_f32 = FullyConnectedF32<F32>;
  table.fully_connected_s8_hybrid = FullyConnectedS8Hybrid<S8, QuantizeRow>;
  table.fully_connected_s8_s32 = FullyConnectedS8S32<S8, RequantizeColumnBlock>;
  table.embedding_fully_connected_s8_s32 = EmbeddingFullyConnectedS8S32<S8, RequantizeEmbeddingBlock>;
  return table;
}

}  // namespace

Status GetSimdKernelTable(SimdLevel level, const KernelTable** out) {
  if (out == nullptr || level == SimdLevel::kNone) return Status::kInvalidArgument;
  *out = nullptr;
  if (!SimdLevelSupported(level)) return Status::kUnsupported;
  switch (level) {
#if defined(__x86_64__)
    case SimdLevel::kAvx2Fma: {
      static const KernelTable table = MakeSimdTable<
          simd::DotF32Avx2Fma, simd::DotS8Avx2, simd::QuantizeRowAvx2,
          simd::SigmoidF32Avx2, simd::TanhF32Avx2>();
      *out = &table;
      return Status::kOk;
    }
    case SimdLevel::kAvx512Vnni: {
      static const KernelTable table = [] {
        KernelTable t = MakeSimdTable<
            simd::DotF32Avx2Fma, simd::DotS8Avx512Vnni, simd::QuantizeRowAvx2,
            simd::SigmoidF32Avx2, simd::TanhF32Avx2>();
        t.fully_connected_s8_s32 =
            FullyConnectedS8S32<simd::DotS8Avx512Vnni, simd::RequantizeColumnBlockAvx512>;
        t.embedding_fully_connected_s8_s32 =
            EmbeddingFullyConnectedS8S32<simd::DotS8Avx512Vnni, simd::RequantizeEmbeddingBlockAvx512>;
        t.lstm_cell_s16 = simd::LstmCellS16Avx512;
        t.tanh_s16 = simd::TanhS16Avx512;
        return t;
      }();
      *out = &table;
      return Status::kOk;
    }
#endif
#if defined(__ARM_NEON)
    case SimdLevel::kNeon: {
      static const KernelTable table = MakeSimdTable<
          simd::DotF32Neon, simd::DotS8Neon, simd::QuantizeRowNeon,
          simd::SigmoidF32Neon, simd::TanhF32Neon>();
      *out = &table;
      return Status::kOk;
    }
#endif
#if defined(__aarch64__)
    case SimdLevel::kNeonDotprod: {
      static const KernelTable table = MakeSimdTable<
          simd::DotF32Neon, simd::DotS8NeonDotprod, simd::QuantizeRowNeon,
          simd::SigmoidF32Neon, simd::TanhF32Neon>();
      *out = &table;
      return Status::kOk;
    }
#endif
    default:
      return Status::kUnsupported;
  }
}

}  // namespace edgenmt
