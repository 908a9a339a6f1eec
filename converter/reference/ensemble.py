#!/usr/bin/env python3
"""An ensemble of checkpoints that decodes as one model (a teacher for distillation).

    ensemble.py --model DIR[:WEIGHT] --model DIR[:WEIGHT] ... --data FILE.tsv [--mix prob|log]
                [--out OUT.tsv]

The checkpoints (RNN or Transformer, any mix) must share their vocabularies and tokenizer. At
each step the ensemble's log-probabilities are

  * ``--mix prob`` (the default): log Σ_i w_i p_i, the weighted mean of the members' probabilities
    (Freitag et al. 2017, "Ensemble Distillation for Neural Machine Translation");
  * ``--mix log``: Σ_i w_i log p_i renormalised, a product of experts,

with the weights normalised to sum to 1 (default: equal). ``Ensemble`` speaks the encode / step
protocol of ``model.Seq2Seq`` and ``transformer.Transformer``, so ``search.batched_greedy``,
``search.decode`` and ``evaluate.evaluate`` decode it unchanged. The command prints the greedy
WER and PER of FILE's distinct words, and with ``--out`` writes each of them, in file order, as
``word<TAB>1<TAB>logprob<TAB>hypothesis`` (the n-best format of ``edgenmt translate --nbest``, which
``seq_kd_targets.py --nbest`` reads: the ensemble as a distillation teacher), to a temporary name
renamed when complete.
"""
import argparse
import os
import sys
import time
from typing import List, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

from checkpoint import load_checkpoint, tokenize_source  # noqa: E402
from evaluate import format_result  # noqa: E402
from g2p_metrics import read_tsv, score  # noqa: E402
from search import DecodeOptions, batched_greedy  # noqa: E402
from seq_kd_targets import write_atomic  # noqa: E402


class EnsembleContext:
    """The members' encoder outputs, one per member; ``lengths`` as the members' contexts have."""

    def __init__(self, parts: List):
        self.parts = parts
        self.lengths = parts[0].lengths

    def index_select(self, idx: torch.Tensor) -> "EnsembleContext":
        return EnsembleContext([p.index_select(idx) for p in self.parts])


class EnsembleState:
    def __init__(self, parts: List):
        self.parts = parts

    def index_select(self, idx: torch.Tensor) -> "EnsembleState":
        return EnsembleState([p.index_select(idx) for p in self.parts])


class Ensemble(nn.Module):
    def __init__(self, models: Sequence[nn.Module], weights: Sequence[float], mix: str = "prob"):
        super().__init__()
        if not models or len(models) != len(weights):
            raise ValueError("an ensemble needs one weight per member, and at least one member")
        if any(w <= 0 for w in weights):
            raise ValueError(f"ensemble weights must be positive, got {list(weights)}")
        if mix not in ("prob", "log"):
            raise ValueError(f"mix must be prob or log, got {mix!r}")
        first = models[0].cfg
        for m in models[1:]:
            if (m.cfg.src_vocab_size, m.cfg.tgt_vocab_size, m.cfg.tokenizer) != (
                    first.src_vocab_size, first.tgt_vocab_size, first.tokenizer):
                raise ValueError("ensemble members disagree on vocabularies or tokenizer")
        self.members = nn.ModuleList(models)
        total = float(sum(weights))
        self.register_buffer("log_w", torch.tensor([w / total for w in weights]).log())
        self.mix = mix
        self.cfg = first

    def encode(self, src, src_len):
        ctxs, states = zip(*(m.encode(src, src_len) for m in self.members))
        return EnsembleContext(list(ctxs)), EnsembleState(list(states))

    def step(self, prev, state: EnsembleState, ctx: EnsembleContext):
        lps, new_states = [], []
        for m, s, c in zip(self.members, state.parts, ctx.parts):
            lp, _, s2 = m.step(prev, s, c)
            lps.append(lp.float())
            new_states.append(s2)
        stacked = torch.stack(lps)                           # [M, B, V]
        w = self.log_w.view(-1, 1, 1)
        if self.mix == "prob":
            out = torch.logsumexp(stacked + w, dim=0)
        else:
            out = torch.log_softmax((stacked * w.exp()).sum(0), dim=-1)
        return out, None, EnsembleState(new_states)


def load_ensemble(specs: Sequence[str], mix: str = "prob"):
    """specs: "DIR" or "DIR:WEIGHT". Returns (ensemble, src_vocab, tgt_vocab)."""
    models, weights, vocabs = [], [], None
    for spec in specs:
        path, _, w = spec.partition(":")
        model, src_vocab, tgt_vocab = load_checkpoint(path)
        if vocabs is None:
            vocabs = (src_vocab, tgt_vocab)
        elif (src_vocab.tokens, tgt_vocab.tokens) != (vocabs[0].tokens, vocabs[1].tokens):
            raise ValueError(f"{path}: its vocabularies differ from the first member's")
        models.append(model)
        weights.append(float(w) if w else 1.0)
    ens = Ensemble(models, weights, mix)
    ens.eval()
    return ens, vocabs[0], vocabs[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", action="append", required=True, metavar="DIR[:WEIGHT]")
    ap.add_argument("--data", required=True)
    ap.add_argument("--mix", choices=("prob", "log"), default="prob")
    ap.add_argument("--max-len", type=int, default=64)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    try:
        ens, src_vocab, tgt_vocab = load_ensemble(args.model, args.mix)
    except (OSError, ValueError) as e:
        sys.exit(f"ensemble.py: {e}")
    refs = read_tsv(args.data)
    t0 = time.time()
    words = list(refs)
    sources = [src_vocab.encode(tokenize_source(w, ens.cfg.tokenizer)) for w in words]
    with torch.no_grad():
        found = batched_greedy(ens, sources, DecodeOptions(beam=1, max_len=args.max_len).validate())
    print(f"decoded {len(words)} words in {time.time() - t0:.1f} s", file=sys.stderr)
    hyps = {w: tgt_vocab.decode(h.tokens) for w, h in zip(words, found)}
    if args.out:
        write_atomic(os.path.abspath(args.out),
                     "".join(f"{w}\t1\t{h.logprob:.6f}\t{' '.join(hyps[w])}\n"
                             for w, h in zip(words, found)))
    print(format_result(score(hyps, refs)))


if __name__ == "__main__":
    main()
