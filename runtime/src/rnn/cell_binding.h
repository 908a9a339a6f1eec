// What a recurrent cell binds from the model file and how its input arrives, shared by both
// numeric schemes (numerics/float_numerics.h, numerics/integer_numerics.h) and the generic
// cell (rnn/recurrent_cell.h).
#ifndef EDGENMT_RNN_CELL_BINDING_H_
#define EDGENMT_RNN_CELL_BINDING_H_

#include <stdint.h>

#include "edgenmt/model.h"
#include "error_detail.h"

namespace edgenmt {

struct CellBinding {
  CellType cell = CellType::kLstm;
  // Which cell: decoder.layers.{layer}.<tensor>, or encoder.rnn.<tensor>_l{layer}[_reverse]
  // (names are built one at a time where they are used: no name buffers down the call chain).
  bool decoder = false;
  int32_t layer = 0;
  bool reverse = false;
  int32_t input_size = 0;
  int32_t hidden_size = 0;
  // Leading input columns fed by embedding rows (encoder and decoder layer 0), 0 for a layer
  // whose whole input is a hidden state; the integer scheme requantizes them at their own scale.
  int32_t embedding_columns = 0;
  uint32_t embedding_scale_bits = 0;  // float32 bits of that embedding's shared scale
  int32_t observer_index = 0;         // calibration: position in ExpectedActivations()
};

// The docs/MODEL.md name of the cell's tensor `what` ("weight_ih", "weight_hh", "bias_ih",
// "bias_hh").
inline NameBuilder CellTensorName(const CellBinding& b, const char* what) {
  return b.decoder ? NameBuilder("decoder.layers.", b.layer, ".", what)
                   : NameBuilder("encoder.rnn.", what, "_l", b.layer, b.reverse ? "_reverse" : "");
}
// docs/INT8.md activation format name of the cell's LSTM state.
inline NameBuilder CellStateFormatName(const CellBinding& b) {
  return b.decoder ? NameBuilder("decoder.layers.", b.layer, ".cell")
                   : NameBuilder("encoder.rnn.l", b.layer, b.reverse ? "_reverse" : "", ".cell");
}

}  // namespace edgenmt

#endif  // EDGENMT_RNN_CELL_BINDING_H_
