"""Greedy and beam search exactly as MODEL.md "Decoding" specifies.

The search core (``beam_search``) talks to the model through a *stepper* so the tests can drive
it with hand-made step functions:
  * ``stepper.start()`` -> state for one live hypothesis (the <s> prefix),
  * ``stepper.step(prev_tokens [n] long, state)`` -> (log-probs [n, V] float32,
    attention [n, S] or None, new state),
  * ``stepper.select(state, parents [m] long)`` -> state of the kept hypotheses,
  * ``stepper.source_len`` (S) and ``stepper.eos``.

Scores: candidate ranking adds float32 log-probs (as the runtime does); final scores are
computed in double from those float32 cumulative log-probs.

Coverage floor: cp = β Σ_s log(clamp(Σ_t a_t(s), COVERAGE_FLOOR, 1)); the floor keeps cp finite
for local attention, whose weights are exactly zero outside the window (see MODEL.md).
"""
import dataclasses
import math
from typing import List, Optional, Sequence

import numpy as np
import torch

from model import BOS, EOS, PAD, Seq2Seq

COVERAGE_FLOOR = 1e-6


@dataclasses.dataclass
class DecodeOptions:
    beam: int = 1
    nbest: int = 1
    alpha: float = 0.0
    beta: float = 0.0
    min_len: int = 0
    max_len: int = 64
    max_len_ratio: float = 0.0

    def validate(self) -> "DecodeOptions":
        if not (self.beam >= 1 and 1 <= self.nbest <= self.beam and self.alpha >= 0
                and self.beta >= 0 and self.min_len >= 0 and self.max_len >= 1
                and self.max_len_ratio >= 0):
            raise ValueError(f"invalid decode options {self}")
        return self


@dataclasses.dataclass
class Hypothesis:
    tokens: List[int]         # output ids, without <s> and </s>
    logprob: float            # cumulative log-prob (float32 accumulation)
    score: float              # final score (greedy: = logprob)
    ended: bool               # True if </s> was emitted, False for a forced end at max_steps
    coverage: Optional[List[float]] = None   # Σ_t a_t(s) over the hypothesis' steps


def max_steps(opts: DecodeOptions, S: int) -> int:
    if opts.max_len_ratio == 0:
        return opts.max_len
    return min(opts.max_len, max(1, math.ceil(opts.max_len_ratio * S)))


def length_penalty(n: int, alpha: float) -> float:
    return ((5.0 + n) / 6.0) ** alpha


def coverage_penalty(coverage, beta: float) -> float:
    if beta == 0 or coverage is None:
        return 0.0
    cov = np.clip(np.asarray(coverage, dtype=np.float64), COVERAGE_FLOOR, 1.0)
    return beta * float(np.sum(np.log(cov)))


def final_score(logprob: float, n_tokens: int, coverage, opts: DecodeOptions) -> float:
    """logprob / lp(|Y| + 1) + cp(Y)."""
    return logprob / length_penalty(n_tokens + 1, opts.alpha) + coverage_penalty(coverage, opts.beta)


def beam_search(stepper, opts: DecodeOptions, stats: Optional[dict] = None) -> List[Hypothesis]:
    """Shrinking beam search; returns the n-best (N = opts.nbest), best first.
    With beam == 1 this is greedy search and each score is the plain log-prob.
    If ``stats`` is given, stats["margin"] is set to the smallest gap, over all steps, between
    the last kept candidate and the best dropped one (None if nothing was ever dropped): below
    float32 noise a different implementation may legitimately choose differently."""
    opts.validate()
    if stats is not None:
        stats["margin"] = None
    K, N = opts.beam, opts.nbest
    steps = max_steps(opts, stepper.source_len)
    greedy = K == 1
    state = stepper.start()
    live_tokens: List[List[int]] = [[]]
    live_lp = torch.zeros(1, dtype=torch.float32)
    live_cov: List[Optional[np.ndarray]] = [None]
    prev = torch.tensor([BOS], dtype=torch.long)
    finished: List[Hypothesis] = []

    def finish(tokens, lp, cov, ended):
        s = lp if greedy else final_score(lp, len(tokens), cov, opts)
        finished.append(Hypothesis(list(tokens), lp, s, ended,
                                   None if cov is None else cov.tolist()))

    for t in range(steps):
        logprobs, attn, state = stepper.step(prev, state)
        logprobs = logprobs.to(torch.float32).clone()
        if t < opts.min_len:
            logprobs[:, stepper.eos] = float("-inf")
        V = logprobs.size(1)
        cand = (live_lp.unsqueeze(1) + logprobs).reshape(-1)
        keep = K - len(finished)
        # Stable sort on the flat index b*V + v: ties -> earlier parent, then lower token id.
        ranked = np.argsort(-cand.numpy(), kind="stable")
        order = ranked[:keep]
        if stats is not None and 0 < keep < len(ranked):
            gap = float(cand[ranked[keep - 1]] - cand[ranked[keep]])
            if math.isfinite(gap):
                stats["margin"] = gap if stats.get("margin") is None else min(stats["margin"], gap)
        parents, new_tokens, new_lp, new_cov = [], [], [], []
        for flat in order.tolist():
            b, v = divmod(flat, V)
            lp = float(cand[flat])
            cov = None
            if attn is not None:
                row = attn[b].detach().to(torch.float64).numpy()
                cov = row.copy() if live_cov[b] is None else live_cov[b] + row
            if v == stepper.eos:
                finish(live_tokens[b], lp, cov, True)
            else:
                parents.append(b)
                new_tokens.append(live_tokens[b] + [v])
                new_lp.append(cand[flat])
                new_cov.append(cov)
        if not parents:
            break
        live_tokens, live_cov = new_tokens, new_cov
        live_lp = torch.stack(new_lp)
        parent_idx = torch.tensor(parents, dtype=torch.long)
        state = stepper.select(state, parent_idx)
        prev = torch.tensor([tk[-1] for tk in live_tokens], dtype=torch.long)
        if t == steps - 1:
            for tokens, lp, cov in zip(live_tokens, live_lp.tolist(), live_cov):
                finish(tokens, lp, cov, False)   # forced end: no log-prob, no token
            break
        if len(finished) >= N:
            nth = sorted((h.score for h in finished), reverse=True)[N - 1]
            best_live = float(live_lp.max())
            if best_live / length_penalty(steps + 1, 0.0 if greedy else opts.alpha) < nth:
                break
    ranked = sorted(finished, key=lambda h: -h.score)   # stable: ties keep F's order
    return ranked[:N]


class ModelStepper:
    """Adapts Seq2Seq to the stepper protocol for one source sentence."""

    def __init__(self, model: Seq2Seq, src_ids: Sequence[int]):
        self.model = model
        self.source_len = len(src_ids)
        self.eos = EOS
        src = torch.tensor([list(src_ids)], dtype=torch.long)
        with torch.no_grad():
            self.ctx, self.state0 = model.encode(src, torch.tensor([len(src_ids)]))

    def start(self):
        return (self.ctx, self.state0)

    def step(self, prev, state):
        ctx, dec = state
        if ctx.lengths.size(0) != prev.size(0):
            ctx = self.ctx.index_select(torch.zeros(prev.size(0), dtype=torch.long))
        with torch.no_grad():
            lp, a, dec = self.model.step(prev, dec, ctx)
        return lp, a, (ctx, dec)

    def select(self, state, parents):
        ctx, dec = state
        return (ctx.index_select(parents), dec.index_select(parents))


def decode(model: Seq2Seq, src_ids: Sequence[int], opts: DecodeOptions,
           stats: Optional[dict] = None) -> List[Hypothesis]:
    model.eval()
    return beam_search(ModelStepper(model, src_ids), opts, stats)


def greedy(model: Seq2Seq, src_ids: Sequence[int], opts: DecodeOptions) -> Hypothesis:
    o = dataclasses.replace(opts, beam=1, nbest=1)
    return decode(model, src_ids, o)[0]


@torch.no_grad()
def batched_greedy(model: Seq2Seq, sources: List[Sequence[int]], opts: DecodeOptions,
                   batch_size: int = 512) -> List[Hypothesis]:
    """Greedy decoding of many sources at once; identical results to ``greedy`` per source."""
    model.eval()
    device = next(model.parameters()).device   # train.py validates on a GPU when it has one
    results: List[Optional[Hypothesis]] = [None] * len(sources)
    order = sorted(range(len(sources)), key=lambda i: len(sources[i]))
    for start in range(0, len(order), batch_size):
        idx = order[start:start + batch_size]
        B = len(idx)
        S = max(len(sources[i]) for i in idx)
        src = torch.full((B, S), PAD, dtype=torch.long)
        for r, i in enumerate(idx):
            src[r, :len(sources[i])] = torch.tensor(sources[i], dtype=torch.long)
        lengths = torch.tensor([len(sources[i]) for i in idx], dtype=torch.long)
        ctx, state = model.encode(src.to(device), lengths.to(device))
        limits = [max_steps(opts, len(sources[i])) for i in idx]
        prev = torch.full((B,), BOS, dtype=torch.long, device=device)
        tokens = [[] for _ in range(B)]
        lp_sum = torch.zeros(B, dtype=torch.float32)
        done = [False] * B
        for t in range(max(limits)):
            lp, _, state = model.step(prev, state, ctx)
            if t < opts.min_len:
                lp[:, EOS] = float("-inf")
            best_lp, best = lp.max(dim=1)   # first maximal index: ties -> lowest id
            best_lp_host, best_host = best_lp.cpu(), best.cpu()   # one copy, not one per row
            for r in range(B):
                if done[r]:
                    continue
                lp_sum[r] = lp_sum[r] + best_lp_host[r]
                tok = int(best_host[r])
                if tok == EOS:
                    results[idx[r]] = Hypothesis(tokens[r], float(lp_sum[r]), float(lp_sum[r]), True)
                    done[r] = True
                    continue
                tokens[r].append(tok)
                if len(tokens[r]) == limits[r]:
                    results[idx[r]] = Hypothesis(tokens[r], float(lp_sum[r]), float(lp_sum[r]), False)
                    done[r] = True
            if all(done):
                break
            prev = best
    return results
