"""`make bench`'s throughput rows (issue 24): `edgenmt eval --batch N --threads T` with the CLI's
default backend, the int8 peak of this core, and the machine-readable line

    batch_speedup=X threads_speedup=Y mac_efficiency=Z

  X  int8 greedy words/s at batch 32 / at batch 1 (the existing one-word-per-call row);
  Y  int8 greedy words/s at batch 32 on 2 threads / on 1 thread;
  Z  the batch-32 int8 greedy row's MACs per second / the measured int8 peak of one core.

Rows: every scheme, greedy and beam 5, at batch 8 and 32 (batch 1 is the existing row of the
default backend), and at batch 32 on 2 threads (threads 1 is the batch-32 row).

The peak: int8_peak.c, compiled for this CPU (-march=native): a loop of independent vpdpbusd
(AVX-512 VNNI), else vpmaddubsw + vpmaddwd (AVX2), else sdot (aarch64 dotprod), on one thread;
the best of 7 runs, measured before the passes and again after them (the higher counts).

MACs per word, from the model's own tensors (`edgenmt inspect`, as floor.py): every weight
matrix of r rows and c columns costs r * c multiply-accumulates per use; the encoder's
(weight_ih and weight_hh of every layer and direction) are used once per source character, the
bridge's once per word, the decoder's (LSTM cell, attention, attn_out, generator) once per
decoder step and live hypothesis. Embeddings are lookups and biases additions: not counted; the
attention's products with the encoder states (a window of a few positions) are left out too,
so the count is a little low, never high. For g2p-en greedy on the test words: about 13 M.
S (characters) and T (steps) are PyTorch float's counts on the same words (bench.py's floor);
beam 5 counts 5 live hypotheses at every step (an upper bound: finished ones drop out). A row
on T threads is compared with T cores' peak.
"""
import os
import subprocess

import floor
import peers
import report

BATCHES = (8, 32)
THREADS = 2
INT8_SCHEMES = ("int8", "int8-full")


def jobs(args, models, backend, schemes):
    """The throughput rows, for the CLI's default backend."""
    out = []
    settings = [(b, 1) for b in BATCHES] + [(BATCHES[-1], THREADS)]
    for scheme in schemes:
        if scheme not in models:
            continue
        for beam in (1, 5):
            for batch, threads in settings:
                cmd = [args.cli, "eval", "-m", models[scheme], "--data", args.data,
                       "--beam", str(beam), "--alpha", "0", "--beta", "0",
                       "--max-len", str(args.max_len), "--limit", str(args.words),
                       "--backend", backend, "--batch", str(batch), "--threads", str(threads)]
                decoding = ("greedy" if beam == 1 else "beam 5") + f", batch {batch}" + (
                    f", {threads} threads" if threads > 1 else "")
                out.append(peers.Job(f"edgenmt {backend}", scheme, decoding,
                                     lambda i, c=cmd: c, peers.read_edgenmt, scheme=scheme,
                                     beam=beam, backend=backend, edgenmt=True, batch=batch,
                                     threads=threads))
    return out


def measure_peak(work):
    """(MACs per second, the instruction) of int8_peak.c on one thread."""
    exe = floor.compile_tool(work, "int8_peak", ("-O3", "-march=native"))
    rate, isa = subprocess.run([exe], check=True, capture_output=True,
                               text=True).stdout.split(maxsplit=1)
    return float(rate), isa.strip()


def mac_classes(tensors):
    """MACs per source character, per word and per decoder step (one hypothesis)."""
    macs = {"once": 0, "per_char": 0, "per_step": 0}
    for name, shape, _, _ in tensors:
        if len(shape) != 2:
            continue   # biases and other vectors
        if name in ("src_embed.weight", "tgt_embed.weight"):
            continue   # lookups
        n = shape[0] * shape[1]
        if name.startswith("encoder."):
            macs["per_char"] += n
        elif name.startswith("bridge."):
            macs["once"] += n
        elif name.startswith(("decoder.", "attn.", "attn_out.", "generator.")):
            macs["per_step"] += n
        else:
            raise RuntimeError(f"batching: tensor {name} is not classified")
    return macs


def macs_per_word(macs, avg_src_len, avg_steps, beam):
    return macs["once"] + avg_src_len * macs["per_char"] + avg_steps * beam * macs["per_step"]


def annotate(rows, macs, stats, peak):
    """Adds each int8-scheme edgenmt row's MACs per word and fraction of the peak
    ("mac_eff": of `threads` cores' peak)."""
    for r in rows:
        if not r.get("job"):
            continue   # a "not available" peer
        info = r["job"].info
        if "wps" not in r or not info.get("edgenmt") or info["scheme"] not in INT8_SCHEMES:
            continue
        st = stats.get(info["beam"])
        if not st or info["scheme"] not in macs:
            continue
        r["macs"] = macs_per_word(macs[info["scheme"]], st["avg_src_len"], st["avg_steps"],
                                  info["beam"])
        r["mac_eff"] = r["wps"] * r["macs"] / (peak * info.get("threads", 1))


def _row(rows, backend, **want):
    r = report.find(rows, edgenmt=True, backend=backend, scheme="int8", beam=1, **want)
    return r if r and "wps" in r else None


def lines(rows, backend, peak, isa, macs, stats):
    """The description lines and the machine-readable line (last)."""
    out = [f"int8 peak of one core (int8_peak.c, {isa}, best of 7 runs before and after the "
           f"passes): {peak / 1e9:.1f} GMAC/s"]
    if 1 in stats and "int8" in macs:
        st = stats[1]
        m = macs["int8"]
        out.append(f"MACs per word (int8 weight matrices, batching.py): {m['once']} once + S * "
                   f"{m['per_char']} per char + T * {m['per_step']} per step and hypothesis = "
                   f"{macs_per_word(m, st['avg_src_len'], st['avg_steps'], 1) / 1e6:.2f} M per "
                   f"greedy word (S = {st['avg_src_len']:.2f}, T = {st['avg_steps']:.2f})")
    b1 = report.find(rows, edgenmt=True, backend=backend, scheme="int8", beam=1, batch=1,
                     threads=1)
    b1 = b1 if b1 and "wps" in b1 else None
    b32 = _row(rows, backend, batch=BATCHES[-1], threads=1)
    t2 = _row(rows, backend, batch=BATCHES[-1], threads=THREADS)
    x = f"{b32['wps'] / b1['wps']:.2f}" if b1 and b32 else "n/a"
    y = f"{t2['wps'] / b32['wps']:.2f}" if b32 and t2 else "n/a"
    z = f"{b32['mac_eff']:.3f}" if b32 and b32.get("mac_eff") is not None else "n/a"
    out.append(f"throughput: edgenmt {backend}, g2p-en.int8.enmt, greedy: batch 1 "
               f"{b1['wps'] if b1 else float('nan'):.1f}, batch {BATCHES[-1]} "
               f"{b32['wps'] if b32 else float('nan'):.1f}, batch {BATCHES[-1]} on {THREADS} "
               f"threads {t2['wps'] if t2 else float('nan'):.1f} words/s (medians)")
    out.append(f"batch_speedup={x} threads_speedup={y} mac_efficiency={z}")
    return out


def peak_again(work, peak):
    """The higher of the earlier peak and one measured now."""
    again, _ = measure_peak(work)
    return max(peak, again)


if __name__ == "__main__":
    print(measure_peak(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "build", "bench")))
