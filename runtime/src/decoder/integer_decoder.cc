#include "decoder/integer_decoder.h"

#include <string.h>

#include "edgenmt/fixed_point.h"
#include "edgenmt/tensor_layout.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {
namespace {

constexpr uint32_t kOneBits = 0x3F800000u;        // 1.0f
constexpr uint32_t kQ20ScaleBits = 0x35800000u;   // 2^-20 (Q11.20 biases)
constexpr int32_t kAccIntBits = 11;               // Q11.20
constexpr int32_t kHiddenShiftOffset = -7;        // inputs that are s8 @ 2^-7
constexpr int32_t kGateIntBits = 3;               // Q3.12

uint32_t FloatBits(float f) {
  uint32_t bits = 0;
  memcpy(&bits, &f, sizeof(bits));
  return bits;
}

Status FindInt8PerRow(const Model& model, const char* name, int32_t rows, int32_t cols,
                      TensorView* view, ErrorDetail* detail) {
  if (model.FindTensor(name, view) != Status::kOk) {
    return detail->Fail(Status::kModelTensorMissing, "tensor ", name, " missing");
  }
  if (view->dtype != DType::kI8 || view->rank != 2 || view->shape[0] != rows ||
      view->shape[1] != cols || view->quant_axis != 0 || view->num_scales != rows ||
      view->zero_points != nullptr) {
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name,
                        " must be int8 per-row [", rows, ",", cols, "] for int8-full");
  }
  return Status::kOk;
}

bool RowIsZero(const int8_t* row, int32_t cols) {
  for (int32_t c = 0; c < cols; ++c) {
    if (row[c] != 0) return false;
  }
  return true;
}

// Per-row (multiplier, shift) of a * b * 2^pow2 / c where the row's scale is a (scale_is_a) or
// b. A factor too large for a multiplier (>= 2^30: one accumulator unit is then worth >= 1024
// in Q11.20, so any product beyond one unit saturates the accumulation format anyway) is
// clamped to the largest one, so finite weights of any magnitude run and saturate instead of
// being refused. Only a writable arena stores the values.
void DeriveMultipliers(const float* scales, int32_t rows, uint32_t a_bits, bool scale_is_a,
                       uint32_t c_bits, int pow2, Arena* arena, int32_t** multiplier_out,
                       int32_t** shift_out) {
  int32_t* multiplier = arena->AllocateArray<int32_t>(static_cast<size_t>(rows));
  int32_t* shift = arena->AllocateArray<int32_t>(static_cast<size_t>(rows));
  *multiplier_out = multiplier;
  *shift_out = shift;
  if (!arena->writable()) return;
  for (int32_t m = 0; m < rows; ++m) {
    const uint32_t row_bits = FloatBits(scales[m]);
    int sh = 0;
    // Model::Load checked every scale is finite and > 0, so false means "too large".
    if (!fxp::QuantizeMultiplierFromFloatBits(scale_is_a ? row_bits : a_bits,
                                              scale_is_a ? a_bits : row_bits, c_bits, pow2,
                                              &multiplier[m], &sh)) {
      multiplier[m] = fxp::kInt32Max;
      sh = 30;
    }
    shift[m] = sh;
  }
}

Status BindIntMatrix(const Model& model, const char* name, int32_t rows, int32_t cols,
                     uint32_t input_scale_bits, Arena* arena, IntMatrix* out,
                     ErrorDetail* detail) {
  TensorView view{};
  EDGENMT_RETURN_IF_ERROR(FindInt8PerRow(model, name, rows, cols, &view, detail));
  out->rows = rows;
  out->cols = cols;
  out->w = static_cast<const int8_t*>(view.data);
  DeriveMultipliers(view.scales, rows, input_scale_bits, false, kOneBits, 20, arena,
                    &out->multiplier, &out->shift);
  return Status::kOk;
}

Status BindBiasQ20(const Model& model, const char* name, int32_t size, const int32_t** out,
                   ErrorDetail* detail) {
  TensorView view{};
  if (model.FindTensor(name, &view) != Status::kOk) {
    return detail->Fail(Status::kModelTensorMissing, "tensor ", name, " missing");
  }
  if (view.dtype != DType::kI32 || view.rank != 1 || view.shape[0] != size ||
      view.num_scales != 1 || FloatBits(view.scales[0]) != kQ20ScaleBits) {
    return detail->Fail(Status::kModelTensorInvalid, "tensor ", name,
                        " must be int32 Q11.20 (scale 2^-20) [", size, "] for int8-full");
  }
  *out = static_cast<const int32_t*>(view.data);
  return Status::kOk;
}

// The shared scale is the largest scale among rows that hold a nonzero value: an all-zero row
// (nn.Embedding's padding_idx row) carries no information, and its stored scale must not
// become the shared one (it would cost every other row its precision).
Status BindIntEmbedding(const Model& model, const char* name, int32_t rows, int32_t cols,
                        Arena* arena, IntEmbedding* out, ErrorDetail* detail) {
  TensorView view{};
  EDGENMT_RETURN_IF_ERROR(FindInt8PerRow(model, name, rows, cols, &view, detail));
  out->rows = rows;
  out->cols = cols;
  out->table = static_cast<const int8_t*>(view.data);
  // Positive float32 values order like their bit patterns: the largest row scale, no FPU.
  uint32_t all_rows = 0, nonzero_rows = 0;
  for (int32_t r = 0; r < rows; ++r) {
    const uint32_t bits = FloatBits(view.scales[r]);
    all_rows = bits > all_rows ? bits : all_rows;
    if (!RowIsZero(out->table + static_cast<int64_t>(r) * cols, cols)) {
      nonzero_rows = bits > nonzero_rows ? bits : nonzero_rows;
    }
  }
  out->scale_bits = nonzero_rows != 0 ? nonzero_rows : all_rows;
  DeriveMultipliers(view.scales, rows, kOneBits, true, out->scale_bits, 0, arena,
                    &out->multiplier, &out->shift);
  return Status::kOk;
}

// y[r][0, out) = MBQM(x[r] . W[m][col0, col0 + in)) (+ bias) in Q11.20.
void Linear(const IntMatrix& m, int32_t rows, const int8_t* x, int32_t x_stride, int32_t col0,
            int32_t in, int32_t out, int32_t shift_offset, const int32_t* bias, int32_t* y,
            bool accumulate) {
  ref_fully_connected_s8_s32_strided(rows, in, out, x, x_stride, m.w + col0, m.cols,
                                     m.multiplier, m.shift, shift_offset, bias, y, accumulate);
}

// Products with embedding rows, which keep their own per-row scales (one shared scale would
// cost the small rows most of their 8 bits): acc = row . W[m] (int32), rescaled by the row's
// ratio s_row / s_shared with 6 extra bits, then by the matrix multiplier (built for s_shared).
void EmbeddingLinear(const IntMatrix& m, const IntEmbedding& e, int32_t rows, const int32_t* ids,
                     int32_t out, const int32_t* bias, int32_t* y) {
  constexpr int32_t kExtraBits = 6;
  for (int32_t r = 0; r < rows; ++r) {
    const int32_t id = ids[r];
    const int8_t* x = e.table + static_cast<int64_t>(id) * e.cols;
    int32_t* y_row = y + static_cast<int64_t>(r) * out;
    for (int32_t j = 0; j < out; ++j) {
      const int8_t* w = m.w + static_cast<int64_t>(j) * m.cols;
      int32_t acc = 0;
      for (int32_t k = 0; k < e.cols; ++k) acc += static_cast<int32_t>(x[k]) * w[k];
      const int32_t scaled = fxp::MultiplyByQuantizedMultiplierSingleRounding(
          acc, e.multiplier[id], e.shift[id] + kExtraBits);
      int32_t sh = m.shift[j] - kExtraBits;
      sh = sh < -31 ? -31 : sh;
      int32_t v = fxp::MultiplyByQuantizedMultiplier(scaled, m.multiplier[j], sh);
      if (bias != nullptr) v = fxp::SaturatingAdd(v, bias[j]);
      y_row[j] = v;
    }
  }
}

// Q11.20 -> Q3.12 -> tanh Q0.15 -> s8 @ 2^-7 (and the Q0.15 value when q15 is non-null).
void TanhToS8(int32_t n, const int32_t* q20, int16_t* scratch16, int8_t* out8, int16_t* q15) {
  ref_narrow_s32_s16(n, q20, 8, scratch16);
  ref_tanh_s16(n, scratch16, kGateIntBits, scratch16);
  if (q15 != nullptr) memcpy(q15, scratch16, sizeof(int16_t) * static_cast<size_t>(n));
  ref_requantize_s16_s8(n, scratch16, 8, out8);
}

// Smallest k >= 0 with round(max|v| / 2^k) <= 127: a power-of-two int8 scale chosen per call.
int32_t PowerOfTwoShiftForS8(int32_t n, const int32_t* v) {
  int64_t max_abs = 0;
  for (int32_t i = 0; i < n; ++i) {
    const int64_t a = v[i] < 0 ? -static_cast<int64_t>(v[i]) : v[i];
    max_abs = a > max_abs ? a : max_abs;
  }
  int32_t k = 0;
  while (k < 31 && fxp::RoundingDivideByPOT64(max_abs, k) > 127) ++k;
  return k;
}

}  // namespace

Status IntegerDecoder::PrepareCell(const Model& model, const char* prefix, const char* suffix,
                                   const char* format_name, int32_t input_size,
                                   uint32_t input_scale_bits, bool first_layer, Cell* cell,
                                   Arena* arena, ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  const bool decoder = strncmp(prefix, "decoder", 7) == 0;
  const int32_t H = decoder ? c.dec_hidden : c.enc_hidden;
  const int32_t G = GateCount(c.cell) * H;
  EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, NameBuilder(prefix, "weight_ih", suffix).c_str(),
                                        G, input_size, input_scale_bits, arena, &cell->w_ih,
                                        detail));
  // Decoder layer 0 with input feeding or bahdanau: the columns after the embedding (c_t,
  // h~, both s8 @ 2^-7) get their own multipliers (scale 1, shift offset -7).
  if (decoder && first_layer && (input_feeding_ || attention_ == AttentionType::kBahdanau)) {
    EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model,
                                          NameBuilder(prefix, "weight_ih", suffix).c_str(), G,
                                          input_size, kOneBits, arena, &cell->w_ih_hidden,
                                          detail));
  }
  EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, NameBuilder(prefix, "weight_hh", suffix).c_str(),
                                        G, H, kOneBits, arena, &cell->w_hh, detail));
  EDGENMT_RETURN_IF_ERROR(
      BindBiasQ20(model, NameBuilder(prefix, "bias_ih", suffix).c_str(), G, &cell->b_ih, detail));
  EDGENMT_RETURN_IF_ERROR(
      BindBiasQ20(model, NameBuilder(prefix, "bias_hh", suffix).c_str(), G, &cell->b_hh, detail));
  if (c.cell == CellType::kLstm) {
    EDGENMT_RETURN_IF_ERROR(model.FindActivationFormat(format_name, &cell->cell_int_bits) ==
                                    Status::kOk
                                ? Status::kOk
                                : detail->Fail(Status::kModelTensorMissing, "activation format ",
                                               format_name, " missing"));
  }
  return Status::kOk;
}

Status IntegerDecoder::Prepare(const Model& model, int32_t max_src_len, int32_t max_rows,
                               Arena* arena, ErrorDetail* detail) {
  const ModelConfig& c = model.config();
  lstm_ = c.cell == CellType::kLstm;
  hidden_ = c.dec_hidden;
  enc_hidden_ = c.enc_hidden;
  enc_layers_ = c.enc_layers;
  dec_layers_ = c.dec_layers;
  E_ = c.encoder_output_size();
  gates_ = GateCount(c.cell) * hidden_;
  enc_gates_ = GateCount(c.cell) * enc_hidden_;
  bidirectional_ = c.bidirectional;
  reverse_source_ = c.reverse_source;
  bridge_ = c.bridge;
  input_feeding_ = c.input_feeding;
  attention_ = c.attention;
  // Bahdanau always scores additively (its config says concat).
  score_ = c.attention == AttentionType::kBahdanau ? ScoreType::kConcat : c.score;
  attn_hidden_ = c.attn_hidden;
  window_ = c.window;
  vocab_ = c.tgt_vocab_size;
  src_embed_ = c.src_embed;
  tgt_embed_ = c.tgt_embed;
  max_rows_ = max_rows;
  max_src_len_ = max_src_len;
  if (enc_layers_ > kMaxRuntimeLayers || dec_layers_ > kMaxRuntimeLayers) {
    return detail->Fail(Status::kUnsupported, "enc_layers ", enc_layers_, " / dec_layers ",
                        dec_layers_, " out of range (this build supports up to ",
                        kMaxRuntimeLayers, ")");
  }
  if (attention_ != AttentionType::kNone && score_ == ScoreType::kDot && E_ != hidden_) {
    return detail->Fail(Status::kModelConfigInvalid, "dot score needs E == H");
  }
  if (score_ == ScoreType::kLocation && max_src_len > c.max_src_len) {
    return detail->Fail(Status::kLimitExceeded, "max_src_len exceeds the location score width");
  }

  EDGENMT_RETURN_IF_ERROR(BindIntEmbedding(model, "src_embed.weight", c.src_vocab_size,
                                           src_embed_, arena, &src_embedding_, detail));
  EDGENMT_RETURN_IF_ERROR(BindIntEmbedding(model, "tgt_embed.weight", vocab_, tgt_embed_, arena,
                                           &tgt_embedding_, detail));
  int32_t observer_index = 0;
  for (int32_t l = 0; l < enc_layers_; ++l) {
    enc_fwd_[l].observer_index = observer_index++;
    if (bidirectional_) enc_bwd_[l].observer_index = observer_index++;
  }
  for (int32_t l = 0; l < dec_layers_; ++l) dec_[l].observer_index = observer_index++;
  for (int32_t l = 0; l < enc_layers_; ++l) {
    const int32_t in = l == 0 ? src_embed_ : E_;
    const uint32_t scale = l == 0 ? src_embedding_.scale_bits : kOneBits;
    EDGENMT_RETURN_IF_ERROR(PrepareCell(model, "encoder.rnn.", NameBuilder("_l", l).c_str(),
                                        NameBuilder("encoder.rnn.l", l, ".cell").c_str(), in,
                                        scale, l == 0, &enc_fwd_[l], arena, detail));
    if (bidirectional_) {
      EDGENMT_RETURN_IF_ERROR(PrepareCell(
          model, "encoder.rnn.", NameBuilder("_l", l, "_reverse").c_str(),
          NameBuilder("encoder.rnn.l", l, "_reverse.cell").c_str(), in, scale, l == 0,
          &enc_bwd_[l], arena, detail));
    }
  }
  const int32_t dec_input = DecoderInputSize(c);
  for (int32_t l = 0; l < dec_layers_; ++l) {
    const int32_t in = l == 0 ? dec_input : hidden_;
    const uint32_t scale = l == 0 ? tgt_embedding_.scale_bits : kOneBits;
    EDGENMT_RETURN_IF_ERROR(PrepareCell(model, NameBuilder("decoder.layers.", l, ".").c_str(),
                                        "", NameBuilder("decoder.layers.", l, ".cell").c_str(),
                                        in, scale, l == 0, &dec_[l], arena, detail));
    if (bridge_) {
      EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, NameBuilder("bridge.", l, ".h.weight").c_str(),
                                            hidden_, E_, kOneBits, arena, &bridge_h_[l], detail));
      EDGENMT_RETURN_IF_ERROR(BindBiasQ20(model, NameBuilder("bridge.", l, ".h.bias").c_str(),
                                          hidden_, &bridge_h_b_[l], detail));
      if (lstm_) {
        EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model,
                                              NameBuilder("bridge.", l, ".c.weight").c_str(),
                                              hidden_, E_, kOneBits, arena, &bridge_c_[l],
                                              detail));
        EDGENMT_RETURN_IF_ERROR(BindBiasQ20(model, NameBuilder("bridge.", l, ".c.bias").c_str(),
                                            hidden_, &bridge_c_b_[l], detail));
      }
    }
  }
  const bool has_attention = attention_ != AttentionType::kNone;
  if (has_attention && score_ == ScoreType::kGeneral) {
    EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, "attn.linear_in.weight", E_, hidden_, kOneBits,
                                          arena, &linear_in_, detail));
  }
  if (has_attention && score_ == ScoreType::kLocation) {
    EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, "attn.location.weight", c.max_src_len, hidden_,
                                          kOneBits, arena, &location_, detail));
  }
  const bool additive = has_attention && score_ == ScoreType::kConcat;
  if (additive) {
    EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, "attn.query.weight", attn_hidden_, hidden_,
                                          kOneBits, arena, &query_w_, detail));
    EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, "attn.key.weight", attn_hidden_, E_, kOneBits,
                                          arena, &key_w_, detail));
    EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, "attn.v.weight", 1, attn_hidden_, kOneBits,
                                          arena, &v_, detail));
    if (attention_ == AttentionType::kBahdanau) {
      EDGENMT_RETURN_IF_ERROR(BindBiasQ20(model, "attn.key.bias", attn_hidden_, &key_b_, detail));
    }
  }
  if (attention_ == AttentionType::kLocalP) {
    EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, "attn.predict_w.weight", attn_hidden_, hidden_,
                                          kOneBits, arena, &predict_w_, detail));
    EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, "attn.predict_v.weight", 1, attn_hidden_,
                                          kOneBits, arena, &predict_v_, detail));
  }
  const int32_t context = has_attention ? E_ : 0;
  EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, "attn_out.weight", hidden_, context + hidden_,
                                        kOneBits, arena, &attn_out_, detail));
  EDGENMT_RETURN_IF_ERROR(BindIntMatrix(model, "generator.weight", vocab_, hidden_, kOneBits,
                                        arena, &generator_, detail));
  EDGENMT_RETURN_IF_ERROR(BindBiasQ20(model, "generator.bias", vocab_, &generator_b_, detail));

  const size_t S = static_cast<size_t>(max_src_len);
  const size_t R = static_cast<size_t>(max_rows);
  const size_t H = static_cast<size_t>(hidden_);
  const size_t E = static_cast<size_t>(E_);
  ids_ = arena->AllocateArray<int32_t>(S);
  embedded_ = arena->AllocateArray<int8_t>(S, static_cast<size_t>(src_embed_));
  layer_out_[0] = arena->AllocateArray<int8_t>(S, E);
  layer_out_[1] = enc_layers_ > 1 ? arena->AllocateArray<int8_t>(S, E) : nullptr;
  enc_gates_x_ = arena->AllocateArray<int32_t>(S, static_cast<size_t>(enc_gates_));
  enc_state_ = arena->AllocateArray<int16_t>(static_cast<size_t>(enc_hidden_));
  final_c_ = arena->AllocateArray<int16_t>(E);
  states16_ = arena->AllocateArray<int16_t>(S, E);
  query16_ = arena->AllocateArray<int16_t>(E);
  if (additive) {
    keys_ = arena->AllocateArray<int32_t>(S, static_cast<size_t>(attn_hidden_));
    query_proj_ = arena->AllocateArray<int32_t>(static_cast<size_t>(attn_hidden_));
  }
  final_h_ = arena->AllocateArray<int8_t>(E);
  final_c8_ = arena->AllocateArray<int8_t>(E);
  for (int32_t l = 0; l < dec_layers_; ++l) {
    h8_[l] = arena->AllocateArray<int8_t>(R, H);
    s16_[l] = arena->AllocateArray<int16_t>(R, H);
  }
  htilde_ = arena->AllocateArray<int8_t>(R, H);
  embed_rows_ = arena->AllocateArray<int8_t>(R, static_cast<size_t>(tgt_embed_));
  const size_t gate_width = static_cast<size_t>(gates_ > enc_gates_ ? gates_ : enc_gates_);
  gates_x_ = arena->AllocateArray<int32_t>(R, static_cast<size_t>(gates_));
  gates_h_ = arena->AllocateArray<int32_t>(gate_width);
  gates16_ = arena->AllocateArray<int16_t>(2, gate_width);
  size_t wide = E > H ? E : H;
  const size_t others[] = {static_cast<size_t>(attn_hidden_), static_cast<size_t>(vocab_),
                           static_cast<size_t>(c.max_src_len), S};
  for (size_t v : others) wide = v > wide ? v : wide;
  wide_ = arena->AllocateArray<int32_t>(wide);
  narrow_ = arena->AllocateArray<int16_t>(wide);
  query8_ = arena->AllocateArray<int8_t>(wide);
  scores_ = arena->AllocateArray<int32_t>(S);
  weights_ = arena->AllocateArray<int16_t>(S);
  concat_ = arena->AllocateArray<int8_t>(R, E + H);
  logprobs_ = arena->AllocateArray<int32_t>(static_cast<size_t>(vocab_));
  gather8_ = arena->AllocateArray<int8_t>(R, H);
  gather16_ = arena->AllocateArray<int16_t>(R, H);
  return Status::kOk;
}

void IntegerDecoder::Observe(const Cell& cell, const int16_t* state, int32_t n) {
  if (cell_observer_ == nullptr) return;
  int32_t& max_abs = cell_observer_[cell.observer_index];
  for (int32_t j = 0; j < n; ++j) {
    const int32_t a = state[j] < 0 ? -static_cast<int32_t>(state[j]) : state[j];
    max_abs = a > max_abs ? a : max_abs;
  }
}

void IntegerDecoder::CellStep(const Cell& cell, int32_t rows, int32_t* gates_x, int8_t* h8,
                              int32_t h_stride, int16_t* state16, int16_t* h16) {
  const int32_t H = cell.w_hh.cols;
  const int32_t G = cell.w_hh.rows;
  for (int32_t r = 0; r < rows; ++r) {
    int32_t* gx = gates_x + static_cast<int64_t>(r) * G;
    int8_t* h = h8 + static_cast<int64_t>(r) * h_stride;
    int16_t* state = state16 + static_cast<int64_t>(r) * H;
    if (lstm_) {
      // z = (W_ih x + b_ih) + (W_hh h + b_hh), summed in Q11.20, narrowed once to Q3.12.
      Linear(cell.w_hh, 1, h, H, 0, H, G, kHiddenShiftOffset, cell.b_hh, gx, true);
      ref_narrow_s32_s16(G, gx, 8, gates16_);
      ref_lstm_cell_s16(H, gates16_, cell.cell_int_bits, state, h,
                        h16 != nullptr ? h16 + static_cast<int64_t>(r) * h_stride : nullptr);
      Observe(cell, state, H);
    } else {
      Linear(cell.w_hh, 1, h, H, 0, H, G, kHiddenShiftOffset, cell.b_hh, gates_h_, false);
      ref_narrow_s32_s16(G, gx, 8, gates16_);
      ref_narrow_s32_s16(G, gates_h_, 8, gates16_ + G);
      ref_gru_cell_s16(H, gates16_, gates16_ + G, state, h);
      if (h16 != nullptr) {
        memcpy(h16 + static_cast<int64_t>(r) * h_stride, state, sizeof(int16_t) * static_cast<size_t>(H));
      }
    }
  }
}

void IntegerDecoder::Encode(const int32_t* src_ids, int32_t src_len) {
  src_len_ = src_len;
  const int32_t S = src_len;
  const int32_t H = enc_hidden_;
  for (int32_t s = 0; s < S; ++s) ids_[s] = reverse_source_ ? src_ids[S - 1 - s] : src_ids[s];
  const int8_t* input = embedded_;
  int32_t input_size = src_embed_;
  int8_t* output = nullptr;
  for (int32_t l = 0; l < enc_layers_; ++l) {
    output = layer_out_[l % 2];
    const int32_t offset = l == 0 ? 0 : kHiddenShiftOffset;
    for (int32_t dir = 0; dir < (bidirectional_ ? 2 : 1); ++dir) {
      const Cell& cell = dir == 0 ? enc_fwd_[l] : enc_bwd_[l];
      const int32_t column = dir == 0 ? 0 : H;
      if (l == 0) {
        EmbeddingLinear(cell.w_ih, src_embedding_, S, ids_, enc_gates_, cell.b_ih, enc_gates_x_);
      } else {
        Linear(cell.w_ih, S, input, input_size, 0, input_size, enc_gates_, offset, cell.b_ih,
               enc_gates_x_, false);
      }
      memset(enc_state_, 0, sizeof(int16_t) * static_cast<size_t>(H));
      for (int32_t i = 0; i < S; ++i) {
        const int32_t s = dir == 0 ? i : S - 1 - i;
        const int32_t prev = dir == 0 ? s - 1 : s + 1;
        int8_t* h = output + static_cast<int64_t>(s) * E_ + column;
        if (i == 0) {
          memset(h, 0, static_cast<size_t>(H));
        } else {
          memcpy(h, output + static_cast<int64_t>(prev) * E_ + column, static_cast<size_t>(H));
        }
        CellStep(cell, 1, enc_gates_x_ + static_cast<int64_t>(s) * enc_gates_, h, H, enc_state_,
                 states16_ + static_cast<int64_t>(s) * E_ + column);
      }
      if (lstm_ && l == enc_layers_ - 1) {
        memcpy(final_c_ + column, enc_state_, sizeof(int16_t) * static_cast<size_t>(H));
      }
    }
    input = output;
    input_size = E_;
  }
  states_ = output;
  if (keys_ != nullptr) {
    // Additive scores: W_k h̄_s (+ b_k) once per sentence, Q11.20.
    Linear(key_w_, S, states_, E_, 0, E_, attn_hidden_, kHiddenShiftOffset, key_b_, keys_, false);
  }
  // f_h = [h_fwd after s = S-1 ; h_bwd after s = 0].
  memcpy(final_h_, states_ + static_cast<int64_t>(S - 1) * E_, static_cast<size_t>(H));
  if (bidirectional_) memcpy(final_h_ + H, states_ + H, static_cast<size_t>(H));

  // Bridge: one row of decoder state.
  int32_t c_shift_offset = 0;
  if (bridge_ && lstm_) {
    // f_c halves are in their own cell formats: bring them to the wider one, then to int8 with
    // a power-of-two scale chosen for this sentence.
    const int32_t top = enc_layers_ - 1;
    const int32_t m_fwd = enc_fwd_[top].cell_int_bits;
    const int32_t m_bwd = bidirectional_ ? enc_bwd_[top].cell_int_bits : m_fwd;
    const int32_t m = m_fwd > m_bwd ? m_fwd : m_bwd;
    for (int32_t j = 0; j < E_; ++j) {
      const int32_t mj = j < H ? m_fwd : m_bwd;
      wide_[j] = fxp::RoundingDivideByPOT(final_c_[j], m - mj);  // Q(m).(15 - m)
    }
    const int32_t k = PowerOfTwoShiftForS8(E_, wide_);
    for (int32_t j = 0; j < E_; ++j) final_c8_[j] = fxp::SaturateToInt8(fxp::RoundingDivideByPOT(wide_[j], k));
    c_shift_offset = m - 15 + k;  // final_c8_ is s8 @ 2^(m - 15 + k)
  }
  for (int32_t l = 0; l < dec_layers_; ++l) {
    const size_t bytes = static_cast<size_t>(hidden_);
    if (!bridge_) {
      memset(h8_[l], 0, bytes);
      memset(s16_[l], 0, sizeof(int16_t) * bytes);
      continue;
    }
    Linear(bridge_h_[l], 1, final_h_, E_, 0, E_, hidden_, kHiddenShiftOffset, bridge_h_b_[l],
           wide_, false);
    // h0 = tanh(...): s8 for the products; GRU keeps the Q0.15 value as its state.
    TanhToS8(hidden_, wide_, narrow_, h8_[l], lstm_ ? nullptr : s16_[l]);
    if (lstm_) {
      Linear(bridge_c_[l], 1, final_c8_, E_, 0, E_, hidden_, c_shift_offset, bridge_c_b_[l],
             wide_, false);
      const int32_t m = dec_[l].cell_int_bits;
      ref_narrow_s32_s16(hidden_, wide_, 5 + m, s16_[l]);  // Q11.20 -> Q(m).(15 - m)
      Observe(dec_[l], s16_[l], hidden_);
    }
  }
  memset(htilde_, 0, static_cast<size_t>(hidden_));
}

void IntegerDecoder::Attend(int32_t rows, const int8_t* query, int32_t step,
                            float* attention_out) {
  const int32_t S = src_len_;
  const int32_t H = hidden_;
  const int32_t E = E_;
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* q = query + static_cast<int64_t>(r) * H;
    int32_t lo = 0, hi = S - 1, p_q16 = 0;
    if (attention_ == AttentionType::kLocalM) {
      const int32_t p = step < S - 1 ? step : S - 1;
      lo = p - window_ > 0 ? p - window_ : 0;
      hi = p + window_ < S - 1 ? p + window_ : S - 1;
    } else if (attention_ == AttentionType::kLocalP) {
      // p_t = S * sigmoid(v_p . tanh(W_p q)).
      Linear(predict_w_, 1, q, H, 0, H, attn_hidden_, kHiddenShiftOffset, nullptr, wide_, false);
      TanhToS8(attn_hidden_, wide_, narrow_, query8_, nullptr);
      int32_t logit = 0;
      Linear(predict_v_, 1, query8_, attn_hidden_, 0, attn_hidden_, 1, kHiddenShiftOffset,
             nullptr, &logit, false);
      p_q16 = ref_local_p_position_q16(logit, kAccIntBits, S);
      ref_local_p_window(p_q16, window_, S, &lo, &hi);
    }
    // Scores in Q11.20 over the window.
    switch (score_) {
      case ScoreType::kDot:
      case ScoreType::kGeneral: {
        // q . h̄_s with h̄ in Q0.15. dot: q is s8 @ 2^-7, product 2^-22 -> Q11.20: / 2^2.
        // general: W_a q in Q11.20 narrowed to int16 with a power-of-two scale 2^(k - 20)
        // chosen per step (never clips), product 2^(k - 35) -> Q11.20: * 2^(k - 15).
        int32_t k = 0;
        if (score_ == ScoreType::kGeneral) {
          Linear(linear_in_, 1, q, H, 0, H, E, kHiddenShiftOffset, nullptr, wide_, false);
          int64_t max_abs = 0;
          for (int32_t j = 0; j < E; ++j) {
            const int64_t a = wide_[j] < 0 ? -static_cast<int64_t>(wide_[j]) : wide_[j];
            max_abs = a > max_abs ? a : max_abs;
          }
          while (k < 31 && fxp::RoundingDivideByPOT64(max_abs, k) > 32767) ++k;
          for (int32_t j = 0; j < E; ++j) {
            query16_[j] = fxp::SaturateToInt16(fxp::RoundingDivideByPOT(wide_[j], k));
          }
        } else {
          for (int32_t j = 0; j < E; ++j) query16_[j] = q[j];
        }
        const int32_t to_q20 = score_ == ScoreType::kGeneral ? k - 15 : -2;
        for (int32_t s = lo; s <= hi; ++s) {
          const int16_t* h = states16_ + static_cast<int64_t>(s) * E;
          int64_t acc = 0;
          for (int32_t j = 0; j < E; ++j) acc += static_cast<int32_t>(query16_[j]) * h[j];
          scores_[s] = fxp::SaturateToInt32(to_q20 >= 0 ? acc * (int64_t{1} << to_q20)
                                                        : fxp::RoundingDivideByPOT64(acc, -to_q20));
        }
        break;
      }
      case ScoreType::kLocation:
        Linear(location_, 1, q, H, 0, H, S, kHiddenShiftOffset, nullptr, scores_, false);
        break;
      case ScoreType::kConcat:
        AdditiveScores(q, lo, hi);
        break;
    }
    const int32_t n = hi - lo + 1;
    ref_softmax_s32_s16(n, scores_ + lo, kAccIntBits, weights_);
    if (attention_ == AttentionType::kLocalP) ref_local_p_gaussian_s16(lo, hi, p_q16, window_, weights_);
    // c_t into the first E columns of this row's [c_t; h_t].
    int8_t* concat_row = concat_ + static_cast<int64_t>(r) * (E + H);
    // Q0.15 weights x Q0.15 states = 2^-30 -> s8 @ 2^-7.
    for (int32_t j = 0; j < E; ++j) {
      int64_t acc = 0;
      for (int32_t s = 0; s < n; ++s) {
        acc += static_cast<int32_t>(weights_[s]) * states16_[static_cast<int64_t>(lo + s) * E + j];
      }
      concat_row[j] = fxp::SaturateToInt8(static_cast<int32_t>(fxp::RoundingDivideByPOT64(acc, 23)));
    }
    if (attention_out != nullptr) {
      float* a = attention_out + static_cast<int64_t>(r) * S;
      for (int32_t s = 0; s < S; ++s) {
        a[s] = (s < lo || s > hi) ? 0.0f : static_cast<float>(weights_[s - lo]) * (1.0f / 32768.0f);
      }
    }
  }
}

// docs/INT8.md "Attention": the sum W_q q + keys_s in Q11.20 (saturating), narrowed to Q3.12,
// tanh to Q0.15, then s8 @ 2^-7 for the 1 x A product with v, which lands in Q11.20.
void IntegerDecoder::AdditiveScores(const int8_t* query, int32_t lo, int32_t hi) {
  const int32_t A = attn_hidden_;
  Linear(query_w_, 1, query, hidden_, 0, hidden_, A, kHiddenShiftOffset, nullptr, query_proj_,
         false);
  for (int32_t s = lo; s <= hi; ++s) {
    const int32_t* key = keys_ + static_cast<int64_t>(s) * A;
    for (int32_t j = 0; j < A; ++j) wide_[j] = fxp::SaturatingAdd(query_proj_[j], key[j]);
    TanhToS8(A, wide_, narrow_, query8_, nullptr);
    Linear(v_, 1, query8_, A, 0, A, 1, kHiddenShiftOffset, nullptr, scores_ + s, false);
  }
}

void IntegerDecoder::Step(const int32_t* prev_tokens, int32_t rows, int32_t step,
                          float* log_probs, float* attention) {
  const int32_t H = hidden_;
  const bool has_attention = attention_ != AttentionType::kNone;
  const bool bahdanau = attention_ == AttentionType::kBahdanau;
  const int32_t context = has_attention ? E_ : 0;
  // Bahdanau attends with the top layer's state before this step; c_t lands in concat_.
  if (bahdanau) Attend(rows, h8_[dec_layers_ - 1], step, attention);
  // Layer 0: [E_tgt[y] (s8 @ s_E); c_t (bahdanau); h~_{t-1} (input feeding)], the last two
  // s8 @ 2^-7, each part with its own multipliers.
  EmbeddingLinear(dec_[0].w_ih, tgt_embedding_, rows, prev_tokens, gates_, dec_[0].b_ih,
                  gates_x_);
  int32_t column = tgt_embed_;
  if (bahdanau) {
    Linear(dec_[0].w_ih_hidden, rows, concat_, context + H, column, E_, gates_,
           kHiddenShiftOffset, nullptr, gates_x_, true);
    column += E_;
  }
  if (input_feeding_) {
    Linear(dec_[0].w_ih_hidden, rows, htilde_, H, column, H, gates_, kHiddenShiftOffset,
           nullptr, gates_x_, true);
  }
  CellStep(dec_[0], rows, gates_x_, h8_[0], H, s16_[0]);
  for (int32_t l = 1; l < dec_layers_; ++l) {
    Linear(dec_[l].w_ih, rows, h8_[l - 1], H, 0, H, gates_, kHiddenShiftOffset, dec_[l].b_ih,
           gates_x_, false);
    CellStep(dec_[l], rows, gates_x_, h8_[l], H, s16_[l]);
  }
  const int8_t* top = h8_[dec_layers_ - 1];
  if (has_attention && !bahdanau) Attend(rows, top, step, attention);
  for (int32_t r = 0; r < rows; ++r) {
    int8_t* concat_row = concat_ + static_cast<int64_t>(r) * (context + H);
    memcpy(concat_row + context, top + static_cast<int64_t>(r) * H, static_cast<size_t>(H));
    // h~ = tanh(W_c [c_t; h_t]).
    Linear(attn_out_, 1, concat_row, context + H, 0, context + H, H, kHiddenShiftOffset, nullptr,
           wide_, false);
    TanhToS8(H, wide_, narrow_, htilde_ + static_cast<int64_t>(r) * H, nullptr);
    // Generator: logits in Q11.20, log-probs in Q15.16, handed to the search as float (exact).
    Linear(generator_, 1, htilde_ + static_cast<int64_t>(r) * H, H, 0, H, vocab_,
           kHiddenShiftOffset, generator_b_, wide_, false);
    ref_log_softmax_s32(vocab_, wide_, kAccIntBits, logprobs_);
    float* out = log_probs + static_cast<int64_t>(r) * vocab_;
    for (int32_t v = 0; v < vocab_; ++v) out[v] = static_cast<float>(logprobs_[v]) * (1.0f / 65536.0f);
  }
}

void IntegerDecoder::Reorder(const int32_t* parents, int32_t rows, int32_t new_rows) {
  (void)rows;
  const size_t H = static_cast<size_t>(hidden_);
  auto gather8 = [&](int8_t* buffer) {
    for (int32_t r = 0; r < new_rows; ++r) memcpy(gather8_ + r * H, buffer + parents[r] * H, H);
    memcpy(buffer, gather8_, H * static_cast<size_t>(new_rows));
  };
  auto gather16 = [&](int16_t* buffer) {
    for (int32_t r = 0; r < new_rows; ++r) {
      memcpy(gather16_ + r * H, buffer + parents[r] * H, H * sizeof(int16_t));
    }
    memcpy(buffer, gather16_, H * sizeof(int16_t) * static_cast<size_t>(new_rows));
  };
  for (int32_t l = 0; l < dec_layers_; ++l) {
    gather8(h8_[l]);
    gather16(s16_[l]);
  }
  gather8(htilde_);
}

}  // namespace edgenmt
