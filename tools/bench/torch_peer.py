#!/usr/bin/env python3
"""The PyTorch peers of `make bench`: the reference model (converter/reference) in PyTorch 1.13
eager mode, float or dynamically quantized to int8, decoding one word per call on one thread.

    /usr/bin/python3 tools/bench/torch_peer.py --words 200 --quant dynamic --beam 5 --out r.json

--quant none     the float reference as trained (what the converter reads)
--quant dynamic  torch.quantization.quantize_dynamic on nn.LSTM, nn.LSTMCell and nn.Linear with
                 qint8 weights (torch's default dynamic qconfig: per-tensor weight scales,
                 activations quantized per call); embeddings and the attention arithmetic stay
                 float. This is the int8 path a PyTorch user gets without writing kernels.

Decoding is search.py's beam_search (MODEL.md), greedy at --beam 1, via the same stepper the
reference tests use, so the outputs are the reference's. Writes JSON: words/s, µs per word,
WER, the weight bytes as torch serialises them, and per-word averages of source characters and
decoder steps (bench.py's bandwidth floor needs them), plus the outputs (for cross-checks).
bench.py runs each row in its own process so each row's peak RSS is its own.
"""
import argparse
import io
import json
import os
import sys
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "converter", "reference"))

from checkpoint import load_checkpoint, tokenize_source  # noqa: E402
from g2p_metrics import read_tsv, score  # noqa: E402
from search import DecodeOptions, ModelStepper, beam_search  # noqa: E402


class CountingStepper(ModelStepper):
    """ModelStepper that counts decoder steps (one call = one step of all live hypotheses)."""
    calls = 0

    def step(self, prev, state):
        CountingStepper.calls += 1
        return super().step(prev, state)


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
        model = torch.quantization.quantize_dynamic(
            model, {torch.nn.LSTM, torch.nn.LSTMCell, torch.nn.Linear}, dtype=torch.qint8)
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


def run(checkpoint, data, n, quant, beam, max_len, repeat=1):
    torch.set_num_threads(1)
    model, sv, tv = load_model(checkpoint, quant)
    words, refs = first_words(data, n)
    srcs = [sv.encode(tokenize_source(w, model.cfg.tokenizer)) for w in words]
    opts = DecodeOptions(beam=beam, nbest=1, max_len=max_len).validate()
    quiet = QuietStderr(quant == "dynamic" and torch.backends.quantized.engine == "qnnpack")
    with torch.no_grad(), quiet:
        for s in srcs[:10]:                      # warm-up (first-call allocations, fbgemm packing)
            beam_search(CountingStepper(model, s), opts)
        dt = float("inf")
        for _ in range(repeat):                  # the fastest pass: the least disturbed one
            CountingStepper.calls = 0
            t0 = time.perf_counter()
            hyps = [beam_search(CountingStepper(model, s), opts)[0].tokens for s in srcs]
            dt = min(dt, time.perf_counter() - t0)
    out = {w: tv.decode(h) for w, h in zip(words, hyps)}
    return {
        "words": len(words), "words_per_s": len(words) / dt, "us_per_word": dt * 1e6 / len(words),
        "wer": score(out, refs)["wer"], "model_bytes": weight_bytes(model, checkpoint, quant),
        "avg_src_len": sum(map(len, srcs)) / len(srcs),
        "avg_steps": CountingStepper.calls / len(words),
        "engine": torch.backends.quantized.engine, "torch": torch.__version__,
        "hyps": [" ".join(out[w]) for w in words],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoint", default=os.path.join(ROOT, "models/g2p-en"))
    ap.add_argument("--data", default=os.path.join(ROOT, "data/g2p/test.tsv"))
    ap.add_argument("--words", type=int, default=2000)
    ap.add_argument("--quant", choices=("none", "dynamic"), default="none")
    ap.add_argument("--beam", type=int, default=1)
    ap.add_argument("--max-len", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=1, help="timed passes; the fastest is reported")
    ap.add_argument("--out", required=True, help="JSON result file")
    ap.add_argument("--sources-out", help="also write the words' source ids (JSON) for ort_greedy.mjs")
    args = ap.parse_args()
    result = run(args.checkpoint, args.data, args.words, args.quant, args.beam, args.max_len,
                 max(1, args.repeat))
    with open(args.out, "w") as f:
        json.dump(result, f)
    if args.sources_out:
        model, sv, _ = load_checkpoint(args.checkpoint)
        words, _ = first_words(args.data, args.words)
        with open(args.sources_out, "w") as f:
            json.dump([sv.encode(tokenize_source(w, model.cfg.tokenizer)) for w in words], f)


if __name__ == "__main__":
    main()
