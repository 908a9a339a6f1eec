// Float32 tensors bound by name at Prepare time: look the tensor up by its docs/MODEL.md name,
// check dtype and exact shape, keep a pointer into the model buffer (never copied).
#ifndef EDGENMT_NUMERICS_FLOAT_TENSORS_H_
#define EDGENMT_NUMERICS_FLOAT_TENSORS_H_

#include <stdint.h>

#include "edgenmt/model.h"
#include "error_detail.h"

namespace edgenmt {

// A float32 [rows, cols] matrix. kModelTensorMissing / kModelTensorInvalid with the name,
// expected and found shape in `detail`.
Status BindMatrixF32(const Model& model, const char* name, int32_t rows, int32_t cols,
                     const float** out, ErrorDetail* detail);
// A float32 [size] vector.
Status BindVectorF32(const Model& model, const char* name, int32_t size, const float** out,
                     ErrorDetail* detail);

}  // namespace edgenmt

#endif  // EDGENMT_NUMERICS_FLOAT_TENSORS_H_
