"""Beam search on hand-made step functions (docs/MODEL.md "Decoding")."""
import math
import unittest

import torch

import _path  # noqa: F401
from model import EOS
from search import (COVERAGE_FLOOR, DecodeOptions, beam_search, length_penalty, max_steps)

V = 6          # ids: 0 <pad>, 1 <unk>, 2 <s>, 3 </s>, 4 "a", 5 "b"
A, B = 4, 5
LOW = -100.0   # log-prob of every token a table does not mention


class TableStepper:
    """Log-probs (and optional attention rows) looked up by each live hypothesis' prefix.
    The state is the list of prefixes; step() extends them with the tokens just chosen."""

    def __init__(self, table, attention=None, source_len=3):
        self.table, self.attention = table, attention
        self.source_len, self.eos = source_len, EOS
        self.calls = 0

    def start(self):
        return None

    def step(self, prev, state):
        self.calls += 1
        prefixes = [()] if state is None else [p + (int(t),) for p, t in zip(state, prev)]
        lp = torch.full((len(prefixes), V), LOW)
        for r, prefix in enumerate(prefixes):
            for tok, v in self.table.get(prefix, {}).items():
                lp[r, tok] = v
        attn = None
        if self.attention is not None:
            attn = torch.tensor([self.attention[p] for p in prefixes], dtype=torch.float32)
        return lp, attn, prefixes

    def select(self, state, parents):
        return [state[int(b)] for b in parents]


def run(table, attention=None, source_len=3, **opts):
    stepper = TableStepper(table, attention, source_len)
    return beam_search(stepper, DecodeOptions(**opts)), stepper


class BeamTest(unittest.TestCase):
    def test_ties_prefer_earlier_parent_then_lower_id(self):
        table = {(): {A: -1.0, B: -1.0},              # tie at the root -> "a" (lower id) first
                 (A,): {B: -1.0},                      # both children score -2.0:
                 (B,): {A: -1.0},                      # parent "a" wins although its token is higher
                 (A, B): {EOS: 0.0}, (B, A): {EOS: 0.0}}
        hyps, _ = run(table, beam=2, nbest=2)
        self.assertEqual([h.tokens for h in hyps], [[A, B], [B, A]])
        self.assertEqual([h.score for h in hyps], [-2.0, -2.0])   # equal: F's order kept

    def test_greedy_ties_to_lowest_id(self):
        hyps, _ = run({(): {A: -1.0, B: -1.0}, (A,): {EOS: -0.5}}, beam=1)
        self.assertEqual(hyps[0].tokens, [A])
        self.assertEqual(hyps[0].score, -1.5)          # greedy score = log-prob

    def test_length_penalty_changes_the_winner(self):
        table = {(): {A: -1.0, B: -1.1, EOS: -10.0},
                 (A,): {EOS: -1.0},
                 (B,): {B: -0.6, EOS: -5.0},
                 (B, B): {EOS: -0.5}}
        # Step 2 keeps (b b) -1.7 and (a </s>) -2.0; then (b b </s>) -2.2 finishes.
        plain, _ = run(table, beam=2, nbest=2)
        self.assertEqual([h.tokens for h in plain], [[A], [B, B]])
        self.assertAlmostEqual(plain[0].score, -2.0, places=6)
        normed, _ = run(table, beam=2, nbest=2, alpha=1.0)
        self.assertEqual([h.tokens for h in normed], [[B, B], [A]])
        self.assertAlmostEqual(normed[0].score, -2.2 / (8.0 / 6.0), places=5)   # n = 2 + 1
        self.assertAlmostEqual(normed[1].score, -2.0 / (7.0 / 6.0), places=5)   # n = 1 + 1
        self.assertAlmostEqual(normed[0].logprob, -2.2, places=5)

    def test_shrinking_beam(self):
        # K = 3: the root's </s> finishes at once, so only 2 live hypotheses continue.
        table = {(): {EOS: -0.1, A: -1.0, B: -2.0},
                 (A,): {EOS: -0.1, A: -0.2}, (B,): {EOS: -0.1, B: -0.2},
                 (A, A): {EOS: -0.1}, (B, B): {EOS: -0.1}}
        hyps, stepper = run(table, beam=3, nbest=3)
        self.assertEqual([h.tokens for h in hyps], [[], [A], [A, A]])
        # Step 2 keeps 2 of {(a </s>) -1.1, (a a) -1.2, (b </s>) -2.1, (b b) -2.2}; step 3 keeps 1.
        self.assertEqual(stepper.calls, 3)
        self.assertAlmostEqual(hyps[2].logprob, -1.3, places=5)

    def test_early_stop(self):
        table = {(): {EOS: -0.5, A: -1.0}, (A,): {EOS: -0.1}}
        hyps, stepper = run(table, beam=2, nbest=1, max_len=10)
        # After step 1: F = [[] -0.5], best live -1.0 / lp(11) = -1.0 < -0.5 -> stop (alpha 0).
        self.assertEqual(stepper.calls, 1)
        self.assertEqual(hyps[0].tokens, [])
        # With alpha = 1 the bound is -1.0 / (16/6) = -0.375 > -0.5: the search goes on.
        hyps, stepper = run(table, beam=2, nbest=1, max_len=10, alpha=1.0)
        self.assertEqual(stepper.calls, 2)
        self.assertEqual(hyps[0].tokens, [])            # -0.5/1 beats -1.1/(7/6)
        self.assertAlmostEqual(hyps[0].score, -0.5 / (6.0 / 6.0), places=6)

    def test_min_len_blocks_eos(self):
        table = {(): {EOS: -0.1, A: -1.0}, (A,): {EOS: -0.1}}
        hyps, _ = run(table, beam=1, min_len=1)
        self.assertEqual(hyps[0].tokens, [A])
        self.assertAlmostEqual(hyps[0].logprob, -1.1, places=6)

    def test_forced_end_at_max_steps(self):
        table = {(): {A: -1.0}, (A,): {A: -1.0}, (A, A): {A: -1.0}}
        hyps, _ = run(table, beam=2, nbest=1, max_len=3, alpha=1.0)
        self.assertEqual(hyps[0].tokens, [A, A, A])
        self.assertFalse(hyps[0].ended)
        self.assertAlmostEqual(hyps[0].score, -3.0 / ((5.0 + 4.0) / 6.0), places=5)   # n = 3 + 1
        greedy, _ = run(table, beam=1, max_len=2)
        self.assertEqual(greedy[0].tokens, [A, A])
        self.assertEqual(greedy[0].score, -2.0)

    def test_coverage_penalty(self):
        table = {(): {A: -1.0, B: -1.5}, (A,): {EOS: -1.0}, (B,): {EOS: -0.1}}
        attention = {(): [0.5, 0.5, 0.0], (A,): [0.2, 0.7, 0.0], (B,): [0.6, 0.3, 0.1]}
        hyps, _ = run(table, attention, beam=2, nbest=2, beta=0.5)
        # a:  coverage [0.7, 1.2, 0.0] -> log 0.7 + log 1 + log(floor);  logprob -2.0
        # b:  coverage [1.1, 0.8, 0.1] -> log 1 + log 0.8 + log 0.1;       logprob -1.6
        cp_a = 0.5 * (math.log(0.7) + math.log(COVERAGE_FLOOR))
        cp_b = 0.5 * (math.log(0.8) + math.log(0.1))
        self.assertEqual([h.tokens for h in hyps], [[B], [A]])
        self.assertAlmostEqual(hyps[0].score, -1.6 + cp_b, places=5)
        self.assertAlmostEqual(hyps[1].score, -2.0 + cp_a, places=5)

    def test_max_steps_and_length_penalty(self):
        self.assertEqual(max_steps(DecodeOptions(max_len=50), 7), 50)
        self.assertEqual(max_steps(DecodeOptions(max_len=50, max_len_ratio=1.5), 7), 11)
        self.assertEqual(max_steps(DecodeOptions(max_len=10, max_len_ratio=1.5), 7), 10)
        self.assertEqual(max_steps(DecodeOptions(max_len=10, max_len_ratio=0.01), 7), 1)
        self.assertAlmostEqual(length_penalty(3, 0.6), (8.0 / 6.0) ** 0.6)
        self.assertEqual(length_penalty(3, 0.0), 1.0)


if __name__ == "__main__":
    unittest.main()
