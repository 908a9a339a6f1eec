#!/usr/bin/env python3
"""edgenmt against its peers, in one run: speed, memory and accuracy on the shipped model.

    /usr/bin/python3 tools/bench/bench.py [--words 2000] [--repeat 1] [--backends reference,...]

On the same first N distinct words of the data file, one word per call, one thread:
  * edgenmt (build/host/edgenmt eval) for every kernel backend in --backends (a backend the CLI
    rejects is shown as "not built") x every model in build/models (float32, int8, int8-full)
    x greedy and beam 5;
  * PyTorch 1.13 eager, float and dynamic int8 (torch_peer.py), greedy and beam 5;
  * ONNX Runtime 1.30 (onnxruntime-node), float and int8, greedy: the reference exported as an
    encoder graph and a decoder-step graph (export_onnx.py), the int8 graphs in ORT's dynamic
    quantization pattern (quantize_onnx.py), the greedy loop in ort_greedy.mjs.
Then, per float32 weight matrix, the product's µs per call in each backend at 1 and 5 rows
(edgenmt-kernel-bench: where XNNPACK's packed product beats the SIMD one, which auto uses).
Per row: words/s, µs per word, the process's peak RSS, model bytes and WER; for edgenmt rows
also the weight-read floor and the efficiency floor / time (floor.py, bandwidth.c). Every
figure is measured now, each row in its own process; nothing is cached but the build of
bandwidth.c and the npm package (tools/bench/setup_node.sh, which `make bench` runs first).
With --repeat N each row shows its fastest of N timed passes (this machine is shared and
noisy; the load average at start and end is printed). A peer that cannot run here (no node,
no python3-onnx) gets a "not available" row; an edgenmt row that fails for another reason than
the backend gets a "FAILED" row and the bench exits 1 after the table.
The last line is machine-readable: speedup_vs_torch_float=X speedup_vs_torch_int8=Y
speedup_vs_ort=Z, edgenmt's fastest int8 greedy words/s (either int8 scheme, any backend)
over each peer's greedy words/s.
"""
import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "converter", "reference"))
import floor  # noqa: E402
from g2p_metrics import read_tsv, score  # noqa: E402  (pure Python: bench.py never loads torch)

PY = "/usr/bin/python3"
BACKENDS = ("reference", "simd", "xnnpack", "auto")
SCHEMES = ("f32", "int8", "int8-full")
# How the CLI refuses a backend: an unknown name ("--backend must be reference, simd, xnnpack
# or auto", exit 1) or a known one not compiled in ("kernel backend xnnpack is not compiled into
# this build", exit 5): the backend is "not built" and its other rows are skipped. A backend
# that is built but lacks what one scheme needs ("kernel backend lacks the int8 hybrid kernels")
# gets one "not supported" row for that scheme. Any other failure is a "FAILED" row, and the
# bench exits 1 after printing the table.
NOT_BUILT = re.compile(r"--backend must be|backend.*(not compiled|not built|not available|"
                       r"unavailable|unknown)", re.I)
NOT_SUPPORTED = re.compile(r"backend.*(lacks|unsupported|not supported|not implemented)", re.I)


def run_measured(cmd):
    """Runs cmd; returns (stdout, stderr, peak RSS KiB of the child, exit code). The RSS comes
    from wait4, i.e. the child's own high-water mark (bench.py imports no torch or numpy, so
    what the child inherits from the fork is a few MiB at most)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        pid = os.fork()
        if pid == 0:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            try:
                os.execvp(cmd[0], cmd)
            finally:
                os._exit(127)
        _, status, usage = os.wait4(pid, 0)
        out.seek(0)
        err.seek(0)
        return out.read(), err.read(), usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def must(cmd):
    out, err, rss, code = run_measured(cmd)
    if code != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed ({code}):\n{err[-3000:]}")
    return out, err, rss


def row(runtime, model, decoding, wps, rss_kib, model_bytes, wer, **extra):
    r = dict(runtime=runtime, model=model, decoding=decoding, wps=wps,
             us=1e6 / wps if wps else None, rss=rss_kib, bytes=model_bytes, wer=wer)
    r.update(extra)
    return r


# ---- edgenmt ------------------------------------------------------------------------------
def edgenmt_rows(args, models, floors):
    rows = []
    for backend in args.backends:
        refused = None
        for scheme in SCHEMES:
            if scheme not in models or refused:
                continue
            lacks = failed = None
            for beam in (1, 5):
                cmd = [args.cli, "eval", "-m", models[scheme], "--data", args.data,
                       "--beam", str(beam), "--alpha", "0", "--beta", "0",
                       "--max-len", str(args.max_len), "--limit", str(args.words),
                       "--backend", backend]
                wps = rss = 0
                for _ in range(args.repeat):        # the fastest run: the least disturbed one
                    out, err, rss_i, code = run_measured(cmd)
                    if code != 0 and NOT_BUILT.search(err):
                        refused = err.strip().splitlines()[-1]
                        break
                    if code != 0 and NOT_SUPPORTED.search(err):
                        lacks = err.strip().splitlines()[-1]
                        break
                    if code != 0:
                        failed = (err.strip().splitlines() or [f"exit {code}"])[-1]
                        break
                    m = re.search(r"([0-9.]+) words/s .*arena (\d+) bytes.*model (\d+) bytes", err)
                    v = re.search(r"backend \S+ \(([^)]*)\)", err)
                    variant = v.group(1) if v else ""
                    wer = float(re.search(r"WER=([0-9.]+)", out.strip().splitlines()[-1]).group(1))
                    wps, rss = max(wps, float(m.group(1))), max(rss, rss_i)
                if refused or lacks or failed:
                    break
                f = floors[scheme][beam]
                label = f"edgenmt {backend}" + (f" ({variant})" if variant and backend != "reference" else "")
                rows.append(row(label, scheme, "greedy" if beam == 1 else "beam 5",
                                wps, rss, int(m.group(3)), wer, floor_us=f,
                                eff=f / (1e6 / wps) if wps else None, arena=int(m.group(2)),
                                scheme=scheme, beam=beam, backend=backend))
            if lacks or failed:
                rows.append(dict(runtime=f"edgenmt {backend}", model=scheme,
                                 decoding="not supported" if lacks else "FAILED",
                                 note=lacks or failed, failed=bool(failed)))
        if refused:
            rows.append(dict(runtime=f"edgenmt {backend}", model="-", decoding="not built",
                             note=refused))
    return rows


def bandwidths(args, sizes):
    """GB/s read by one core from a buffer of each size (bandwidth.c, compiled here once)."""
    exe = os.path.join(args.work, "bandwidth")
    src = os.path.join(HERE, "bandwidth.c")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        cc = shutil.which("cc") or shutil.which("gcc")
        if not cc:
            sys.exit("bench: no C compiler for bandwidth.c (make deps installs build-essential)")
        subprocess.run([cc, "-O3", "-march=native", "-o", exe, src], check=True)
    sizes = sorted(set(sizes))
    out, _, _ = must([exe] + [str(s) for s in sizes])
    gbps = [float(line.split()[1]) for line in out.splitlines() if line]
    return dict(zip(sizes, gbps))   # one line per size, in order


# ---- peers --------------------------------------------------------------------------------
def torch_row(args, quant, beam, sources_out=None):
    res = os.path.join(args.work, f"torch-{quant}-{beam}.json")
    cmd = [PY, os.path.join(HERE, "torch_peer.py"), "--checkpoint", args.checkpoint,
           "--data", args.data, "--words", str(args.words), "--quant", quant, "--beam", str(beam),
           "--max-len", str(args.max_len), "--repeat", str(args.repeat), "--out", res]
    if sources_out:
        cmd += ["--sources-out", sources_out]
    _, _, rss = must(cmd)
    with open(res) as f:
        r = json.load(f)
    label = "float32" if quant == "none" else f"dynamic int8 ({r['engine']})"
    out = row("PyTorch 1.13 eager", label, "greedy" if beam == 1 else "beam 5", r["words_per_s"],
              rss, r["model_bytes"], r["wer"], hyps=r["hyps"])
    return out, r


def ort_rows(args, sources, words, refs):
    """ONNX Runtime float and int8 greedy rows, or one row saying why they are missing."""
    pkg = os.path.join(args.node_dir, "node_modules", "onnxruntime-node")
    missing = [why for ok, why in ((shutil.which("node"), "node"),
                                   (os.path.isdir(pkg), f"onnxruntime-node in {args.node_dir} "
                                    "(tools/bench/setup_node.sh)"))
               if not ok]
    if importlib.util.find_spec("onnx") is None:   # python3-onnx: export and quantization
        missing.append("python3-onnx")
    if missing:
        return [dict(runtime="ONNX Runtime 1.30", model="-", decoding="not available",
                     note="missing " + ", ".join(missing))], None
    f32_dir, int8_dir = os.path.join(args.work, "onnx-f32"), os.path.join(args.work, "onnx-int8")
    must([PY, os.path.join(HERE, "export_onnx.py"), "--checkpoint", args.checkpoint, "--out", f32_dir])
    must([PY, os.path.join(HERE, "quantize_onnx.py"), "--src", f32_dir, "--out", int8_dir])
    with open(os.path.join(args.checkpoint, "tgt.vocab"), encoding="utf-8") as f:
        tgt = [line.rstrip("\n") for line in f]
    rows, overhead = [], None
    for label, d in (("float32", f32_dir), ("int8 (MatMulInteger, per channel)", int8_dir)):
        res = os.path.join(args.work, f"ort-{os.path.basename(d)}.json")
        _, _, rss = must(["node", os.path.join(HERE, "ort_greedy.mjs"), args.node_dir, d, sources,
                          res, str(args.max_len), str(args.repeat)])
        with open(res) as f:
            r = json.load(f)
        hyps = [" ".join(tgt[i] for i in ids) for ids in r["hyps"]]
        wer = score({w: h.split() for w, h in zip(words, hyps)}, refs)["wer"]
        size = sum(os.path.getsize(os.path.join(d, g)) for g in ("encoder.onnx", "decoder.onnx"))
        rows.append(row("ONNX Runtime 1.30", label, "greedy", r["words_per_s"], rss, size, wer,
                        hyps=hyps))
        if overhead is None:
            overhead = r
    return rows, overhead


# ---- report -------------------------------------------------------------------------------
def fmt_table(rows):
    header = ("runtime", "model", "decoding", "words/s", "µs/word", "peak RSS", "model",
              "arena", "WER %", "floor µs", "efficiency")
    cells = []
    for r in rows:
        if "wps" not in r:
            cells.append((r["runtime"], r["model"], r["decoding"]) + ("-",) * (len(header) - 3))
            continue
        cells.append((r["runtime"], r["model"], r["decoding"], f"{r['wps']:.1f}", f"{r['us']:.0f}",
                      f"{r['rss'] / 1024:.1f} MiB", f"{r['bytes'] / 1024:.0f} KiB",
                      f"{r['arena'] / 1024:.1f} KiB" if r.get("arena") else "-",
                      f"{r['wer']:.2f}",
                      f"{r['floor_us']:.0f}" if r.get("floor_us") else "-",
                      f"{100 * r['eff']:.1f} %" if r.get("eff") else "-"))
    widths = [max(len(c[i]) for c in cells + [header]) for i in range(len(header))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(cell, widths)) for cell in cells]
    return "\n".join(lines)


def speedup(best, peer):
    return f"{best / peer['wps']:.2f}" if best and peer and peer.get("wps") else "n/a"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--words", type=int, default=2000)
    ap.add_argument("--data", default=os.path.join(ROOT, "data/g2p/test.tsv"))
    ap.add_argument("--checkpoint", default=os.path.join(ROOT, "models/g2p-en"))
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/host/edgenmt"))
    ap.add_argument("--models", default=os.path.join(ROOT, "build/models"),
                    help="directory with g2p-en.{f32,int8,int8-full}.enmt")
    ap.add_argument("--backends", default=",".join(BACKENDS),
                    help="edgenmt kernel backends to try, comma-separated")
    ap.add_argument("--kernel-bench", default=os.path.join(ROOT, "build/host/edgenmt-kernel-bench"))
    ap.add_argument("--node-dir", default=os.path.join(ROOT, "build/bench-node"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build/bench"),
                    help="scratch directory: exported graphs, per-row JSON, bandwidth binary")
    ap.add_argument("--max-len", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=1,
                    help="timed passes per row (edgenmt: runs of the CLI); the fastest is shown")
    args = ap.parse_args()
    args.backends = [b for b in args.backends.split(",") if b]
    args.repeat = max(1, args.repeat)
    os.makedirs(args.work, exist_ok=True)
    load0 = os.getloadavg()

    models = {s: os.path.join(args.models, f"g2p-en.{s}.enmt") for s in SCHEMES
              if os.path.exists(os.path.join(args.models, f"g2p-en.{s}.enmt"))}
    classes = {s: floor.weight_classes(floor.inspect_tensors(args.cli, m)) for s, m in models.items()}
    bw = bandwidths(args, [c["total"] for c in classes.values()])

    # PyTorch float first: its per-word source lengths and step counts feed the floor (edgenmt
    # decodes the same words with the same search, so it runs the same number of steps).
    sources = os.path.join(args.work, "sources.json")
    t_f1, stats1 = torch_row(args, "none", 1, sources_out=sources)
    t_f5, stats5 = torch_row(args, "none", 5)
    floors = {s: {b: floor.bytes_per_word(c, st["avg_src_len"], st["avg_steps"])
                  / (bw[c["total"]] * 1e9) * 1e6 for b, st in ((1, stats1), (5, stats5))}
              for s, c in classes.items()}

    rows = edgenmt_rows(args, models, floors)
    t_q1, _ = torch_row(args, "dynamic", 1)
    t_q5, _ = torch_row(args, "dynamic", 5)
    refs_all = read_tsv(args.data)
    words = list(refs_all)[: args.words]
    refs = {w: refs_all[w] for w in words}
    ort, overhead = ort_rows(args, sources, words, refs)
    rows += [t_f1, t_f5, t_q1, t_q5] + ort

    print(f"edgenmt benchmark: first {len(words)} distinct words of "
          f"{os.path.relpath(args.data, ROOT)}, one word per call, 1 thread, "
          f"fastest of {args.repeat} pass(es) per row, {os.uname().machine}, "
          f"load average {load0[0]:.2f} at start, {os.getloadavg()[0]:.2f} at end")
    print(fmt_table(rows))
    print()
    for r in rows:
        if r.get("note"):
            print(f"{r['runtime']}: {r['decoding']}: {r['note']}")
    for r in [t_q1, t_q5] + [r for r in ort if "hyps" in r]:
        base = t_f1 if r["decoding"] == "greedy" else t_f5
        same = sum(a == b for a, b in zip(r["hyps"], base["hyps"]))
        print(f"vs PyTorch float {r['decoding']}: {r['runtime']} {r['model']}: WER "
              f"{r['wer'] - base['wer']:+.2f} points, {same}/{len(words)} identical outputs")
    print(f"floor = weight bytes per word / read bandwidth (floor.py): average source "
          f"{stats1['avg_src_len']:.2f} chars, decoder steps {stats1['avg_steps']:.2f} greedy / "
          f"{stats5['avg_steps']:.2f} beam 5 (PyTorch float's counts on these words)")
    for s, c in classes.items():
        b1 = floor.bytes_per_word(c, stats1["avg_src_len"], stats1["avg_steps"])
        print(f"  {s}: {c['once']} B once + {c['per_char']} B per char + {c['per_step']} B per "
              f"step = {b1 / 1e6:.2f} MB per greedy word; bandwidth.c streaming read of a "
              f"{c['total'] / 1e6:.2f} MB buffer (the model's weights), best of 5: "
              f"{bw[c['total']]:.1f} GB/s")
    if overhead:
        calls = 1 + overhead["decoder_calls"] / overhead["words"]
        print(f"ONNX Runtime per-call overhead: {overhead['trivial_call_us']:.1f} µs per call of "
              f"a one-Identity graph, {overhead['decoder_step_s1_us']:.1f} µs per float decoder "
              f"step on a 1-char source; {calls:.2f} calls per word -> "
              f"{calls * overhead['trivial_call_us']:.0f} µs of {overhead['us_per_word']:.0f} "
              f"µs per word is call overhead")
    # Where each backend's float32 product is fastest, per weight matrix (the measurement the
    # auto backend's choice between the SIMD product and XNNPACK's packed one comes from).
    if "f32" in models and os.path.exists(args.kernel_bench):
        kb = subprocess.run([args.kernel_bench, models["f32"], "--min-ms", "20"],
                            capture_output=True, text=True)
        print(kb.stdout.rstrip() if kb.returncode == 0 else
              f"kernel-bench: FAILED ({kb.stderr.strip()})")
    else:
        print(f"kernel-bench: {os.path.relpath(args.kernel_bench, ROOT)} not built")
    fastest = max((r["wps"] for r in rows if r.get("scheme") in ("int8", "int8-full")
                   and r.get("beam") == 1), default=None)
    ort_f1 = next((r for r in ort if r.get("model") == "float32"), None)
    print(f"speedup_vs_torch_float={speedup(fastest, t_f1)} "
          f"speedup_vs_torch_int8={speedup(fastest, t_q1)} speedup_vs_ort={speedup(fastest, ort_f1)}")
    if any(r.get("failed") for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
