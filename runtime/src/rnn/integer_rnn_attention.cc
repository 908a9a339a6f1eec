// The RNN's attention arithmetic in the integer scheme (docs/INT8.md "Attention"): dot and
// general scores against the Q0.15 memory, local-p's position, window and Gaussian, the context.
#include "edgenmt/internal/fixed_point.h"
#include "rnn/integer_rnn_numerics.h"

namespace edgenmt {

// q . h̄_s with q s8 @ 2^-7 and h̄ Q0.15: the product has scale 2^-22 -> Q11.20: / 2^2.
void IntegerRnnNumerics::DotScores(int32_t rows, const Hidden* query, const Memory* memory,
                                   int32_t S, int32_t E, const int32_t* lo, const int32_t* hi,
                                   Acc* scores) const {
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* q = query + static_cast<int64_t>(r) * E;
    for (int32_t j = 0; j < E; ++j) query16_[j] = q[j];
    k_->score_window_s16(query16_, memory, E, lo[r], hi[r], -2,
                         scores + static_cast<int64_t>(r) * S);
  }
}

// W_a q in Q11.20 narrowed per step to int16 with a power-of-two scale 2^(k - 20) (never
// clips); the product with Q0.15 has scale 2^(k - 35) -> Q11.20: * 2^(k - 15).
void IntegerRnnNumerics::GeneralScores(int32_t rows, const Acc* projected_query,
                                       const Memory* memory, int32_t S, int32_t E,
                                       const int32_t* lo, const int32_t* hi, Acc* scores) const {
  for (int32_t r = 0; r < rows; ++r) {
    const int32_t* q = projected_query + static_cast<int64_t>(r) * E;
    const int32_t k = PowerOfTwoShift(E, q, 32767);
    for (int32_t j = 0; j < E; ++j) {
      query16_[j] = fxp::SaturateToInt16(fxp::RoundingDivideByPOT(q[j], k));
    }
    k_->score_window_s16(query16_, memory, E, lo[r], hi[r], k - 15,
                         scores + static_cast<int64_t>(r) * S);
  }
}

void IntegerRnnNumerics::LocalPWindow(Acc logit, int32_t S, int32_t D, Position* p, int32_t* lo,
                                      int32_t* hi) const {
  *p = k_->local_p_position_q16(logit, kAccIntBits, S);
  k_->local_p_window(*p, D, S, lo, hi);
}

void IntegerRnnNumerics::LocalPGaussian(int32_t lo, int32_t hi, Position p, int32_t D,
                                        Weight* weights) const {
  k_->local_p_gaussian_s16(lo, hi, p, D, weights);
}

// Q0.15 weights x Q0.15 states = 2^-30 -> s8 @ 2^-7 (exact bound: sum a <= 1).
void IntegerRnnNumerics::Context(int32_t n, const Weight* weights, const Memory* memory, int32_t E,
                                 Hidden* context) const {
  k_->context_s16_s8(n, weights, memory, E, context);
}

}  // namespace edgenmt
