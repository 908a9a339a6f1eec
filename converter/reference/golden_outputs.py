#!/usr/bin/env python3
"""Word-by-word golden outputs of the float reference, and the check of a runtime against them.

    golden_outputs.py write   --model DIR --data TSV --beam K --out FILE
    golden_outputs.py compare --model DIR --golden FILE --outputs FILE --beam K
                              [--metrics METRICS_JSON --split test --search greedy] [--tie 1e-3]

`write` decodes every distinct word of TSV exactly as evaluate.py does (greedy: batched_greedy;
beam K: beam search, n-best 1, no penalties, max length 64) and writes one line per word,
in file order: ``word<TAB>output phonemes<TAB>score`` (score: the hypothesis' final score, a
natural-log probability here, printed with %.6f). The file is written to a temporary name and
renamed, so a failed run never leaves half of one. The shipped models keep theirs in
``models/<name>/outputs/test.{greedy,beam5}.tsv``, written by this command after training
(train.py writes metrics.json, not these).

`compare` takes a runtime's outputs in the same format (``edgenmt eval --outputs FILE``) and
compares them word by word with the golden file. Every difference is listed with both
outputs and their scores under the float reference (teacher-forced: the reference model scores
the runtime's output too), and must be a near-tie, i.e. a decision the float rounding of two
implementations may legitimately flip:
  * greedy: at the first step where the outputs part, the reference's log-probabilities of the
    two tokens (same prefix) differ by at most --tie;
  * beam K: the reference scores both complete outputs within --tie of each other, or the beam
    kept them apart at a step where two candidates tied within --tie (the first step where the
    outputs part, compared as for greedy).
Anything else fails. With --metrics, the golden file's own WER and PER must equal the metrics
file's (to 0.01): the golden outputs belong to the checkpoint they are stored with.
"""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

from checkpoint import load_checkpoint, tokenize_source  # noqa: E402
from g2p_metrics import read_tsv, score  # noqa: E402
from model import BOS, EOS  # noqa: E402
from search import DecodeOptions, batched_greedy, decode  # noqa: E402


def read_outputs(path):
    """word -> (output tokens, score) from a ``word<TAB>output<TAB>score`` file."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                sys.exit(f"{path}:{n}: expected word<TAB>output<TAB>score, got {line!r}")
            out[parts[0]] = (parts[1].split(), float(parts[2]))
    return out


@torch.no_grad()
def step_log_probs(model, src_ids, tgt_ids):
    """Teacher forcing: log p(y_t | y_<t, x) for each output token, then log p(</s> | y, x)."""
    model.eval()
    src = torch.tensor([list(src_ids)], dtype=torch.long)
    ctx, state = model.encode(src, torch.tensor([len(src_ids)]))
    prev = torch.tensor([BOS], dtype=torch.long)
    out = []
    for tok in list(tgt_ids) + [EOS]:
        lp, _, state = model.step(prev, state, ctx)
        out.append(lp[0])
        prev = torch.tensor([tok], dtype=torch.long)
    return out   # [len(tgt_ids) + 1] rows of [V] log-probs


def write(args):
    model, src_vocab, tgt_vocab = load_checkpoint(args.model)
    torch.set_num_threads(args.threads)
    words = list(read_tsv(args.data))
    opts = DecodeOptions(beam=args.beam, nbest=1, max_len=64).validate()
    sources = [src_vocab.encode(tokenize_source(w, model.cfg.tokenizer)) for w in words]
    if args.beam == 1:
        hyps = batched_greedy(model, sources, opts)
    else:
        model.eval()
        hyps = [decode(model, s, opts)[0] for s in sources]
    directory = os.path.dirname(os.path.abspath(args.out))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".golden-")
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)  # mkstemp's 0600 is for secrets, not golden files
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for w, h in zip(words, hyps):
                f.write(f"{w}\t{' '.join(tgt_vocab.decode(h.tokens))}\t{h.score:.6f}\n")
        os.replace(tmp, args.out)
    except BaseException:
        os.unlink(tmp)
        raise
    print(f"{args.out}: {len(words)} words, beam {args.beam}")


def first_split(a, b):
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


def explain(model, src_vocab, tgt_vocab, word, golden, runtime, beam, tie):
    """(is a near-tie, description) for one differing word."""
    src = src_vocab.encode(tokenize_source(word, model.cfg.tokenizer))
    g_ids, r_ids = tgt_vocab.encode(golden), tgt_vocab.encode(runtime)
    g_lp, r_lp = step_log_probs(model, src, g_ids), step_log_probs(model, src, r_ids)
    g_score = sum(float(row[t]) for row, t in zip(g_lp, g_ids + [EOS]))
    r_score = sum(float(row[t]) for row, t in zip(r_lp, r_ids + [EOS]))
    t = first_split(g_ids, r_ids)
    g_tok = g_ids[t] if t < len(g_ids) else EOS
    r_tok = r_ids[t] if t < len(r_ids) else EOS
    margin = abs(float(g_lp[t][g_tok]) - float(g_lp[t][r_tok]))   # same prefix: same row
    tied = margin <= tie or (beam > 1 and abs(g_score - r_score) <= tie)
    text = (f"{word}: reference '{' '.join(golden)}' (score {g_score:.6f}) vs runtime "
            f"'{' '.join(runtime)}' (score {r_score:.6f} under the reference); they part at "
            f"step {t}, where the two tokens' log-probs differ by {margin:.2e}")
    return tied, text


def compare(args):
    golden, runtime = read_outputs(args.golden), read_outputs(args.outputs)
    if list(golden) != list(runtime):
        sys.exit(f"compare: {args.outputs} does not list the words of {args.golden} in order "
                 f"({len(runtime)} vs {len(golden)} words)")
    failures = []
    if args.metrics:
        with open(args.metrics) as f:
            want = json.load(f)[args.split][args.search]
        refs = read_tsv(args.data)
        got = score({w: o for w, (o, _) in golden.items()}, refs)
        for name in ("wer", "per"):
            if abs(got[name] - want[name]) > 0.01 + 1e-9:
                failures.append(f"the golden file's {name.upper()} {got[name]:.2f} is not the "
                                f"metrics file's {want[name]:.2f}: regenerate it")
    differ = [w for w in golden if golden[w][0] != runtime[w][0]]
    model, src_vocab, tgt_vocab = load_checkpoint(args.model) if differ else (None, None, None)
    for w in differ:
        tied, text = explain(model, src_vocab, tgt_vocab, w, golden[w][0], runtime[w][0],
                             args.beam, args.tie)
        print(("near-tie: " if tied else "NOT a near-tie: ") + text)
        if not tied:
            failures.append(f"{w}: not a near-tie")
    same = len(golden) - len(differ)
    print(f"{same}/{len(golden)} outputs identical to the float reference's "
          f"({100.0 * same / len(golden):.2f} %), {len(differ)} differ"
          + (f", each a near-tie (<= {args.tie:g})" if differ and not failures else ""))
    if failures:
        sys.exit("FAIL: " + "; ".join(failures[:20]))
    print("OK: word by word as the float reference")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("--model", required=True)
    w.add_argument("--data", required=True)
    w.add_argument("--beam", type=int, default=1)
    w.add_argument("--out", required=True)
    w.add_argument("--threads", type=int, default=1)
    c = sub.add_parser("compare")
    c.add_argument("--model", required=True)
    c.add_argument("--golden", required=True)
    c.add_argument("--outputs", required=True)
    c.add_argument("--beam", type=int, default=1)
    c.add_argument("--tie", type=float, default=1e-3,
                   help="largest log-prob gap (nats) a difference may turn on")
    c.add_argument("--metrics")
    c.add_argument("--data")
    c.add_argument("--split", default="test")
    c.add_argument("--search", default="greedy")
    args = ap.parse_args()
    write(args) if args.command == "write" else compare(args)


if __name__ == "__main__":
    main()
