"""The rows of `make bench` (bench.py): what one pass of each row runs and how its result is read.

A row is a Job: a command that times ONE pass over the words in its own process (so each pass
gets the row's own peak RSS, and bench.py can interleave the passes of all rows: pass 1 of
every row, then pass 2, ...), and a reader that turns the process's output into that pass's
figures. A reader raises Refused for a row that cannot run here: "not built" (a backend the CLI
lacks), "not supported" (a scheme the backend lacks) or "FAILED" (anything else, which makes
the bench exit 1 after the table).

  * edgenmt: `edgenmt eval` (one pass over the words per call); the --batch / --threads rows
    are batching.py's.
  * PyTorch: torch_peer.py (float or dynamic int8; the lean greedy loop or the beam search).
  * ONNX Runtime: ort_greedy.mjs on the graphs export_onnx.py / quantize_onnx.py wrote once,
    before the passes (setup_ort).
transformer_rows.py builds the Transformer's rows from the same functions (its own checkpoint,
work directory and max_len; the ONNX Runtime rows with kind="transformer").
Both peers check that their timed pass computed on one thread and fail (exit 3) otherwise.
"""
import importlib.util
import json
import os
import re
import shutil
import subprocess

from g2p_metrics import score

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/usr/bin/python3"
# How the CLI refuses a backend: an unknown name ("--backend must be reference, simd, xnnpack
# or auto", exit 1) or a known one not compiled in ("kernel backend xnnpack is not compiled into
# this build", exit 5): the backend is "not built" and its other rows are skipped. A backend
# that is built but lacks what one scheme needs ("kernel backend lacks the int8 hybrid kernels")
# gets one "not supported" row for that scheme.
NOT_BUILT = re.compile(r"--backend must be|backend.*(not compiled|not built|not available|"
                       r"unavailable|unknown)", re.I)
NOT_SUPPORTED = re.compile(r"backend.*(lacks|unsupported|not supported|not implemented)", re.I)
EVAL = re.compile(r"([0-9.]+) words/s .*backend (\S+) \(([^)]*)\).*arena (\d+) bytes"
                  r".*model (\d+) bytes")


class Refused(Exception):
    """A row that cannot run: kind is "not built", "not supported" or "FAILED"."""

    def __init__(self, kind, note):
        super().__init__(note)
        self.kind, self.note = kind, note


def last_line(err, code):
    lines = [line for line in err.strip().splitlines() if line.strip()]
    return lines[-1] if lines else f"exit {code}"


class Job:
    """One row. cmd(pass_index) -> argv; read(out, err, code, pass_index) -> the pass's figures
    (a dict with at least "wps"; "wer", "bytes", "hyps", ... as the row has them)."""

    def __init__(self, runtime, model, decoding, cmd, read, **info):
        self.runtime, self.model, self.decoding = runtime, model, decoding
        self.cmd, self.read, self.info = cmd, read, info
        self.passes, self.rss = [], []     # figures and peak RSS (KiB) of each pass
        self.refused = None                # Refused, once the row stopped
        self.hidden = False                # dropped with a sibling's refusal (one row says why)


# ---- edgenmt ------------------------------------------------------------------------------
def edgenmt_jobs(args, models, backends, schemes):
    jobs = []
    for backend in backends:
        for scheme in schemes:
            if scheme not in models:
                continue
            for beam in (1, 5):
                cmd = [args.cli, "eval", "-m", models[scheme], "--data", args.data,
                       "--beam", str(beam), "--alpha", "0", "--beta", "0",
                       "--max-len", str(args.max_len), "--limit", str(args.words),
                       "--backend", backend]
                jobs.append(Job(f"edgenmt {backend}", scheme, "greedy" if beam == 1 else "beam 5",
                                lambda i, c=cmd: c, read_edgenmt, scheme=scheme, beam=beam,
                                backend=backend, edgenmt=True, batch=1, threads=1))
    return jobs


def read_edgenmt(out, err, code, _):
    if code != 0:
        line = last_line(err, code)
        kind = ("not built" if NOT_BUILT.search(err) else
                "not supported" if NOT_SUPPORTED.search(err) else "FAILED")
        raise Refused(kind, line)
    m = EVAL.search(err)
    wer = re.search(r"WER=([0-9.]+)", out.strip().splitlines()[-1])
    if not m or not wer:
        raise Refused("FAILED", f"unexpected output: {last_line(err, code)}")
    return dict(wps=float(m.group(1)), backend=m.group(2), variant=m.group(3),
                arena=int(m.group(4)), bytes=int(m.group(5)), wer=float(wer.group(1)))


def default_backend(args, model):
    """(name, variant) of the backend `edgenmt eval` runs without --backend, from a one-word
    eval; (None, why) when that fails."""
    r = subprocess.run([args.cli, "eval", "-m", model, "--data", args.data, "--limit", "1"],
                       capture_output=True, text=True)
    m = EVAL.search(r.stderr)
    if r.returncode == 0 and m:
        return m.group(2), m.group(3)
    return None, last_line(r.stderr, r.returncode)


# ---- PyTorch ------------------------------------------------------------------------------
def torch_job(args, quant, beam):
    def cmd(i):
        return [PY, os.path.join(HERE, "torch_peer.py"), "--checkpoint", args.checkpoint,
                "--data", args.data, "--words", str(args.words), "--quant", quant,
                "--beam", str(beam), "--max-len", str(args.max_len), "--out", result(i)]

    def result(i):
        return os.path.join(args.work, f"torch-{quant}-{beam}-pass{i + 1}.json")

    def read(out, err, code, i):
        if code != 0:
            raise Refused("FAILED", last_line(err, code))
        with open(result(i)) as f:
            r = json.load(f)
        return dict(wps=r["words_per_s"], wer=r["wer"], bytes=r["model_bytes"], hyps=r["hyps"],
                    engine=r["engine"], avg_src_len=r["avg_src_len"], avg_steps=r["avg_steps"],
                    threads=r["cpu_s"] / max(1e-9, r["main_thread_cpu_s"]))

    model = "float32" if quant == "none" else "dynamic int8"
    return Job("PyTorch 1.13 eager", model, "greedy" if beam == 1 else "beam 5", cmd, read,
               quant=quant, beam=beam, peer="torch")


def torch_jobs(args):
    return [torch_job(args, q, b) for q in ("none", "dynamic") for b in (1, 5)]


# ---- ONNX Runtime -------------------------------------------------------------------------
ORT = "ONNX Runtime 1.30"
ORT_MODELS = (("float32", "onnx-f32"), ("int8 (MatMulInteger, per channel)", "onnx-int8"))
# V8's garbage collection on the main thread, not on helper threads: the one-thread check
# (ort_greedy.mjs) once failed a pass on 22 ticks of helper-thread GC, and a one-thread figure
# should pay for its collector itself.
NODE_FLAGS = ("--single-threaded-gc",)


def ort_missing(args):
    """Why the ONNX Runtime rows cannot run here, or None."""
    pkg = os.path.join(args.node_dir, "node_modules", "onnxruntime-node")
    missing = [why for ok, why in ((shutil.which("node"), "node"),
                                   (os.path.isdir(pkg), f"onnxruntime-node in {args.node_dir} "
                                    "(tools/bench/setup_node.sh)"))
               if not ok]
    if importlib.util.find_spec("onnx") is None:   # python3-onnx: export and quantization
        missing.append("python3-onnx")
    return "missing " + ", ".join(missing) if missing else None


def setup_ort(args, must):
    """Exports the float graphs and quantizes them, once, before the passes."""
    f32_dir, int8_dir = (os.path.join(args.work, d) for _, d in ORT_MODELS)
    must([PY, os.path.join(HERE, "export_onnx.py"), "--checkpoint", args.checkpoint,
          "--out", f32_dir])
    must([PY, os.path.join(HERE, "quantize_onnx.py"), "--src", f32_dir, "--out", int8_dir])


def ort_jobs(args, sources, words, refs, kind="rnn"):
    """The float and int8 greedy rows over the graphs in args.work/onnx-{f32,int8}; kind: "rnn"
    (export_onnx.py's graphs) or "transformer" (export_onnx_transformer.py's)."""
    with open(os.path.join(args.checkpoint, "tgt.vocab"), encoding="utf-8") as f:
        tgt = [line.rstrip("\n") for line in f]
    jobs = []
    for label, sub in ORT_MODELS:
        d = os.path.join(args.work, sub)

        def result(i, sub=sub):
            return os.path.join(args.work, f"ort-{sub}-pass{i + 1}.json")

        def cmd(i, d=d, result=result):
            return ["node", *NODE_FLAGS, os.path.join(HERE, "ort_greedy.mjs"), args.node_dir, d,
                    sources, result(i), str(args.max_len)] + ([kind] if kind != "rnn" else [])

        def read(out, err, code, i, d=d, result=result):
            if code != 0:
                raise Refused("FAILED", last_line(err, code))
            with open(result(i)) as f:
                r = json.load(f)
            hyps = [" ".join(tgt[t] for t in ids) for ids in r["hyps"]]
            wer = score({w: h.split() for w, h in zip(words, hyps)}, refs)["wer"]
            size = sum(os.path.getsize(os.path.join(d, g))
                       for g in ("encoder.onnx", "decoder.onnx"))
            return dict(wps=r["words_per_s"], wer=wer, bytes=size, hyps=hyps, overhead=r,
                        threads=(r["main_thread_ticks"] + r["other_thread_ticks"])
                        / max(1, r["main_thread_ticks"]), cpu_wall=r["cpu_s"] / r["seconds"])

        jobs.append(Job(ORT, label, "greedy", cmd, read, peer="ort",
                        quant="none" if sub == "onnx-f32" else "int8"))
    return jobs
