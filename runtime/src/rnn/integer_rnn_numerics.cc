// The RNN's binding and compute in the integer scheme (rnn/integer_rnn_numerics.h, docs/INT8.md
// "int8-full"). The arithmetic is the former integer decoder's, operation for operation, so
// results stay bit-identical.
#include "rnn/integer_rnn_numerics.h"

#include <string.h>

#include "edgenmt/internal/fixed_point.h"
#include "edgenmt/internal/tensor_layout.h"

namespace edgenmt {

Status IntegerRnnNumerics::Prepare(const Model& model, const KernelTable* kernels, int32_t max_rows,
                                   int32_t max_width, Arena* arena, ErrorDetail* detail,
                                   int32_t max_sources) {
  const KernelTable& k = *kernels;
  if (k.embedding_fully_connected_s8_s32 == nullptr || k.lstm_cell_s16 == nullptr ||
      k.gru_cell_s16 == nullptr || k.local_p_position_q16 == nullptr ||
      k.local_p_window == nullptr || k.local_p_gaussian_s16 == nullptr ||
      k.score_window_s16 == nullptr || k.context_s16_s8 == nullptr) {
    return detail->Fail(Status::kUnsupported, "kernel backend lacks an int8-full kernel");
  }
  EDGENMT_RETURN_IF_ERROR(
      IntegerNumerics::Prepare(model, kernels, max_rows, max_width, arena, detail, max_sources));
  const ModelConfig& c = model.config();
  const int32_t hidden = c.rnn.enc_hidden > c.rnn.dec_hidden ? c.rnn.enc_hidden : c.rnn.dec_hidden;
  const size_t gates = static_cast<size_t>(GateCount(c.rnn.cell)) * static_cast<size_t>(hidden);
  const size_t width = static_cast<size_t>(max_width);
  // Common scratch, only what this model's operations use: gate pre-activations (GRU keeps the
  // hidden part apart), the bridge's int8 f_c (LSTM), the int16 query of dot / general scores.
  const bool gru = c.rnn.cell == CellType::kGru;
  const bool attention = c.rnn.attention != AttentionType::kNone;
  const bool query_scores = attention && c.rnn.attention != AttentionType::kBahdanau &&
                            (c.rnn.score == ScoreType::kDot || c.rnn.score == ScoreType::kGeneral);
  gates16_ = arena->AllocateScratchArray<int16_t>(gru ? 2 : 1, gates);
  gates_h_ =
      gru ? arena->AllocateScratchArray<int32_t>(static_cast<size_t>(max_rows), gates) : nullptr;
  wide_ = arena->AllocateScratchArray<int32_t>(width);
  bytes_ = c.rnn.bridge && !gru ? arena->AllocateScratchArray<int8_t>(width) : nullptr;
  query16_ = query_scores ? arena->AllocateScratchArray<int16_t>(width) : nullptr;
  return Status::kOk;
}

Status IntegerRnnNumerics::BindCell(const Model& model, const CellBinding& b, int32_t max_rows,
                                    Arena* arena, CellWeights* out, ErrorDetail* detail) const {
  (void)max_rows;
  const int32_t G = GateCount(b.cell) * b.hidden_size;
  out->cell = b.cell;
  out->hidden = b.hidden_size;
  out->observer_index = b.observer_index;
  (void)arena;
  {  // scoped: the later names may reuse its stack slot (Init's stack budget)
    const NameBuilder w_ih = CellTensorName(b, "weight_ih");
    const uint32_t input_scale = b.embedding_columns > 0 ? b.embedding_scale_bits : kOneBits;
    EDGENMT_RETURN_IF_ERROR(
        BindIntMatrix(model, w_ih.c_str(), G, b.input_size, input_scale, &out->w_ih, detail));
    // Columns after the embedding (c_t, h̃: s8 @ 2^-7) get their own multipliers.
    if (b.embedding_columns > 0 && b.input_size > b.embedding_columns) {
      EDGENMT_RETURN_IF_ERROR(
          BindIntMatrix(model, w_ih.c_str(), G, b.input_size, kOneBits, &out->w_ih_hidden, detail));
    }
  }
  EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, CellTensorName(b, "weight_hh").c_str(), G,
                                        b.hidden_size, kOneBits, &out->w_hh, detail));
  EDGENMT_RETURN_IF_ERROR(
      BindBiasQ20(model, CellTensorName(b, "bias_ih").c_str(), G, &out->b_ih, detail));
  EDGENMT_RETURN_IF_ERROR(
      BindBiasQ20(model, CellTensorName(b, "bias_hh").c_str(), G, &out->b_hh, detail));
  if (b.cell == CellType::kLstm && model.FindActivationFormat(CellStateFormatName(b).c_str(),
                                                              &out->cell_int_bits) != Status::kOk) {
    return detail->Fail(Status::kModelTensorMissing, "activation format ",
                        CellStateFormatName(b).c_str(), " missing");
  }
  return Status::kOk;
}

// Each part has its own scale, so each is its own product into the Q11.20 gates (summed with
// saturation): [E[ids] (s8 @ row scale); c_t; h̃_{t-1}] (both s8 @ 2^-7).
void IntegerRnnNumerics::InputLinear(const CellWeights& cell, const Embedding& embedding,
                                     int32_t rows, const int32_t* ids, const Hidden* context,
                                     int32_t context_size, const Hidden* htilde,
                                     int32_t htilde_size, Acc* gates, Hidden* scratch) const {
  (void)scratch;
  const IntMatrix& w = cell.w_ih;
  k_->embedding_fully_connected_s8_s32(rows, ids, embedding.table, embedding.multiplier,
                                       embedding.shift, embedding.cols, w.rows, w.w, w.cols,
                                       w.multiplier, w.shift, cell.b_ih, gates);
  int32_t column = embedding.cols;
  const Hidden* parts[2] = {context, htilde};
  const int32_t sizes[2] = {context_size, htilde_size};
  const IntMatrix& wh = cell.w_ih_hidden;
  for (int32_t p = 0; p < 2; ++p) {
    if (parts[p] == nullptr) continue;
    k_->fully_connected_s8_s32(rows, sizes[p], w.rows, parts[p], sizes[p], wh.w + column, wh.cols,
                               wh.multiplier, wh.shift, kHiddenShiftOffset, nullptr, gates, true);
    column += sizes[p];
  }
}

void IntegerRnnNumerics::Observe(const CellWeights& cell, const int16_t* state, int32_t n) const {
  if (cell_observer_ == nullptr) return;
  int32_t& max_abs = cell_observer_[cell.observer_index];
  for (int32_t j = 0; j < n; ++j) {
    const int32_t a = state[j] < 0 ? -static_cast<int32_t>(state[j]) : state[j];
    max_abs = a > max_abs ? a : max_abs;
  }
}

void IntegerRnnNumerics::CellStep(const CellWeights& cell, int32_t rows, Acc* gates,
                                  const Hidden* h_in, const State* s_in, Hidden* h_out,
                                  State* s_out, Memory* memory_out) const {
  const KernelTable& k = *k_;
  const int32_t H = cell.hidden;
  const int32_t G = cell.w_hh.rows;
  const IntMatrix& w = cell.w_hh;
  const bool lstm = cell.cell == CellType::kLstm;
  // W_hh h over all rows in one product (reads every h_in row before any h_out is written):
  // LSTM sums it into the input gates in Q11.20, GRU keeps it apart (r scales its n part).
  k.fully_connected_s8_s32(rows, H, G, h_in, H, w.w, w.cols, w.multiplier, w.shift,
                           kHiddenShiftOffset, cell.b_hh, lstm ? gates : gates_h_, lstm);
  for (int32_t r = 0; r < rows; ++r) {
    int32_t* gx = gates + static_cast<int64_t>(r) * G;
    int8_t* h = h_out + static_cast<int64_t>(r) * H;
    int16_t* state = s_out + static_cast<int64_t>(r) * H;
    if (s_out != s_in) {
      memcpy(state, s_in + static_cast<int64_t>(r) * H, sizeof(int16_t) * static_cast<size_t>(H));
    }
    int16_t* memory = memory_out != nullptr ? memory_out + static_cast<int64_t>(r) * H : nullptr;
    if (lstm) {
      // z = (W_ih x + b_ih) + (W_hh h + b_hh), summed in Q11.20, narrowed once to Q3.12.
      k.narrow_s32_s16(G, gx, 8, gates16_);
      k.lstm_cell_s16(H, gates16_, cell.cell_int_bits, state, h, memory);
      Observe(cell, state, H);
    } else {
      k.narrow_s32_s16(G, gx, 8, gates16_);
      k.narrow_s32_s16(G, gates_h_ + static_cast<int64_t>(r) * G, 8, gates16_ + G);
      k.gru_cell_s16(H, gates16_, gates16_ + G, state, h);
      if (memory != nullptr) memcpy(memory, state, sizeof(int16_t) * static_cast<size_t>(H));
    }
  }
}

void IntegerRnnNumerics::BridgeHidden(int32_t n, const Acc* acc, Hidden* h,
                                      State* gru_state) const {
  // h0 = tanh(...): s8 for the products; GRU keeps the Q0.15 value as its state.
  k_->narrow_s32_s16(n, acc, 8, narrow_);
  k_->tanh_s16(n, narrow_, kGateIntBits, narrow_);
  if (gru_state != nullptr) memcpy(gru_state, narrow_, sizeof(int16_t) * static_cast<size_t>(n));
  k_->requantize_s16_s8(n, narrow_, 8, h);
}

void IntegerRnnNumerics::BridgeCellState(const CellWeights& cell, int32_t n, const Acc* acc,
                                         State* c) const {
  k_->narrow_s32_s16(n, acc, 5 + cell.cell_int_bits, c);  // Q11.20 -> Q(m).(15 - m)
  Observe(cell, c, n);
}

// f_c's halves are in their own cell formats: bring them to the wider one, then to int8 with a
// power-of-two scale chosen for this sentence, folded into the product's shift.
void IntegerRnnNumerics::BridgeCellLinear(const Matrix& w, const CellWeights& fwd,
                                          const CellWeights* bwd, int32_t half,
                                          const State* final_c, const BiasT* bias, Acc* y) const {
  const int32_t E = w.cols;
  const int32_t m_fwd = fwd.cell_int_bits;
  const int32_t m_bwd = bwd != nullptr ? bwd->cell_int_bits : m_fwd;
  const int32_t m = m_fwd > m_bwd ? m_fwd : m_bwd;
  for (int32_t j = 0; j < E; ++j) {
    const int32_t mj = j < half ? m_fwd : m_bwd;
    wide_[j] = fxp::RoundingDivideByPOT(final_c[j], m - mj);  // Q(m).(15 - m)
  }
  const int32_t shift = PowerOfTwoShift(E, wide_, 127);
  for (int32_t j = 0; j < E; ++j) {
    bytes_[j] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(wide_[j], shift));
  }
  // bytes_ is s8 @ 2^(m - 15 + shift).
  k_->fully_connected_s8_s32(1, E, w.rows, bytes_, E, w.w, w.cols, w.multiplier, w.shift,
                             m - 15 + shift, bias, y, false);
}

}  // namespace edgenmt
