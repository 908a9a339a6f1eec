#!/usr/bin/env python3
"""Exports the PyTorch reference Transformer (converter/reference/transformer.py) as two ONNX
graphs for the ONNX Runtime peer of `make bench` (export_onnx.py is the LSTM's twin):

    /usr/bin/python3 tools/bench/export_onnx_transformer.py \\
        --checkpoint models/g2p-en-transformer --out build/bench/transformer/onnx-f32

  encoder.onnx   src [1, S] int64  ->  cross_k_l, cross_v_l [1, heads, S, d_head] for every
                 decoder layer l (embedding, positions, the encoder stack, its final norm, and
                 each decoder layer's cross-attention key/value projections: the source side
                 every step reads, computed once per word as Transformer.encode does)
  decoder.onnx   prev [1] int64, pos [1] int64 (the step's position t), past_k_l, past_v_l
                 [1, heads, t, d_head] (the self-attention cache of the steps so far; t = 0 at
                 the first step), cross_k_l, cross_v_l  ->  logprobs [1, V], new_k_l, new_v_l
                 [1, heads, t + 1, d_head] (one decoder step: Transformer.step)
  trivial.onnx   y = Identity(x) (export_onnx.write_trivial: ONNX Runtime's per-call cost)

S and t are dynamic axes. One word per call (batch 1, as a device decodes) needs no padding, so
every attention is over all its keys: no masks in the graphs. The greedy loop around them is
ort_transformer.mjs (run by ort_greedy.mjs ... transformer). quantize_onnx.py writes the int8
pair from these files unchanged (every nn.Linear is a MatMul or Gemm on a constant weight).

The wrappers reuse the reference's own modules and its sublayer/ffn/logprobs code (same
parameters, same pre/post-norm, activation, positions and tied output); `check` compares them
with Transformer.encode/step on real words (same argmax at every step; the largest log-prob
difference is printed).
"""
import argparse
import math
import os
import sys
import warnings

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "converter", "reference"))

from checkpoint import load_checkpoint, tokenize_source  # noqa: E402
from export_onnx import OPSET, write_trivial  # noqa: E402
from model import BOS, EOS  # noqa: E402
from transformer import Transformer  # noqa: E402

CHECK_WORDS = ["hello", "phoneme", "edge", "translation", "a", "supercalifragilistic"]


def attend(a, q, k, v):
    """MultiHeadAttention.attend without a mask (batch 1: every key is real). q [1, h, T, dh],
    k/v [1, h, S, dh] -> [1, T, d]."""
    w = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(a.d_head), dim=-1)
    out = torch.matmul(w, v).transpose(1, 2)
    return a.out_proj(out.reshape(1, out.size(1), a.heads * a.d_head))


class EncoderGraph(nn.Module):
    """Transformer.encode for one unpadded source: the cross-attention keys and values."""

    def __init__(self, model: Transformer):
        super().__init__()
        self.m = model

    def forward(self, src):
        m = self.m
        S = src.size(1)
        x = m.src_embed(src) * math.sqrt(m.cfg.d_model) + m.src_pos[:S]
        for layer in m.encoder:
            a = layer.self_attn
            x = m.sublayer(x, layer.norm1, lambda y, a=a: attend(
                a, a.split(a.q_proj(y)), a.split(a.k_proj(y)), a.split(a.v_proj(y))))
            x = m.sublayer(x, layer.norm2, lambda y, layer=layer: m.ffn(layer, y))
        if m.cfg.norm == "pre":
            x = m.encoder_norm(x)
        out = []
        for layer in m.decoder:
            c = layer.cross_attn
            out += [c.split(c.k_proj(x)), c.split(c.v_proj(x))]
        return tuple(out)   # cross_k_0, cross_v_0, cross_k_1, ...


class DecoderStepGraph(nn.Module):
    """Transformer.step for one hypothesis, with the self-attention cache as input and output.
    forward(prev, pos, past_k_0, past_v_0, ..., cross_k_0, cross_v_0, ...)."""

    def __init__(self, model: Transformer):
        super().__init__()
        self.m = model
        self.L = model.cfg.dec_layers

    def forward(self, prev, pos, *caches):
        m, L = self.m, self.L
        past, cross = caches[:2 * L], caches[2 * L:]
        x = (m.tgt_embed(prev) * math.sqrt(m.cfg.d_model) + m.tgt_pos[pos]).unsqueeze(1)
        new = []
        for l, layer in enumerate(m.decoder):
            a, c = layer.self_attn, layer.cross_attn

            def self_attention(y, a=a, l=l):
                k = torch.cat([past[2 * l], a.split(a.k_proj(y))], dim=2)
                v = torch.cat([past[2 * l + 1], a.split(a.v_proj(y))], dim=2)
                new.extend([k, v])
                return attend(a, a.split(a.q_proj(y)), k, v)

            x = m.sublayer(x, layer.norm1, self_attention)
            x = m.sublayer(x, layer.norm2, lambda y, c=c, l=l: attend(
                c, c.split(c.q_proj(y)), cross[2 * l], cross[2 * l + 1]))
            x = m.sublayer(x, layer.norm3, lambda y, layer=layer: m.ffn(layer, y))
        return (m.logprobs(x[:, 0]),) + tuple(new)


def names(prefix, L):
    return [f"{prefix}_{kv}_{l}" for l in range(L) for kv in ("k", "v")]


def export(model: Transformer, out_dir: str):
    cfg = model.cfg
    os.makedirs(out_dir, exist_ok=True)
    L, h, dh = cfg.dec_layers, cfg.heads, cfg.d_head
    enc_path = os.path.join(out_dir, "encoder.onnx")
    dec_path = os.path.join(out_dir, "decoder.onnx")
    cross, past, new = names("cross", L), names("past", L), names("new", L)
    with torch.no_grad():
        src = torch.tensor([[5, 6, 7, 8, 9]], dtype=torch.long)
        torch.onnx.export(EncoderGraph(model), (src,), enc_path, opset_version=OPSET,
                          input_names=["src"], output_names=cross,
                          dynamic_axes={"src": {1: "S"}, **{n: {2: "S"} for n in cross}})
        args = ((torch.tensor([7]), torch.tensor([3]))
                + tuple(torch.randn(1, h, 3, dh) for _ in past)
                + tuple(torch.randn(1, h, 5, dh) for _ in cross))
        torch.onnx.export(DecoderStepGraph(model), args, dec_path, opset_version=OPSET,
                          input_names=["prev", "pos"] + past + cross,
                          output_names=["logprobs"] + new,
                          dynamic_axes={**{n: {2: "t"} for n in past},
                                        **{n: {2: "t1"} for n in new},
                                        **{n: {2: "S"} for n in cross}})
    return enc_path, dec_path, write_trivial(out_dir)


def check(model: Transformer, sources, max_len=63):
    """The wrappers against Transformer.encode/step, greedy, on real sources: the same argmax
    at every step. Returns the largest |log-prob difference|; raises on a different argmax."""
    enc, dec = EncoderGraph(model), DecoderStepGraph(model)
    L, worst = model.cfg.dec_layers, 0.0
    with torch.no_grad():
        for ids in sources:
            ctx, state = model.encode(torch.tensor([ids]), torch.tensor([len(ids)]))
            cross = enc(torch.tensor([ids]))
            past = tuple(torch.zeros(1, model.cfg.heads, 0, model.cfg.d_head) for _ in range(2 * L))
            prev = torch.tensor([BOS])
            for t in range(max_len):
                ref_lp, _, state = model.step(prev, state, ctx)
                lp, *past = dec(prev, torch.tensor([t]), *past, *cross)
                worst = max(worst, float((lp - ref_lp).abs().max()))
                if int(lp.argmax()) != int(ref_lp.argmax()):
                    raise SystemExit(f"export_onnx_transformer: wrapper and reference disagree "
                                     f"on {ids} at step {t}")
                prev = lp.argmax(1)
                if int(prev) == EOS:
                    break
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoint", default=os.path.join(ROOT, "models/g2p-en-transformer"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build/bench/transformer/onnx-f32"))
    args = ap.parse_args()
    torch.set_num_threads(1)
    warnings.filterwarnings("ignore", category=UserWarning, module=r"torch\.onnx")
    warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
    model, sv, _ = load_checkpoint(args.checkpoint)
    if not isinstance(model, Transformer):
        raise SystemExit(f"export_onnx_transformer: {args.checkpoint} is not a Transformer "
                         "(export_onnx.py exports the LSTM)")
    worst = check(model, [sv.encode(tokenize_source(w, model.cfg.tokenizer))
                          for w in CHECK_WORDS])
    paths = export(model, args.out)
    print(f"export_onnx_transformer: wrote {' '.join(paths)} (wrappers match the reference, "
          f"max |dlogprob| {worst:.2e})")


if __name__ == "__main__":
    main()
