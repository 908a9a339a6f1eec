#!/usr/bin/env python3
"""Score a G2P checkpoint on a TSV file (``word<TAB>PH ON ES``; alternates on repeated lines).

Usage: /usr/bin/python3 converter/reference/evaluate.py --model models/g2p-en --data data/g2p/test.tsv [--beam 5]

Each distinct word is decoded once (greedy, or beam search with ``--beam K``, n-best 1) from its
characters and compared with its reference pronunciations, in file order:
  * closest reference R* = the reference with minimal Levenshtein distance to the hypothesis
    over phoneme tokens (unit-cost insertion, deletion, substitution); ties -> first listed.
  * WER = 100 × (number of words whose hypothesis differs from R*, i.e. distance > 0) / words.
  * PER = 100 × (sum of distances to R*) / (sum of the lengths of the chosen R*).
Characters missing from src.vocab map to <unk>. The last line printed is exactly
``words=N WER=xx.xx PER=yy.yy`` (two decimals, rounded half-even as Python's format does).
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

from checkpoint import load_checkpoint, tokenize_source  # noqa: E402
from g2p_metrics import read_tsv, score  # noqa: E402
from search import DecodeOptions, batched_greedy, decode  # noqa: E402


def decode_words(model, src_vocab, tgt_vocab, words, opts: DecodeOptions, progress=False):
    """word -> hypothesis phonemes."""
    sources = [src_vocab.encode(tokenize_source(w, model.cfg.tokenizer)) for w in words]
    if opts.beam == 1:
        hyps = batched_greedy(model, sources, opts)
        return {w: tgt_vocab.decode(h.tokens) for w, h in zip(words, hyps)}
    out = {}
    it = words
    if progress:
        from tqdm import tqdm
        it = tqdm(words, desc=f"beam {opts.beam}", mininterval=10, file=sys.stderr)
    for w, src in zip(it, sources):
        out[w] = tgt_vocab.decode(decode(model, src, opts)[0].tokens)
    return out


def evaluate(model, src_vocab, tgt_vocab, refs, opts: DecodeOptions, progress=False):
    hyps = decode_words(model, src_vocab, tgt_vocab, list(refs), opts, progress)
    return score(hyps, refs)


def format_result(r) -> str:
    return f"words={r['words']} WER={r['wer']:.2f} PER={r['per']:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--beam", type=int, default=1)
    ap.add_argument("--alpha", type=float, default=0.0)
    ap.add_argument("--beta", type=float, default=0.0)
    ap.add_argument("--max-len", type=int, default=64)
    ap.add_argument("--without-stress", default="", metavar="TSV",
                    help="also score without stress: the hypotheses' stress digits removed, "
                         "against this stressless split (data/g2p/<split>.tsv); printed first")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (train.py scores metrics.json with one per worker)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    model, src_vocab, tgt_vocab = load_checkpoint(args.model)
    opts = DecodeOptions(beam=args.beam, nbest=1, alpha=args.alpha, beta=args.beta,
                         max_len=args.max_len).validate()
    t0 = time.time()
    refs = read_tsv(args.data)
    hyps = decode_words(model, src_vocab, tgt_vocab, list(refs), opts, progress=True)
    print(f"decoded in {time.time() - t0:.1f} s", file=sys.stderr)
    if args.without_stress:
        plain_refs = read_tsv(args.without_stress)
        plain = {w: [p.rstrip("012") for p in h] for w, h in hyps.items() if w in plain_refs}
        print("without stress: " + format_result(score(plain, {w: plain_refs[w] for w in plain})))
    print(format_result(score(hyps, refs)))


if __name__ == "__main__":
    main()
