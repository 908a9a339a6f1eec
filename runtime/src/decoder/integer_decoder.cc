// The int8-full decoder: session planning (Prepare), the encoder and bridge (Encode), one
// decoder step over the live rows (Step) and beam reordering. Attention: integer_attention.cc;
// weights and products: integer_ops.*.
#include "decoder/integer_decoder.h"

#include <string.h>

#include "edgenmt/fixed_point.h"
#include "edgenmt/tensor_layout.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {

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
