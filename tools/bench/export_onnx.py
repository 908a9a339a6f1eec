#!/usr/bin/env python3
"""Exports the PyTorch reference model (converter/reference) as two ONNX graphs for the ONNX
Runtime peer of `make bench`:

    /usr/bin/python3 tools/bench/export_onnx.py --checkpoint models/g2p-en --out build/bench/onnx-f32

  encoder.onnx   src [1, S] int64  ->  memory [1, S, E], h0 [1, H], c0 [1, H]
                 (embedding, the stacked bidirectional nn.LSTM as ONNX LSTM ops, the bridge)
  trivial.onnx   y = Identity(x): what one ONNX Runtime call costs with nothing to compute
  decoder.onnx   prev [1] int64, h [1, H], c [1, H], feed [1, H], memory [1, S, E]
                 ->  logprobs [1, V], h_out, c_out, feed_out
                 (one decoder step: embedding, input feeding, LSTM cell, local-p attention with
                 its window, attn_out, generator, log_softmax)

S is a dynamic axis: the runtime peer decodes one word per call (batch 1, as a device does),
so the source is never padded and the window's mask is only the clip to [0, S-1]. The graphs
hold everything needed for MODEL.md's math; the greedy loop around them is ort_greedy.mjs.

Only the configuration of the shipped model is supported (LSTM, 1 decoder layer, bridge, input
feeding, local_p attention with the general score, no source reversal): the export asserts it
rather than silently exporting different math. The wrappers below reuse the reference's own
modules (same parameters); `check` compares them with Seq2Seq.encode/step on real words.
"""
import argparse
import os
import sys
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "converter", "reference"))

from checkpoint import load_checkpoint  # noqa: E402
from model import Seq2Seq  # noqa: E402

OPSET = 14  # DynamicQuantizeLinear/MatMulInteger exist since 10/11; 14 is well inside torch 1.13


def check_supported(cfg):
    want = dict(cell="lstm", dec_layers=1, bridge=True, input_feeding=True, attention="local_p",
                score="general", reverse_source=False, bidirectional=True)
    bad = {k: getattr(cfg, k) for k, v in want.items() if getattr(cfg, k) != v}
    if bad:
        raise SystemExit(f"export_onnx: unsupported configuration {bad} (expects {want})")


class EncoderGraph(nn.Module):
    """Seq2Seq.encode for one unpadded source: no packing is needed at batch 1."""

    def __init__(self, model: Seq2Seq):
        super().__init__()
        self.m = model

    def forward(self, src):
        m = self.m
        memory, (hn, cn) = m.encoder.rnn(m.src_embed(src))
        f_h = torch.cat([hn[-2], hn[-1]], dim=1)   # top layer: forward then backward
        f_c = torch.cat([cn[-2], cn[-1]], dim=1)
        h0 = torch.tanh(m.bridge[0].h(f_h))
        c0 = m.bridge[0].c(f_c)
        return memory, h0, c0


class DecoderStepGraph(nn.Module):
    """Seq2Seq.step for one hypothesis, with local-p attention written out so that the source
    length comes from the memory's shape (dynamic in the graph, not a traced constant)."""

    def __init__(self, model: Seq2Seq):
        super().__init__()
        self.m = model
        self.window = float(model.cfg.window)

    def forward(self, prev, h, c, feed, memory):
        m = self.m
        x = torch.cat([m.tgt_embed(prev), feed], dim=1)
        h1, c1 = m.decoder.layers[0](x, (h, c))
        a = m.attn
        scores = (memory * a.linear_in(h1).unsqueeze(1)).sum(2)              # [1, S] general
        ones = torch.ones_like(scores)
        pos = torch.cumsum(ones, dim=1) - 1.0                                # 0..S-1
        S = ones.sum(1, keepdim=True)                                        # [1, 1]
        p = S * torch.sigmoid(a.predict_v(torch.tanh(a.predict_w(h1))))     # in [0, S]
        D = self.window
        lo = torch.clamp(torch.ceil(p - D), min=0.0)
        hi = torch.floor(p + D)            # positions beyond S-1 do not exist: no clip needed
        outside = (pos < lo) | (pos > hi)
        w = torch.softmax(scores.masked_fill(outside, float("-inf")), dim=1)
        sigma = D / 2.0
        w = w * torch.exp(-((pos - p) ** 2) / (2.0 * sigma * sigma))       # not renormalised
        ctx = (w.unsqueeze(2) * memory).sum(1)
        h_tilde = torch.tanh(m.attn_out(torch.cat([ctx, h1], dim=1)))
        logprobs = F.log_softmax(m.generator(h_tilde), dim=-1)
        return logprobs, h1, c1, h_tilde


def export(model: Seq2Seq, out_dir: str):
    check_supported(model.cfg)
    os.makedirs(out_dir, exist_ok=True)
    H, E = model.cfg.dec_hidden, model.cfg.enc_out
    enc_path, dec_path = os.path.join(out_dir, "encoder.onnx"), os.path.join(out_dir, "decoder.onnx")
    src = torch.tensor([[5, 6, 7, 8, 9]], dtype=torch.long)
    with torch.no_grad():
        torch.onnx.export(EncoderGraph(model), (src,), enc_path, opset_version=OPSET,
                          input_names=["src"], output_names=["memory", "h0", "c0"],
                          dynamic_axes={"src": {1: "S"}, "memory": {1: "S"}})
        args = (torch.tensor([2]), torch.zeros(1, H), torch.zeros(1, H), torch.zeros(1, H),
                torch.randn(1, 5, E))
        torch.onnx.export(DecoderStepGraph(model), args, dec_path, opset_version=OPSET,
                          input_names=["prev", "h", "c", "feed", "memory"],
                          output_names=["logprobs", "h_out", "c_out", "feed_out"],
                          dynamic_axes={"memory": {1: "S"}})
    return enc_path, dec_path, write_trivial(out_dir)


def write_trivial(out_dir: str) -> str:
    """trivial.onnx: y = Identity(x), x float [1]. Timing it measures what one ONNX Runtime
    call costs when there is nothing to compute (ort_greedy.mjs reports it)."""
    import onnx
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "trivial", [x], [y])
    path = os.path.join(out_dir, "trivial.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]), path)
    return path


def check(model: Seq2Seq, sources):
    """The wrappers against Seq2Seq.encode/step, greedy, on real sources: same tokens and
    log-probs within float noise. Raises on a mismatch (the export would be wrong)."""
    from search import ModelStepper
    enc, dec = EncoderGraph(model), DecoderStepGraph(model)
    worst = 0.0
    with torch.no_grad():
        for ids in sources:
            st = ModelStepper(model, ids)
            ref_state = st.start()[1]
            memory, h, c = enc(torch.tensor([ids]))
            feed = torch.zeros_like(h)
            prev = torch.tensor([2])
            for _ in range(64):
                ref_lp, _, ref_state = model.step(prev, ref_state, st.ctx)
                lp, h, c, feed = dec(prev, h, c, feed, memory)
                worst = max(worst, float((lp - ref_lp).abs().max()))
                if int(lp.argmax()) != int(ref_lp.argmax()):
                    raise SystemExit(f"export_onnx: wrapper and reference disagree on {ids}")
                prev = lp.argmax(1)
                if int(prev) == 3:
                    break
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoint", default=os.path.join(ROOT, "models/g2p-en"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build/bench/onnx-f32"))
    args = ap.parse_args()
    torch.set_num_threads(1)
    # torch.onnx warns that the LSTM export fixes batch size 1 (it is always 1 here) and about
    # shape inference of prim::Constant (the graphs are checked on real words instead).
    warnings.filterwarnings("ignore", category=UserWarning, module=r"torch\.onnx")
    model, sv, _ = load_checkpoint(args.checkpoint)
    words = ["hello", "phoneme", "edge", "translation", "a", "supercalifragilistic"]
    worst = check(model, [sv.encode(list(w)) for w in words])
    paths = export(model, args.out)
    print(f"export_onnx: wrote {' '.join(paths)} (wrappers match the reference, "
          f"max |dlogprob| {worst:.2e})")


if __name__ == "__main__":
    main()
