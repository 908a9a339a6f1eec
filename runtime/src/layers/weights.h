// Binding model tensors to layers at Prepare time: look a tensor up by its docs/MODEL.md name,
// check dtype and exact shape, keep a pointer into the model buffer (weights are never copied).
#ifndef EDGENMT_LAYERS_WEIGHTS_H_
#define EDGENMT_LAYERS_WEIGHTS_H_

#include <stdint.h>

#include "edgenmt/arena.h"
#include "edgenmt/model.h"
#include "error_detail.h"
#include "kernels/kernel_table.h"

namespace edgenmt {

// A float32 [rows, cols] matrix. kModelTensorMissing / kModelTensorInvalid with the name,
// expected and found shape in `detail`.
Status BindMatrixF32(const Model& model, const char* name, int32_t rows, int32_t cols,
                     const float** out, ErrorDetail* detail);
// A float32 [size] vector.
Status BindVectorF32(const Model& model, const char* name, int32_t size, const float** out,
                     ErrorDetail* detail);

// A [rows, cols] matrix multiplied as y = x W^T (or gathered, for embeddings) in the storage
// the model's scheme uses (docs/INT8.md): float32, or int8 with one float scale per row for
// the hybrid scheme. Pointers are into the model buffer, except `scratch`: [cols] int8 from the
// arena, where the hybrid kernel quantizes each input row.
struct MatrixWeights {
  int32_t rows = 0;
  int32_t cols = 0;
  const float* f32 = nullptr;         // float32 storage, or null
  const int8_t* s8 = nullptr;         // int8 storage, or null
  const float* row_scales = nullptr;  // [rows] with s8
  int8_t* scratch = nullptr;          // [cols] with s8 (null while measuring the arena)
};

// Binds `name` as float32 for kFloat32 models and as per-row int8 (axis 0, rows scales) for
// kInt8Hybrid models. kInt8Full models are refused with kUnsupported: their integer path does
// not go through these float layers. (StepDecoder::Prepare checks that the kernel table has the
// int8 entries a hybrid model needs.)
Status BindMatrix(const Model& model, const char* name, int32_t rows, int32_t cols, Arena* arena,
                  MatrixWeights* out, ErrorDetail* detail);

// y[r][m] = (accumulate ? y : 0) + x[r] . W[m] + bias[m] for r < n_rows, m < out_features
// (out_features <= w.rows; -1 means w.rows: the location score uses only the first S rows).
void ApplyLinear(const KernelTable& k, int32_t n_rows, const float* x, const MatrixWeights& w,
                 const float* bias, float* y, bool accumulate, int32_t out_features = -1);

// out[i * out_stride + d] = W[ids[i]][d] as float (dequantized for int8 storage).
void ApplyEmbedding(const KernelTable& k, int32_t count, const int32_t* ids,
                    const MatrixWeights& table, float* out, int32_t out_stride);

}  // namespace edgenmt

#endif  // EDGENMT_LAYERS_WEIGHTS_H_
