"""`make bench`'s Transformer rows (bench.py): models/g2p-en-transformer against its peers, on the
same words as the LSTM rows, in the same interleaved passes, printed as a second table.

  * edgenmt: `edgenmt eval` on build/models/g2p-en-transformer.{f32,int8,int8-full}.enmt
    (`make models` converts them once the checkpoint has its metrics.json), every backend of
    --backends, greedy and beam 5;
  * PyTorch 1.13 eager, float and dynamic int8 (torch_peer.py on the checkpoint: the same
    encode/step loop as for the LSTM), greedy and beam 5;
  * ONNX Runtime 1.30, float and int8, greedy: export_onnx_transformer.py's encoder graph
    (source -> every decoder layer's cross-attention keys and values) and decoder-step graph
    (the self-attention cache in and out), quantized by quantize_onnx.py, the greedy loop in
    ort_greedy.mjs ... transformer (ort_transformer.mjs).
Every row decodes at most --max-len tokens, capped at the model's max_tgt_len (its target
positions: 64 for the shipped model, as evaluate.py decodes).

The rows' jobs carry info family="transformer": bench.py keeps them out of the LSTM table, its
weight-read floor, MAC counts and speedups. No floor or int8-peak column here (floor.py and
batching.py count the LSTM's weight classes only).

What is missing is said, not failed: no checkpoint -> one "not available" row (and no other);
no converted file -> an edgenmt "not available" row, the peers still run; no node / onnx -> the
ONNX Runtime "not available" row. After the table: notes, each peer's outputs against PyTorch
float, ONNX Runtime's per-call overhead, the named row and the machine-readable line
    transformer_speedup_vs_torch_float=X transformer_speedup_vs_torch_int8=Y
    transformer_speedup_vs_ort=Z transformer_speedup_vs_ort_int8=W   (one line)
the default backend's int8 greedy median over each peer's greedy median (n/a where a row is
missing). bench.py prints all this before the throughput lines, so that its last three lines
stay where other tools read them.
"""
import argparse
import json
import os

import peers
import report

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NAME = "g2p-en-transformer"
SCHEMES = ("f32", "int8", "int8-full")
FAMILY = "transformer"
PEERS = (("torch_float", dict(peer="torch", quant="none", beam=1)),
         ("torch_int8", dict(peer="torch", quant="dynamic", beam=1)),
         ("ort", dict(peer="ort", quant="none")),
         ("ort_int8", dict(peer="ort", quant="int8")))


def family(row_or_job):
    job = row_or_job.get("job") if isinstance(row_or_job, dict) else row_or_job
    if job is None:
        return row_or_job.get("family", "rnn")
    return job.info.get("family", "rnn")


def show(path):
    """A path as the output names it: relative to the repository when inside it."""
    rel = os.path.relpath(os.path.abspath(path), ROOT)
    return path if rel.startswith("..") else rel


def add_args(ap):
    ap.add_argument("--transformer-checkpoint", default=os.path.join(ROOT, "models", NAME),
                    help=f"Transformer checkpoint directory; its converted files are "
                    f"{NAME}.{{f32,int8,int8-full}}.enmt in --models")


def prepare(args, must, ort_missing):
    """Set up once, before the passes: returns the Transformer's settings (a Namespace like
    args, with its own checkpoint, work directory and max_len) and its .enmt files."""
    t = argparse.Namespace(**vars(args))
    t.checkpoint, t.work = args.transformer_checkpoint, os.path.join(args.work, FAMILY)
    t.enmt = {s: os.path.join(args.models, f"{NAME}.{s}.enmt") for s in SCHEMES}
    t.enmt = {s: p for s, p in t.enmt.items() if os.path.exists(p)}
    t.missing, t.stale, t.cfg = None, [], {}
    weights = os.path.join(t.checkpoint, "model.safetensors")
    if not os.path.exists(weights):
        t.missing = f"{show(weights)} missing"
        return t
    with open(os.path.join(t.checkpoint, "config.json")) as f:
        t.cfg = json.load(f)
    t.max_len = min(args.max_len, t.cfg["max_tgt_len"])
    t.stale = [s for s, p in t.enmt.items() if os.path.getmtime(p) < os.path.getmtime(weights)]
    os.makedirs(t.work, exist_ok=True)
    t.sources = os.path.join(t.work, "sources.json")
    must([peers.PY, os.path.join(HERE, "torch_peer.py"), "--checkpoint", t.checkpoint,
          "--data", args.data, "--words", str(args.words), "--sources-only",
          "--sources-out", t.sources])
    if not ort_missing:
        f32_dir, int8_dir = (os.path.join(t.work, d) for _, d in peers.ORT_MODELS)
        must([peers.PY, os.path.join(HERE, "export_onnx_transformer.py"), "--checkpoint",
              t.checkpoint, "--out", f32_dir])
        must([peers.PY, os.path.join(HERE, "quantize_onnx.py"), "--src", f32_dir,
              "--out", int8_dir])
    return t


def jobs(t, backends, ort_missing, words, refs):
    """The rows' jobs, every one with info family="transformer"."""
    if t.missing:
        return []
    out = peers.edgenmt_jobs(t, t.enmt, backends, SCHEMES) + peers.torch_jobs(t)
    if not ort_missing:
        out += peers.ort_jobs(t, t.sources, words, refs, kind=FAMILY)
    for job in out:
        job.info["family"] = FAMILY
    return out


def unavailable_rows(t, ort_missing):
    """The "not available" rows (no job behind them)."""
    row = dict(family=FAMILY, decoding="not available", model="-")
    if t.missing:
        return [dict(row, runtime="all", note=t.missing)]
    rows = []
    absent = [s for s in SCHEMES if s not in t.enmt]
    if absent:
        files = ", ".join(f"{NAME}.{s}.enmt" for s in absent)
        rows.append(dict(row, runtime="edgenmt", note=f"{files} missing in {show(t.models)} "
                         "(make models converts them once the checkpoint has metrics.json)"))
    if ort_missing:
        rows.append(dict(row, runtime=peers.ORT, note=ort_missing))
    return rows


def speedup_lines(rows, backend, variant):
    """The named row and the machine-readable line, as report.speedup_lines for the LSTM."""
    ours = (report.find(rows, edgenmt=True, backend=backend, scheme="int8", beam=1, batch=1,
                        threads=1) if backend else None)
    if ours and "wps" in ours:
        first = (f"transformer speedups: edgenmt {backend} ({variant}), the default backend, "
                 f"{NAME}.int8.enmt (int8 hybrid), greedy, median {ours['wps']:.1f} words/s, "
                 "over each peer's greedy median")
    else:
        first = "transformer speedups: n/a (no default-backend int8 greedy Transformer row)"
    ratios = []
    for name, want in PEERS:
        p = report.find(rows, **want)
        ok = ours and "wps" in ours and p and "wps" in p
        ratios.append(f"transformer_speedup_vs_{name}="
                      + (f"{ours['wps'] / p['wps']:.2f}" if ok else "n/a"))
    return [first, " ".join(ratios)]


def section(t, rows, backend, variant, n_words):
    """The lines bench.py prints for the Transformer (rows: this family's rows only)."""
    if t.missing:
        head = f"Transformer ({NAME}): not available ({t.missing})"
    else:
        c = t.cfg
        head = (f"Transformer ({show(t.checkpoint)}: d_model {c['d_model']}, "
                f"{c['heads']} heads, {c['enc_layers']}+{c['dec_layers']} layers, ffn "
                f"{c['ffn']}, {c['norm']}-norm, {c['activation']}): the same {n_words} words "
                f"and passes, at most {t.max_len} tokens per word (max_tgt_len "
                f"{c['max_tgt_len']}); no floor or int8 peak columns")
    out = ["", head, report.fmt_table(rows) if rows else "(no rows)"]
    for r in rows:
        if r.get("note"):
            out.append(f"transformer: {r['runtime']}: {r['model']}: {r['decoding']}: {r['note']}")
    for s in t.stale:
        out.append(f"transformer: {NAME}.{s}.enmt is older than the checkpoint's weights "
                   "(training rewrote them after `make models`): its rows may differ from the "
                   "peers'")
    out += [f"transformer: {line}" for line in report.identical_lines(rows, n_words)]
    line = report.overhead_line(rows)
    if line:
        out.append(f"transformer: {line}")
    return out + speedup_lines(rows, backend, variant)
