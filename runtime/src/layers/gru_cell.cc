// GRU state update (PyTorch nn.GRU / nn.GRUCell): gates r, z, n in that row order.
//   r = σ(x_r + h_r), z = σ(x_z + h_z), n = tanh(x_n + r⊙h_n), h' = (1−z)⊙n + z⊙h
// where x_* = W_i* x + b_i* (input_gates) and h_* = W_h* h + b_h* (hidden_gates).
#include "layers/recurrent_cell.h"

namespace edgenmt {

void GruUpdate(const KernelTable& k, int32_t rows, int32_t hidden, float* input_gates,
               const float* hidden_gates, const float* h_in, float* h_out) {
  for (int32_t r = 0; r < rows; ++r) {
    float* x = input_gates + static_cast<int64_t>(r) * 3 * hidden;
    const float* hg = hidden_gates + static_cast<int64_t>(r) * 3 * hidden;
    const float* h = h_in + static_cast<int64_t>(r) * hidden;
    float* h_new = h_out + static_cast<int64_t>(r) * hidden;
    for (int32_t j = 0; j < 2 * hidden; ++j) x[j] += hg[j];
    k.sigmoid_f32(2 * hidden, x, x);  // r and z are adjacent
    const float* reset = x;
    const float* update = x + hidden;
    float* candidate = x + 2 * hidden;
    for (int32_t j = 0; j < hidden; ++j) candidate[j] += reset[j] * hg[2 * hidden + j];
    k.tanh_f32(hidden, candidate, candidate);
    // Element j of h is read before element j of h_new is written: h_out may alias h_in.
    for (int32_t j = 0; j < hidden; ++j) {
      h_new[j] = (1.0f - update[j]) * candidate[j] + update[j] * h[j];
    }
  }
}

}  // namespace edgenmt
