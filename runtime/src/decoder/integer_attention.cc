// The int8-full decoder's attention (docs/INT8.md "Attention"): window, scores of every type,
// softmax, local-p's Gaussian and the context, for the rows of one step.
#include <string.h>

#include "decoder/integer_decoder.h"
#include "edgenmt/fixed_point.h"
#include "kernels/kernels_s8.h"

namespace edgenmt {

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

}  // namespace edgenmt
