#!/usr/bin/env python3
"""The PyTorch peers of `make bench`: the reference model (converter/reference) in PyTorch 1.13
eager mode, float or dynamically quantized to int8, decoding one word per call on one thread.
Either model type of the checkpoint (config.json's model_type: model.Seq2Seq, the shipped LSTM,
or transformer.Transformer): both have the same encode/step API, which is all this uses.

    /usr/bin/python3 tools/bench/torch_peer.py --words 200 --quant dynamic --beam 5 --out r.json

--quant none     the float reference as trained (what the converter reads)
--quant dynamic  torch.quantization.quantize_dynamic on nn.LSTM, nn.LSTMCell and nn.Linear with
                 qint8 weights (torch's default dynamic qconfig: per-tensor weight scales,
                 activations quantized per call); embeddings and the attention arithmetic stay
                 float. This is the int8 path a PyTorch user gets without writing kernels.
                 A Transformer: every nn.Linear (attention projections, feed-forward); layer
                 norms, attention products and a tied output matrix (the target embedding,
                 applied with F.linear) stay float.

Set up as PyTorch's docs advise for CPU inference: eval(), torch.inference_mode(), one thread
(torch.set_num_threads(1), and OMP/MKL/OPENBLAS_NUM_THREADS=1 set before torch loads, since the
BLAS reads them when its library is loaded).

Greedy (--beam 1) is a lean argmax loop, model.encode then model.step until </s> or
--max-len (MODEL.md's greedy, ties to the lowest id): the loop ONNX Runtime's peer runs
(ort_greedy.mjs), without the beam search's bookkeeping, which would charge PyTorch for
Python work a greedy user does not do. --beam K > 1 is search.py's beam_search (MODEL.md).

One timed pass over the words per process, after a warm-up on the first 10 words (bench.py
interleaves the passes of every row, each its own process, so each row's peak RSS is its own).
The pass must have computed on one thread: the process's CPU time (all threads) may exceed the
main thread's by 10 % at most, and the wall time by 10 % at most; else the peer fails (exit 3)
rather than report a multi-threaded figure. The first check holds on a loaded machine too,
where wall time alone would hide a second thread.

Writes JSON: words/s, µs per word, WER, the weight bytes as torch serialises them, per-word
averages of source characters and decoder steps (bench.py's floor needs them), the thread
check's times, and the outputs (for cross-checks). --sources-only writes just the words'
source ids for ort_greedy.mjs (--sources-out) and times nothing.
"""
import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ[_var] = "1"   # before torch loads its BLAS/OpenMP, which read them once

import argparse  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import torch  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "converter", "reference"))

from checkpoint import load_checkpoint, tokenize_source  # noqa: E402
from g2p_metrics import read_tsv, score  # noqa: E402
from model import BOS, EOS  # noqa: E402
from search import DecodeOptions, ModelStepper, beam_search  # noqa: E402

MAX_THREAD_RATIO = 1.10   # process CPU / main-thread CPU and process CPU / wall, at most
THREAD_CHECK_SLACK_S = 0.02   # and at most this much more: short passes (ctest's) are noisy


class CountingStepper(ModelStepper):
    """ModelStepper that counts decoder steps (one call = one step of all live hypotheses)."""
    calls = 0

    def step(self, prev, state):
        CountingStepper.calls += 1
        return super().step(prev, state)


def greedy(model, src_ids, max_len):
    """(output ids, steps): argmax per step (torch.argmax: the first maximum, the lowest id),
    stop at </s> (its step counted) or after max_len tokens."""
    ctx, state = model.encode(torch.tensor([src_ids]), torch.tensor([len(src_ids)]))
    prev = torch.tensor([BOS])
    out = []
    for t in range(max_len):
        logprobs, _, state = model.step(prev, state, ctx)
        best = int(torch.argmax(logprobs[0]))
        if best == EOS:
            return out, t + 1
        out.append(best)
        prev = torch.tensor([best])
    return out, max_len


def first_words(data, n):
    """The first n distinct words of a TSV, in file order (what `edgenmt eval --limit` scores)."""
    refs = read_tsv(data)
    words = list(refs)[:n]
    return words, {w: refs[w] for w in words}


# x86 builds from pytorch.org use fbgemm (or "x86"); Debian's torch 1.13 has only qnnpack and
# onednn, and onednn measured ~4x slower than qnnpack here on one-word calls: take the first
# engine of this order that the build has.
ENGINES = ("fbgemm", "x86", "qnnpack", "onednn")


def load_model(checkpoint, quant):
    model, sv, tv = load_checkpoint(checkpoint)
    if quant == "dynamic":
        torch.backends.quantized.engine = next(
            e for e in ENGINES if e in torch.backends.quantized.supported_engines)
        spec = {torch.nn.LSTM, torch.nn.LSTMCell, torch.nn.Linear}
        if getattr(model.cfg, "tie_output", False):
            # A tied Transformer's output matrix is the target embedding (F.linear over
            # tgt_embed.weight): its generator Linear holds only the bias, nothing to quantize.
            qconfig = torch.quantization.default_dynamic_qconfig   # what dtype=qint8 picks
            spec = {**{t: qconfig for t in spec}, "generator": None}
        model = torch.quantization.quantize_dynamic(model, spec, dtype=torch.qint8)
        if torch.backends.quantized.engine == "qnnpack":
            # torch 1.13's dynamic Linear (module version 4) passes reduce_range=True, which
            # qnnpack ignores with a glog warning on every call (~75 lines per word, inside the
            # timed loop). Version 3 calls the same op without it: same numbers, no warnings.
            for m in model.modules():
                if isinstance(m, torch.ao.nn.quantized.dynamic.Linear):
                    m.version = 3
    model.eval()
    return model, sv, tv


class QuietStderr:
    """Sends fd 2 to /dev/null while decoding with qnnpack: its quantized LSTM still passes
    reduce_range=True internally and glog prints a warning per call (~50 lines per word; no
    environment variable silences Debian's build). Writing them to /dev/null keeps the cost of
    the writes out of the timed loop; formatting them stays in (about 1 % here)."""

    def __init__(self, active):
        self.active, self.saved = active, None

    def __enter__(self):
        if self.active:
            sys.stderr.flush()
            self.saved = os.dup(2)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 2)
            os.close(null)

    def __exit__(self, *exc):
        if self.saved is not None:
            os.dup2(self.saved, 2)
            os.close(self.saved)


def weight_bytes(model, checkpoint, quant):
    if quant == "none":
        return os.path.getsize(os.path.join(checkpoint, "model.safetensors"))
    buf = io.BytesIO()   # the quantized state dict as torch stores it (packed int8 + scales)
    torch.save(model.state_dict(), buf)
    return buf.tell()


def decode_all(model, srcs, beam, max_len):
    """(output ids per word, decoder steps in all)."""
    if beam == 1:
        outs = [greedy(model, s, max_len) for s in srcs]
        return [o for o, _ in outs], sum(n for _, n in outs)
    opts = DecodeOptions(beam=beam, nbest=1, max_len=max_len).validate()
    CountingStepper.calls = 0
    hyps = [beam_search(CountingStepper(model, s), opts)[0].tokens for s in srcs]
    return hyps, CountingStepper.calls


def check_one_thread(wall, cpu, main_cpu):
    """Exits 3 unless the timed pass computed on one thread (see the module docstring)."""
    if (cpu > MAX_THREAD_RATIO * main_cpu + THREAD_CHECK_SLACK_S
            or cpu > MAX_THREAD_RATIO * wall + THREAD_CHECK_SLACK_S):
        sys.exit(f"torch_peer: more than one thread computed: process CPU {cpu:.3f} s, main "
                 f"thread {main_cpu:.3f} s, wall {wall:.3f} s (torch threads "
                 f"{torch.get_num_threads()}, {len(os.listdir('/proc/self/task'))} tasks)")


def run(checkpoint, data, n, quant, beam, max_len):
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    model, sv, tv = load_model(checkpoint, quant)
    words, refs = first_words(data, n)
    srcs = [sv.encode(tokenize_source(w, model.cfg.tokenizer)) for w in words]
    quiet = QuietStderr(quant == "dynamic" and torch.backends.quantized.engine == "qnnpack")
    with torch.inference_mode(), quiet:
        decode_all(model, srcs[:10], beam, max_len)   # warm-up (first-call allocations, packing)
        w0, c0, m0 = time.perf_counter(), time.process_time(), time.thread_time()
        hyps, steps = decode_all(model, srcs, beam, max_len)
        wall = time.perf_counter() - w0
        cpu, main_cpu = time.process_time() - c0, time.thread_time() - m0
    check_one_thread(wall, cpu, main_cpu)
    out = {w: tv.decode(h) for w, h in zip(words, hyps)}
    return {
        "words": len(words), "words_per_s": len(words) / wall,
        "us_per_word": wall * 1e6 / len(words),
        "wer": score(out, refs)["wer"], "model_bytes": weight_bytes(model, checkpoint, quant),
        "avg_src_len": sum(map(len, srcs)) / len(srcs), "avg_steps": steps / len(words),
        "engine": torch.backends.quantized.engine, "torch": torch.__version__,
        "wall_s": wall, "cpu_s": cpu, "main_thread_cpu_s": main_cpu,
        "hyps": [" ".join(out[w]) for w in words],
    }


def write_sources(checkpoint, data, n, path):
    model, sv, _ = load_checkpoint(checkpoint)
    words, _ = first_words(data, n)
    with open(path, "w") as f:
        json.dump([sv.encode(tokenize_source(w, model.cfg.tokenizer)) for w in words], f)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoint", default=os.path.join(ROOT, "models/g2p-en"))
    ap.add_argument("--data", default=os.path.join(ROOT, "data/g2p/test.tsv"))
    ap.add_argument("--words", type=int, default=2000)
    ap.add_argument("--quant", choices=("none", "dynamic"), default="none")
    ap.add_argument("--beam", type=int, default=1)
    ap.add_argument("--max-len", type=int, default=64)
    ap.add_argument("--out", help="JSON result file (required unless --sources-only)")
    ap.add_argument("--sources-out",
                    help="also write the words' source ids (JSON) for ort_greedy.mjs")
    ap.add_argument("--sources-only", action="store_true", help="write --sources-out, time nothing")
    args = ap.parse_args()
    if args.sources_only or args.sources_out:
        if not args.sources_out:
            ap.error("--sources-only needs --sources-out")
        write_sources(args.checkpoint, args.data, args.words, args.sources_out)
        if args.sources_only:
            return
    if not args.out:
        ap.error("--out is required")
    result = run(args.checkpoint, args.data, args.words, args.quant, args.beam, args.max_len)
    with open(args.out, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
