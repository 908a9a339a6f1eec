// The RNN's operations in the float scheme (rnn/float_rnn_numerics.h): the math of the former
// float layers, unchanged, so results stay bit-identical.
#include "rnn/float_rnn_numerics.h"

#include <math.h>
#include <string.h>

#include "edgenmt/internal/tensor_layout.h"

namespace edgenmt {

Status FloatRnnNumerics::Prepare(const Model& model, const KernelTable* kernels, int32_t max_rows,
                                 int32_t max_width, Arena* arena, ErrorDetail* detail,
                                 int32_t max_sources) {
  (void)max_width;
  if (kernels->sigmoid_f32 == nullptr) {
    return detail->Fail(Status::kUnsupported, "kernel backend lacks a float32 kernel");
  }
  // The widest input of any product: the hybrid kernel quantizes rows of it.
  const ModelConfig& c = model.config();
  int32_t cols = DecoderInputSize(c);
  const int32_t others[] = {c.encoder_output_size() + c.rnn.dec_hidden, c.rnn.src_embed,
                            c.rnn.attn_hidden};
  for (int32_t v : others) cols = v > cols ? v : cols;
  return FloatNumerics::Prepare(model, kernels, max_rows, cols, arena, detail, max_sources);
}

Status FloatRnnNumerics::BindCell(const Model& model, const CellBinding& b, int32_t max_rows,
                                  Arena* arena, CellWeights* out, ErrorDetail* detail) const {
  const int32_t G = GateCount(b.cell) * b.hidden_size;
  out->cell = b.cell;
  out->hidden = b.hidden_size;
  EDGENMT_RETURN_IF_ERROR(BindMatrix(model, CellTensorName(b, "weight_ih").c_str(), G, b.input_size,
                                     arena, &out->w_ih, detail));
  EDGENMT_RETURN_IF_ERROR(BindMatrix(model, CellTensorName(b, "weight_hh").c_str(), G,
                                     b.hidden_size, arena, &out->w_hh, detail));
  EDGENMT_RETURN_IF_ERROR(
      BindBias(model, CellTensorName(b, "bias_ih").c_str(), G, &out->b_ih, detail));
  EDGENMT_RETURN_IF_ERROR(
      BindBias(model, CellTensorName(b, "bias_hh").c_str(), G, &out->b_hh, detail));
  out->hidden_gates = b.cell == CellType::kGru || (out->w_hh.f32 != nullptr && packs())
                          ? arena->AllocateScratchArray<float>(static_cast<size_t>(max_rows),
                                                               static_cast<size_t>(G))
                          : nullptr;
  return Status::kOk;
}

// The hybrid scheme quantizes each concatenated input row once (docs/INT8.md), so the parts
// are gathered into one row before the product.
void FloatRnnNumerics::InputLinear(const CellWeights& cell, const Embedding& embedding,
                                   int32_t rows, const int32_t* ids, const Hidden* context,
                                   int32_t context_size, const Hidden* htilde, int32_t htilde_size,
                                   Acc* gates, Hidden* scratch) const {
  const int32_t width = cell.w_ih.cols;
  if (embedding.s8 != nullptr) {
    k_->embedding_lookup_s8_f32(rows, ids, embedding.s8, embedding.row_scales, embedding.cols,
                                scratch, width);
  } else {
    k_->embedding_lookup_f32(rows, ids, embedding.f32, embedding.cols, scratch, width);
  }
  int32_t column = embedding.cols;
  const Hidden* parts[2] = {context, htilde};
  const int32_t sizes[2] = {context_size, htilde_size};
  for (int32_t p = 0; p < 2; ++p) {
    if (parts[p] == nullptr) continue;
    for (int32_t r = 0; r < rows; ++r) {
      memcpy(scratch + static_cast<int64_t>(r) * width + column,
             parts[p] + static_cast<int64_t>(r) * sizes[p],
             sizeof(float) * static_cast<size_t>(sizes[p]));
    }
    column += sizes[p];
  }
  Linear(cell.w_ih, rows, scratch, cell.b_ih, gates, false);
}

void FloatRnnNumerics::CellStep(const CellWeights& cell, int32_t rows, Acc* gates,
                                const Hidden* h_in, const State* s_in, Hidden* h_out, State* s_out,
                                Memory* memory_out) const {
  (void)memory_out;
  const KernelTable& k = *k_;
  const int32_t H = cell.hidden;
  if (cell.cell == CellType::kLstm) {
    // z = (W_ih x + b_ih) + (W_hh h + b_hh): the hidden product accumulates into the gates and
    // reads all of h_in before anything is written, so h_out may alias h_in.
    if (cell.w_hh.packed != nullptr && rows >= k_->packed_min_rows) {
      // A packed product writes its output: add it to the gates (same sums, another order).
      const int32_t G = 4 * H;
      Linear(cell.w_hh, rows, h_in, cell.b_hh, cell.hidden_gates, false);
      for (int64_t j = 0; j < static_cast<int64_t>(rows) * G; ++j) gates[j] += cell.hidden_gates[j];
    } else {
      Linear(cell.w_hh, rows, h_in, cell.b_hh, gates, true);
    }
    for (int32_t r = 0; r < rows; ++r) {
      float* z = gates + static_cast<int64_t>(r) * 4 * H;
      const float* c = s_in + static_cast<int64_t>(r) * H;
      float* h_new = h_out + static_cast<int64_t>(r) * H;
      float* c_new = s_out + static_cast<int64_t>(r) * H;
      float* i_gate = z;
      float* f_gate = z + H;
      float* g_gate = z + 2 * H;
      float* o_gate = z + 3 * H;
      k.sigmoid_f32(2 * H, i_gate, i_gate);  // i and f are adjacent
      k.tanh_f32(H, g_gate, g_gate);
      k.sigmoid_f32(H, o_gate, o_gate);
      for (int32_t j = 0; j < H; ++j) c_new[j] = f_gate[j] * c[j] + i_gate[j] * g_gate[j];
      k.tanh_f32(H, c_new, h_new);
      for (int32_t j = 0; j < H; ++j) h_new[j] *= o_gate[j];
    }
    return;
  }
  // GRU needs W_hn h + b_hn apart from the input part (it is scaled by r).
  Linear(cell.w_hh, rows, h_in, cell.b_hh, cell.hidden_gates, false);
  for (int32_t r = 0; r < rows; ++r) {
    float* x = gates + static_cast<int64_t>(r) * 3 * H;
    const float* hg = cell.hidden_gates + static_cast<int64_t>(r) * 3 * H;
    const float* h = h_in + static_cast<int64_t>(r) * H;
    float* h_new = h_out + static_cast<int64_t>(r) * H;
    for (int32_t j = 0; j < 2 * H; ++j) x[j] += hg[j];
    k.sigmoid_f32(2 * H, x, x);  // r and z are adjacent
    const float* reset = x;
    const float* update = x + H;
    float* candidate = x + 2 * H;
    for (int32_t j = 0; j < H; ++j) candidate[j] += reset[j] * hg[2 * H + j];
    k.tanh_f32(H, candidate, candidate);
    // Element j of h is read before element j of h_new is written: h_out may alias h_in.
    for (int32_t j = 0; j < H; ++j) h_new[j] = (1.0f - update[j]) * candidate[j] + update[j] * h[j];
  }
}

void FloatRnnNumerics::BridgeHidden(int32_t n, const Acc* acc, Hidden* h, State* gru_state) const {
  (void)gru_state;  // the float GRU's state is h itself
  k_->tanh_f32(n, acc, h);
}

void FloatRnnNumerics::BridgeCellState(const CellWeights& cell, int32_t n, const Acc* acc,
                                       State* c) const {
  (void)cell;
  if (c != acc) memcpy(c, acc, sizeof(float) * static_cast<size_t>(n));
}

void FloatRnnNumerics::BridgeCellLinear(const Matrix& w, const CellWeights& fwd,
                                        const CellWeights* bwd, int32_t half, const State* final_c,
                                        const BiasT* bias, Acc* y) const {
  (void)fwd;
  (void)bwd;
  (void)half;
  Linear(w, 1, final_c, bias, y, false);
}

void FloatRnnNumerics::DotScores(int32_t rows, const Hidden* query, const Memory* memory, int32_t S,
                                 int32_t E, const int32_t* lo, const int32_t* hi,
                                 Acc* scores) const {
  (void)lo;
  (void)hi;
  // scores[r][s] = q_r . h̄_s: h̄ [S, E] is exactly an [out = S, in = E] weight matrix.
  k_->fully_connected_f32(rows, E, S, query, memory, nullptr, scores, false);
}

void FloatRnnNumerics::GeneralScores(int32_t rows, const Acc* projected_query, const Memory* memory,
                                     int32_t S, int32_t E, const int32_t* lo, const int32_t* hi,
                                     Acc* scores) const {
  DotScores(rows, projected_query, memory, S, E, lo, hi, scores);
}

void FloatRnnNumerics::LocalPWindow(Acc logit, int32_t S, int32_t D, Position* p, int32_t* lo,
                                    int32_t* hi) const {
  float sigma = 0.0f;
  k_->sigmoid_f32(1, &logit, &sigma);
  const float position = static_cast<float>(S) * sigma;
  *p = position;
  const float l = ceilf(position - static_cast<float>(D));
  const float h = floorf(position + static_cast<float>(D));
  *lo = l > 0.0f ? static_cast<int32_t>(l) : 0;
  *hi = h < static_cast<float>(S - 1) ? static_cast<int32_t>(h) : S - 1;
}

// Gaussian of local_p: exp(-(s - p)^2 / (2 sigma^2)), sigma = D / 2.
void FloatRnnNumerics::LocalPGaussian(int32_t lo, int32_t hi, Position p, int32_t D,
                                      Weight* weights) const {
  const float sigma = static_cast<float>(D) / 2.0f;
  const float two_sigma_sq = 2.0f * sigma * sigma;
  for (int32_t s = lo; s <= hi; ++s) {
    const float d = static_cast<float>(s) - p;
    weights[s - lo] *= expf(-(d * d) / two_sigma_sq);
  }
}

void FloatRnnNumerics::Context(int32_t n, const Weight* weights, const Memory* memory, int32_t E,
                               Hidden* context) const {
  memset(context, 0, sizeof(float) * static_cast<size_t>(E));
  for (int32_t s = 0; s < n; ++s) {
    const float w = weights[s];
    const float* h = memory + static_cast<int64_t>(s) * E;
    for (int32_t j = 0; j < E; ++j) context[j] += w * h[j];
  }
}

}  // namespace edgenmt
