// LSTM state update (PyTorch nn.LSTM / nn.LSTMCell): gates i, f, g, o in that row order.
//   i = σ(z_i), f = σ(z_f), g = tanh(z_g), o = σ(z_o); c' = f⊙c + i⊙g; h' = o⊙tanh(c').
#include "layers/recurrent_cell.h"

namespace edgenmt {

void LstmUpdate(const KernelTable& k, int32_t rows, int32_t hidden, float* gates,
                const float* c_in, float* h_out, float* c_out) {
  for (int32_t r = 0; r < rows; ++r) {
    float* z = gates + static_cast<int64_t>(r) * 4 * hidden;
    const float* c = c_in + static_cast<int64_t>(r) * hidden;
    float* h_new = h_out + static_cast<int64_t>(r) * hidden;
    float* c_new = c_out + static_cast<int64_t>(r) * hidden;
    float* i_gate = z;
    float* f_gate = z + hidden;
    float* g_gate = z + 2 * hidden;
    float* o_gate = z + 3 * hidden;
    k.sigmoid_f32(2 * hidden, i_gate, i_gate);  // i and f are adjacent
    k.tanh_f32(hidden, g_gate, g_gate);
    k.sigmoid_f32(hidden, o_gate, o_gate);
    for (int32_t j = 0; j < hidden; ++j) c_new[j] = f_gate[j] * c[j] + i_gate[j] * g_gate[j];
    k.tanh_f32(hidden, c_new, h_new);
    for (int32_t j = 0; j < hidden; ++j) h_new[j] *= o_gate[j];
  }
}

}  // namespace edgenmt
