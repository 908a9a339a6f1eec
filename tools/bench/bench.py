#!/usr/bin/env python3
"""edgenmt against its peers, in one run: speed, memory and accuracy on the shipped model (and
on the Transformer, models/g2p-en-transformer, in a second table).

    /usr/bin/python3 tools/bench/bench.py [--words 2000] [--repeat 3] [--backends reference,...]

On the same first N distinct words of the data file, one word per call, one thread:
  * edgenmt (build/host/edgenmt eval) for every kernel backend in --backends (a backend the CLI
    rejects is shown as "not built") x every model in build/models (float32, int8, int8-full)
    x greedy and beam 5;
  * PyTorch 1.13 eager, float and dynamic int8 (torch_peer.py), greedy (a lean argmax loop)
    and beam 5;
  * ONNX Runtime 1.30 (onnxruntime-node), float and int8, greedy: the reference exported as an
    encoder graph and a decoder-step graph (export_onnx.py), the int8 graphs in ORT's dynamic
    quantization pattern (quantize_onnx.py), the greedy loop in ort_greedy.mjs;
  * throughput (batching.py): edgenmt with the CLI's default backend, every model, greedy and
    beam 5, at `--batch 8` and `--batch 32` (batch 1 is the row above), and at `--batch 32
    --threads 2` (threads 1 is the batch-32 row); the int8 peak of one core (int8_peak.c: a
    vpdpbusd / vpmaddubsw / sdot loop) and each int8-scheme row's fraction of it;
  * the Transformer (transformer_rows.py), its own table on the same words and passes: edgenmt
    on build/models/g2p-en-transformer.{f32,int8,int8-full}.enmt for every backend, greedy and beam 5;
    PyTorch float and dynamic int8, greedy and beam 5; ONNX Runtime float and int8 greedy over
    export_onnx_transformer.py's encoder and decoder-step graphs (the self-attention cache in
    and out). No checkpoint or no converted file: "not available" rows, not a failure.
Both peers run on one thread (OMP/MKL/OPENBLAS_NUM_THREADS=1 here, and each sets its own
library to one thread) and check it: a pass in which a second thread computed fails its row.

Each row is the median of --repeat passes (at least 3 for figures one reports), printed with
its spread (slowest-fastest pass). Every pass of every row is its own process, and the passes
are interleaved: pass 1 of every row, then pass 2 of every row, ..., so the drift of this
shared machine falls on all rows alike (the load average at start and end is printed). What
is set up once comes first: the models' weight classes, the read bandwidths, the ONNX export
and quantization, the words' source ids.

Per row: words/s, µs per word, the process's peak RSS, model bytes and WER; for edgenmt rows
also the weight-read floor and the efficiency = floor / time (floor.py; the read bandwidth of
each working set the model has, from bandwidth.c, is printed). Then, per float32 weight matrix,
the product's µs per call in each backend at 1 and 5 rows (edgenmt-kernel-bench: where
XNNPACK's packed product beats the SIMD one, which auto uses). Nothing is cached but the build
of bandwidth.c and the npm package (tools/bench/setup_node.sh, which `make bench` runs first).

A peer that cannot run here (no node, no python3-onnx) gets a "not available" row; an edgenmt
backend the CLI lacks a "not built" row, a scheme it lacks a "not supported" row; any other
failure a "FAILED" row, and the bench exits 1 after the table.

Machine-readable lines. Before the throughput lines, after the Transformer's table:
    transformer_speedup_vs_torch_float=X transformer_speedup_vs_torch_int8=Y
    transformer_speedup_vs_ort=Z transformer_speedup_vs_ort_int8=W   (one line)
(the default backend's int8 greedy Transformer median over each peer's greedy Transformer
median; n/a where a row is missing).

Two machine-readable lines end the output. Third from last (after the peak, the MACs per word
and the throughput rows it comes from):
    batch_speedup=X threads_speedup=Y mac_efficiency=Z
(X: int8 greedy words/s at batch 32 / batch 1; Y: at batch 32, 2 threads / 1 thread; Z: the
batch-32 int8 greedy MACs per second / the measured int8 peak of one core; batching.py). The
last line:
    speedup_vs_torch_float=X speedup_vs_torch_int8=Y speedup_vs_ort=Z speedup_vs_ort_int8=W
each the median int8 greedy words/s of ONE named row, the CLI's default backend (what `edgenmt
eval` runs without --backend) on g2p-en.int8.enmt (the hybrid scheme), over that peer's greedy
median (PyTorch float, PyTorch dynamic int8, ONNX Runtime float, ONNX Runtime int8). The line
before it names the row.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "converter", "reference"))
import batching  # noqa: E402
import bench_results  # noqa: E402
import floor  # noqa: E402
import peers  # noqa: E402
import report  # noqa: E402
import transformer_rows  # noqa: E402
from g2p_metrics import read_tsv  # noqa: E402  (pure Python: bench.py never loads torch)

BACKENDS = ("reference", "simd", "xnnpack", "auto")
SCHEMES = ("f32", "int8", "int8-full")
MIN_REPORTED_PASSES = 3


PEAK_RSS = None   # peak_rss.c, compiled by main() before any row runs


def run_measured(cmd):
    """Runs cmd; returns (stdout, stderr, peak RSS KiB of the command, exit code). The RSS comes
    from peak_rss.c, which forks the command itself: Linux keeps a high-water mark across exec,
    so a command forked from this Python process would report this process's size too."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err, \
            tempfile.NamedTemporaryFile("r") as rss:
        code = subprocess.run([PEAK_RSS, rss.name] + list(cmd), stdout=out, stderr=err).returncode
        out.seek(0)
        err.seek(0)
        peak = rss.read().strip()
        return out.read(), err.read(), int(peak) if peak else 0, code


def must(cmd):
    out, err, rss, code = run_measured(cmd)
    if code != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed ({code}):\n{err[-3000:]}")
    return out, err, rss


def run_pass(jobs, i):
    """Pass i of every row still running, in table order. A refusal stops the row; "not built"
    also stops the backend's other rows, "not supported" the scheme's other row."""
    for job in jobs:
        if job.refused:
            continue
        out, err, rss, code = run_measured(job.cmd(i))
        try:
            job.passes.append(job.read(out, err, code, i))
            job.rss.append(rss)
        except peers.Refused as refusal:
            job.refused = refusal
            if refusal.kind == "FAILED" or not job.info.get("edgenmt"):
                continue
            for other in jobs:
                same = other.info.get("edgenmt") and other.info["backend"] == job.info["backend"]
                if refusal.kind == "not supported":
                    same = (same and other.info["scheme"] == job.info["scheme"]
                            and transformer_rows.family(other) == transformer_rows.family(job))
                if same and other is not job and not other.refused:
                    other.refused, other.hidden = refusal, not other.passes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--words", type=int, default=2000)
    ap.add_argument("--data", default=os.path.join(ROOT, "data/g2p/test.tsv"))
    ap.add_argument("--checkpoint", default=os.path.join(ROOT, "models/g2p-en"))
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/host/edgenmt"))
    ap.add_argument("--models", default=os.path.join(ROOT, "build/models"),
                    help="directory with g2p-en.{f32,int8,int8-full}.enmt")
    ap.add_argument("--backends", default=",".join(BACKENDS),
                    help="edgenmt kernel backends to try, comma-separated (the CLI's default "
                    "backend is added when missing: the speedups come from it)")
    ap.add_argument("--kernel-bench", default=os.path.join(ROOT, "build/host/edgenmt-kernel-bench"))
    ap.add_argument("--node-dir", default=os.path.join(ROOT, "build/bench-node"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build/bench"),
                    help="scratch directory: exported graphs, per-pass JSON, bandwidth binary")
    ap.add_argument("--max-len", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=MIN_REPORTED_PASSES,
                    help="timed passes per row, interleaved across rows; the median is shown "
                    f"(at least {MIN_REPORTED_PASSES} for figures one reports)")
    ap.add_argument("--json", default=os.path.join(ROOT, "build/bench/bench.json"),
                    help="every row as JSON, with the date, CPU model and command")
    ap.add_argument("--chart", default="",
                    help="also draw the front page's chart (greedy words/s against the peers) "
                    "to this PNG (make bench: docs/bench-words-per-second.png)")
    transformer_rows.add_args(ap)
    args = ap.parse_args()
    args.backends = [b for b in args.backends.split(",") if b]
    args.repeat = max(1, args.repeat)
    os.makedirs(args.work, exist_ok=True)
    global PEAK_RSS
    PEAK_RSS = floor.compile_tool(args.work, "peak_rss")
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = "1"   # every child: the peers' libraries read these when they load
    load0 = os.getloadavg()

    # ---- set up once ----------------------------------------------------------------------
    models = {s: os.path.join(args.models, f"g2p-en.{s}.enmt") for s in SCHEMES
              if os.path.exists(os.path.join(args.models, f"g2p-en.{s}.enmt"))}
    tensors = {s: floor.inspect_tensors(args.cli, m) for s, m in models.items()}
    classes = {s: floor.weight_classes(t) for s, t in tensors.items()}
    macs = {s: batching.mac_classes(t) for s, t in tensors.items()}
    peak, peak_isa = batching.measure_peak(args.work)
    sizes = [v for c in classes.values() for v in c["sizes"].values()]
    bw = floor.bandwidths(args.work, sizes)
    backend, variant = (peers.default_backend(args, models["int8"]) if "int8" in models
                        else (None, "no g2p-en.int8.enmt"))
    refs_all = read_tsv(args.data)
    words = list(refs_all)[: args.words]
    refs = {w: refs_all[w] for w in words}
    sources = os.path.join(args.work, "sources.json")
    must([peers.PY, os.path.join(HERE, "torch_peer.py"), "--checkpoint", args.checkpoint,
          "--data", args.data, "--words", str(args.words), "--sources-only",
          "--sources-out", sources])
    ort_missing = peers.ort_missing(args)
    if not ort_missing:
        peers.setup_ort(args, must)
    tfm = transformer_rows.prepare(args, must, ort_missing)
    # The Transformer's default backend: the LSTM's, else (no g2p-en.int8.enmt) its own file's.
    tbackend, tvariant = ((backend, variant) if backend or "int8" not in tfm.enmt
                          else peers.default_backend(args, tfm.enmt["int8"]))
    for b in (backend, tbackend):
        if b and b not in args.backends:
            args.backends.append(b)

    jobs = peers.edgenmt_jobs(args, models, args.backends, SCHEMES) + peers.torch_jobs(args)
    if backend:
        jobs += batching.jobs(args, models, backend, SCHEMES)
    if not ort_missing:
        jobs += peers.ort_jobs(args, sources, words, refs)
    jobs += transformer_rows.jobs(tfm, args.backends, ort_missing, words, refs)

    # ---- the passes, interleaved ----------------------------------------------------------
    for i in range(args.repeat):
        print(f"bench: pass {i + 1}/{args.repeat}", file=sys.stderr, flush=True)
        run_pass(jobs, i)
    # Bandwidths once more after the passes: the higher of the two measurements counts (a
    # higher bandwidth only lowers the floor, which must stay a lower bound).
    bw = {s: max(g, bw[s]) for s, g in floor.bandwidths(args.work, sizes).items()}
    peak = batching.peak_again(args.work, peak)   # likewise: a higher peak only lowers Z

    # ---- report ---------------------------------------------------------------------------
    # The floor's S and T: PyTorch float's source lengths and step counts (the same words and
    # the same search as edgenmt's, so the same number of steps).
    lstm_jobs = [j for j in jobs if transformer_rows.family(j) == "rnn"]
    stats = {}
    for beam in (1, 5):
        r = report.find([dict(job=j) for j in lstm_jobs], peer="torch", quant="none", beam=beam)
        if r["job"].passes:
            stats[beam] = r["job"].passes[0]
    floors = {s: {b: floor.floor_us(c, bw, st["avg_src_len"], st["avg_steps"])
                  for b, st in stats.items()} for s, c in classes.items()}
    rows = [report.summarize(j, floors) for j in lstm_jobs if not j.hidden]
    tfm_rows = [report.summarize(j, {}) for j in jobs
                if transformer_rows.family(j) != "rnn" and not j.hidden]
    tfm_rows += transformer_rows.unavailable_rows(tfm, ort_missing)
    batching.annotate(rows, macs, stats, peak)
    if ort_missing:
        rows.append(dict(runtime=peers.ORT, model="-", decoding="not available", note=ort_missing))

    low = "" if args.repeat >= MIN_REPORTED_PASSES else (
        f" (fewer than {MIN_REPORTED_PASSES} passes: a quick look, not figures to report)")
    print(f"edgenmt benchmark: first {len(words)} distinct words of "
          f"{os.path.relpath(args.data, ROOT)}, one word per call, 1 thread (but the batch / "
          f"threads rows), median of "
          f"{args.repeat} interleaved pass(es) per row{low}, {os.uname().machine}, "
          f"load average {load0[0]:.2f} at start, {os.getloadavg()[0]:.2f} at end")
    print(report.fmt_table(rows))
    print()
    for r in rows:
        if r.get("note"):
            print(f"{r['runtime']}: {r['model']}: {r['decoding']}: {r['note']}")
    for line in report.identical_lines(rows, len(words)):
        print(line)
    print(report.thread_line(rows + tfm_rows))
    print(floor.bandwidth_line(classes, bw))
    if 1 in stats:
        st1, steps5 = stats[1], f"{stats[5]['avg_steps']:.2f}" if 5 in stats else "n/a"
        print(f"floor = once / bw(all weights) + S * per char / bw(one encoder direction's "
              f"weight_hh) + T * per step / bw(all decoder weights) (floor.py), S = "
              f"{st1['avg_src_len']:.2f} chars, T = {st1['avg_steps']:.2f} steps greedy / "
              f"{steps5} beam 5 (PyTorch float's counts on these words):")
        for s, c in classes.items():
            print(floor.describe(s, c, bw, st1["avg_src_len"], st1["avg_steps"]))
    else:
        print("floor: n/a (PyTorch float greedy failed: the floor needs its step counts)")
    line = report.overhead_line(rows)
    if line:
        print(line)
    # Where each backend's float32 product is fastest, per weight matrix (the measurement the
    # auto backend's choice between the SIMD product and XNNPACK's packed one comes from).
    if "f32" in models and os.path.exists(args.kernel_bench):
        kb = subprocess.run([args.kernel_bench, models["f32"], "--min-ms", "20"],
                            capture_output=True, text=True)
        print(kb.stdout.rstrip() if kb.returncode == 0 else
              f"kernel-bench: FAILED ({kb.stderr.strip()})")
    else:
        print(f"kernel-bench: {os.path.relpath(args.kernel_bench, ROOT)} not built")
    for line in transformer_rows.section(tfm, tfm_rows, tbackend, tvariant, len(words)):
        print(line)
    for line in batching.lines(rows, backend, peak, peak_isa, macs, stats):
        print(line)
    for line in report.speedup_lines(rows, backend, variant):
        print(line)
    info = bench_results.meta(args, len(words))
    bench_results.write_json(args.json, rows, tfm_rows, info)
    print(f"JSON: {os.path.relpath(args.json, ROOT)}")
    if args.chart:
        bench_results.write_chart(args.chart, rows, tfm_rows, backend, info)
        print(f"chart: {os.path.relpath(args.chart, ROOT)}")
    if any(r.get("failed") for r in rows + tfm_rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
