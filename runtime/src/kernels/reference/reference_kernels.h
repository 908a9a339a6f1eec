// The portable reference kernels: plain C++, one op per file, the definition every optimized
// backend is tested against. Semantics are documented on KernelTable (kernels/kernel_table.h).
#ifndef EDGENMT_KERNELS_REFERENCE_REFERENCE_KERNELS_H_
#define EDGENMT_KERNELS_REFERENCE_REFERENCE_KERNELS_H_

#include <stdint.h>

#include "kernels/transformer_kernel_linkage.h"

namespace edgenmt {

void ref_fully_connected_f32(int32_t rows, int32_t in_features, int32_t out_features,
                             const float* x, const float* w, const float* bias, float* y,
                             bool accumulate);
void ref_sigmoid_f32(int32_t n, const float* x, float* y);
void ref_tanh_f32(int32_t n, const float* x, float* y);
void ref_softmax_f32(int32_t n, const float* x, float* y);
void ref_log_softmax_f32(int32_t n, const float* x, float* y);
EDGENMT_TRANSFORMER_KERNEL
void ref_layer_norm_f32(int32_t n, const float* x, const float* gain, const float* shift, float eps,
                        float* y);
EDGENMT_TRANSFORMER_KERNEL
void ref_relu_f32(int32_t n, const float* x, float* y);
EDGENMT_TRANSFORMER_KERNEL
void ref_gelu_f32(int32_t n, const float* x, float* y);
void ref_embedding_lookup_f32(int32_t count, const int32_t* ids, const float* table, int32_t dim,
                              float* out, int32_t out_stride);

}  // namespace edgenmt

#endif  // EDGENMT_KERNELS_REFERENCE_REFERENCE_KERNELS_H_
