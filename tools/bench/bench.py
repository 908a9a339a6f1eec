#!/usr/bin/env python3
"""edgenmt against its peer, in one run: translation speed and memory on the shipped model.

    /usr/bin/python3 tools/bench/bench.py [--words 2000] [--data data/g2p/test.tsv]

Measures, on the same first N distinct words of the data file, single-threaded:
  * edgenmt (build/host/edgenmt eval) for every converted model found in build/models/
    (float32, int8, int8-full), greedy and beam 5: words/s, WER, the arena bytes the runtime
    planned, the model file bytes and the process's peak RSS;
  * the PyTorch float reference (converter/reference, torch on 1 thread): greedy one word at a
    time (what a device does), greedy batched (torch's best case), beam 5 one word at a time,
    with its peak RSS and the checkpoint bytes.
Prints one table. Figures are measured now, on this machine; nothing is cached.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_measured(cmd, env=None):
    """Runs cmd with os.wait4 to get the child's own peak RSS (KiB)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        pid = os.fork()
        if pid == 0:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            try:
                os.execvpe(cmd[0], cmd, env or os.environ)
            finally:
                os._exit(127)
        _, status, usage = os.wait4(pid, 0)
        out.seek(0)
        err.seek(0)
        o, e = out.read(), err.read()
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            sys.exit(f"bench: {' '.join(cmd)} failed ({code}):\n{e}")
        return o, e, usage.ru_maxrss


def edgenmt_row(cli, model, data, beam, limit):
    out, err, rss = run_measured([cli, "eval", "-m", model, "--data", data, "--beam", str(beam),
                                  "--limit", str(limit)])
    m = re.search(r"([0-9.]+) words/s .*arena (\d+) bytes, model (\d+) bytes", err)
    last = out.strip().splitlines()[-1]
    wer = re.search(r"WER=([0-9.]+)", last).group(1)
    return float(m.group(1)), int(m.group(2)), int(m.group(3)), rss, wer


PEER = r'''
import os, sys, time, torch
sys.path.insert(0, os.path.join(sys.argv[1], "converter", "reference"))
torch.set_num_threads(1)
from checkpoint import load_checkpoint, tokenize_source
from g2p_metrics import read_tsv, score
from search import DecodeOptions, batched_greedy, decode
model, sv, tv = load_checkpoint(sys.argv[2])
refs = read_tsv(sys.argv[3])
words = list(refs)[: int(sys.argv[4])]
refs = {w: refs[w] for w in words}
mode = sys.argv[5]
srcs = [sv.encode(tokenize_source(w, model.cfg.tokenizer)) for w in words]
with torch.no_grad():
    t0 = time.perf_counter()
    if mode == "greedy_batched":
        opts = DecodeOptions(beam=1, nbest=1, max_len=64).validate()
        hyps = batched_greedy(model, srcs, opts)
        out = {w: tv.decode(h.tokens) for w, h in zip(words, hyps)}
    else:
        beam = 1 if mode == "greedy" else 5
        opts = DecodeOptions(beam=beam, nbest=1, max_len=64).validate()
        out = {w: tv.decode(decode(model, s, opts)[0].tokens) for w, s in zip(words, srcs)}
    dt = time.perf_counter() - t0
r = score(out, refs)
print(f"{len(words) / dt:.1f} {r['wer']:.2f}")
'''


def peer_row(checkpoint, data, mode, limit):
    out, _, rss = run_measured(["/usr/bin/python3", "-c", PEER, ROOT, checkpoint, data, str(limit), mode])
    wps, wer = out.split()
    return float(wps), rss, wer


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--words", type=int, default=2000)
    ap.add_argument("--data", default=os.path.join(ROOT, "data/g2p/test.tsv"))
    ap.add_argument("--checkpoint", default=os.path.join(ROOT, "models/g2p-en"))
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/host/edgenmt"))
    ap.add_argument("--models", default=os.path.join(ROOT, "build/models"),
                    help="directory with g2p-en.{f32,int8,int8-full}.enmt")
    args = ap.parse_args()

    rows = []
    ckpt_bytes = os.path.getsize(os.path.join(args.checkpoint, "model.safetensors"))
    for name in ("f32", "int8", "int8-full"):
        model = os.path.join(args.models, f"g2p-en.{name}.enmt")
        if not os.path.exists(model):
            continue
        for beam in (1, 5):
            wps, arena, size, rss, wer = edgenmt_row(args.cli, model, args.data, beam, args.words)
            rows.append((f"edgenmt {name}", "greedy" if beam == 1 else "beam 5", wps, wer,
                         f"{size / 1024:.0f} KiB", f"{arena / 1024:.1f} KiB", f"{rss / 1024:.1f} MiB"))
    for mode, label in (("greedy", "greedy, 1 word/call"), ("greedy_batched", "greedy, batched"),
                        ("beam5", "beam 5, 1 word/call")):
        wps, rss, wer = peer_row(args.checkpoint, args.data, mode, args.words)
        rows.append(("PyTorch 1.13 reference", label, wps, wer, f"{ckpt_bytes / 1024:.0f} KiB",
                     "-", f"{rss / 1024:.1f} MiB"))

    header = ("runtime", "decoding", "words/s", "WER %", "model", "arena", "peak RSS")
    print(f"edgenmt benchmark: first {args.words} words of {os.path.relpath(args.data, ROOT)}, "
          f"1 thread, {os.uname().machine}")
    widths = [max(len(str(r[i])) if not isinstance(r[i], float) else 9 for r in rows + [header])
              for i in range(len(header))]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for r in rows:
        cells = [f"{c:.1f}" if isinstance(c, float) else str(c) for c in r]
        print("  ".join(c.ljust(w) for c, w in zip(cells, widths)))


if __name__ == "__main__":
    main()
