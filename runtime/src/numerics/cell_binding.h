// What a recurrent cell binds from the model file and how its input arrives, shared by both
// numeric schemes (numerics/float_numerics.h, numerics/integer_numerics.h) and the generic
// cell (rnn/recurrent_cell.h).
#ifndef EDGENMT_NUMERICS_CELL_BINDING_H_
#define EDGENMT_NUMERICS_CELL_BINDING_H_

#include <stdint.h>

#include "edgenmt/model.h"

namespace edgenmt {

struct CellBinding {
  CellType cell = CellType::kLstm;
  const char* prefix = "";        // tensors <prefix>weight_ih<suffix>, weight_hh, bias_ih, bias_hh
  const char* suffix = "";
  const char* state_format = "";  // docs/INT8.md activation format of the LSTM cell state
  int32_t input_size = 0;
  int32_t hidden_size = 0;
  // Leading input columns fed by embedding rows (encoder and decoder layer 0), 0 for a layer
  // whose whole input is a hidden state; the integer scheme requantizes them at their own scale.
  int32_t embedding_columns = 0;
  uint32_t embedding_scale_bits = 0;  // float32 bits of that embedding's shared scale
  int32_t observer_index = 0;         // calibration: position in ExpectedActivations()
};


}  // namespace edgenmt

#endif  // EDGENMT_NUMERICS_CELL_BINDING_H_
