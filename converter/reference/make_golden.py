#!/usr/bin/env python3
"""Golden files for the C++ runtime tests (format: tests/data/golden/README.md).

  /usr/bin/python3 converter/reference/make_golden.py --which small    # 14 random-weight models
  /usr/bin/python3 converter/reference/make_golden.py --which shipped  # models/g2p-en (trained)

Small models: one per allowed attention × score combination (global, local_m, local_p × dot,
general, concat, location; bahdanau; none), random weights from fixed seeds, options varied so
that every cell / direction / reversal / bridge / input-feeding / layer-count choice is covered.
They use the shipped task's vocabularies (built from data/g2p/train.tsv exactly as train.py
does). Each is written as a checkpoint directory tests/data/golden/<name>/ with its golden.json;
the shipped model's golden.json goes to tests/data/golden/g2p-en/ and points at models/g2p-en.

Golden words: 200 distinct words of data/g2p/test.tsv, every (n_words // 200)-th in file order;
the teacher-forced target is the word's first listed pronunciation.
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

from checkpoint import Vocab, load_checkpoint, save_checkpoint, tokenize_source  # noqa: E402
from g2p_metrics import read_tsv  # noqa: E402
from model import BOS, EOS, ModelConfig, Seq2Seq  # noqa: E402
from transformer import Transformer, TransformerConfig  # noqa: E402
from search import DecodeOptions, decode  # noqa: E402
from train_step import load_pairs  # noqa: E402

N_WORDS = 200
N_FULL = 20          # words with full log-prob vectors and attention weights
DECIMALS = 6
INIT_RANGE = 0.5     # random weights ~ U(-0.5, 0.5): peakier than PyTorch's default init
EOS_BIAS = 1.0       # added to generator.bias[</s>] so random models end some hypotheses early
# Models whose random weights already favour </s>: a lower bias gives a mix of output lengths.
EOS_BIAS_OVERRIDE = {"global_concat": 0.75, "local_m_dot": -0.2, "local_p_concat": 0.75,
                     "transformer_pre": 1.1, "transformer_post": -0.2}
SMALL_MAX_LEN = 12

# name, seed, options (the rest of the config comes from the vocabularies and defaults below)
SMALL_MODELS = [
    ("global_dot", dict(cell="lstm", bidirectional=False, enc_hidden=24, dec_hidden=24, enc_layers=1,
                        dec_layers=1, bridge=True, input_feeding=True, reverse_source=False,
                        attention="global", score="dot", src_embed=8, tgt_embed=12)),
    ("global_general", dict(cell="gru", bidirectional=True, enc_hidden=12, dec_hidden=32, enc_layers=2,
                            dec_layers=2, bridge=True, input_feeding=False, reverse_source=True,
                            attention="global", score="general", src_embed=16, tgt_embed=8)),
    ("global_concat", dict(cell="lstm", bidirectional=True, enc_hidden=16, dec_hidden=24, enc_layers=1,
                           dec_layers=2, bridge=False, input_feeding=True, reverse_source=False,
                           attention="global", score="concat", attn_hidden=12)),
    ("global_location", dict(cell="gru", bidirectional=False, enc_hidden=20, dec_hidden=16, enc_layers=2,
                             dec_layers=1, bridge=True, input_feeding=True, reverse_source=True,
                             attention="global", score="location")),
    ("local_m_dot", dict(cell="gru", bidirectional=True, enc_hidden=8, dec_hidden=16, enc_layers=1,
                         dec_layers=1, bridge=False, input_feeding=True, reverse_source=False,
                         attention="local_m", score="dot", window=2)),
    ("local_m_general", dict(cell="lstm", bidirectional=False, enc_hidden=32, dec_hidden=24, enc_layers=2,
                             dec_layers=2, bridge=True, input_feeding=False, reverse_source=True,
                             attention="local_m", score="general", window=3)),
    ("local_m_concat", dict(cell="gru", bidirectional=True, enc_hidden=16, dec_hidden=32, enc_layers=2,
                            dec_layers=1, bridge=True, input_feeding=True, reverse_source=False,
                            attention="local_m", score="concat", window=1, attn_hidden=16)),
    ("local_m_location", dict(cell="lstm", bidirectional=True, enc_hidden=12, dec_hidden=20, enc_layers=1,
                              dec_layers=2, bridge=False, input_feeding=False, reverse_source=True,
                              attention="local_m", score="location", window=2)),
    ("local_p_dot", dict(cell="lstm", bidirectional=True, enc_hidden=16, dec_hidden=32, enc_layers=2,
                         dec_layers=1, bridge=True, input_feeding=True, reverse_source=False,
                         attention="local_p", score="dot", window=2, attn_hidden=16)),
    ("local_p_general", dict(cell="gru", bidirectional=False, enc_hidden=24, dec_hidden=16, enc_layers=1,
                             dec_layers=2, bridge=True, input_feeding=True, reverse_source=True,
                             attention="local_p", score="general", window=3, attn_hidden=8)),
    ("local_p_concat", dict(cell="lstm", bidirectional=False, enc_hidden=16, dec_hidden=16, enc_layers=1,
                            dec_layers=1, bridge=False, input_feeding=True, reverse_source=False,
                            attention="local_p", score="concat", window=1, attn_hidden=12)),
    ("local_p_location", dict(cell="gru", bidirectional=True, enc_hidden=16, dec_hidden=24, enc_layers=2,
                              dec_layers=2, bridge=False, input_feeding=False, reverse_source=False,
                              attention="local_p", score="location", window=4, attn_hidden=16)),
    ("bahdanau", dict(cell="lstm", bidirectional=True, enc_hidden=16, dec_hidden=32, enc_layers=1,
                      dec_layers=2, bridge=True, input_feeding=True, reverse_source=False,
                      attention="bahdanau", score="concat", attn_hidden=16)),
    ("none", dict(cell="gru", bidirectional=True, enc_hidden=16, dec_hidden=24, enc_layers=2,
                  dec_layers=1, bridge=True, input_feeding=False, reverse_source=True,
                  attention="none", score="general")),
]
# The Transformer (model_type "transformer"): every option is covered by one of the two.
TRANSFORMER_MODELS = [
    ("transformer_pre", dict(d_model=16, heads=2, ffn=24, enc_layers=2, dec_layers=2,
                             activation="relu", norm="pre", positions="sinusoidal",
                             tie_output=True)),
    ("transformer_post", dict(d_model=24, heads=3, ffn=20, enc_layers=1, dec_layers=2,
                              activation="gelu", norm="post", positions="learned",
                              tie_output=False)),
]
TRANSFORMER_DEFAULTS = dict(model_type="transformer", max_src_len=32, max_tgt_len=32,
                            tokenizer="char", dropout=0.0)
SMALL_DEFAULTS = dict(src_embed=12, tgt_embed=16, attn_hidden=10, window=2, max_src_len=32,
                      tokenizer="char", dropout=0.0)


def small_decode_options(i):
    """Varies α/β, min_len and max_len_ratio across the small models."""
    greedy = DecodeOptions(beam=1, nbest=1, max_len=SMALL_MAX_LEN,
                           min_len=2 if i % 3 == 0 else 0,
                           max_len_ratio=1.5 if i % 4 == 1 else 0.0)
    lp = i % 2 == 0
    beam = DecodeOptions(beam=5, nbest=5, alpha=0.6 if lp else 0.0, beta=0.2 if lp else 0.0,
                         max_len=SMALL_MAX_LEN, min_len=greedy.min_len,
                         max_len_ratio=greedy.max_len_ratio)
    return [("greedy", greedy), ("beam5", beam)]


def shipped_decode_options():
    return [("greedy", DecodeOptions(beam=1, nbest=1, max_len=64)),
            ("beam5", DecodeOptions(beam=5, nbest=5, max_len=64)),
            ("beam5_lp_cp", DecodeOptions(beam=5, nbest=5, alpha=0.6, beta=0.2, max_len=64))]


def task_vocabs(data_dir):
    pairs = load_pairs(os.path.join(data_dir, "train.tsv"), "char")
    return (Vocab.build(c for s, _ in pairs for c in s), Vocab.build(p for _, y in pairs for p in y))


def golden_words(test_tsv):
    refs = read_tsv(test_tsv)
    words = list(refs)
    stride = len(words) // N_WORDS
    chosen = [words[i * stride] for i in range(N_WORDS)]
    return [(w, refs[w][0]) for w in chosen]


def rnd(x):
    v = round(float(x), DECIMALS)
    if math.isinf(v) or math.isnan(v):
        raise ValueError("non-finite value in golden data")
    return v


def hyp_json(h):
    return {"ids": h.tokens, "logprob": rnd(h.logprob), "score": rnd(h.score), "ended": h.ended}


@torch.no_grad()
def word_record(model, src_vocab, tgt_vocab, word, pron, searches, full):
    src = src_vocab.encode(tokenize_source(word, model.cfg.tokenizer))
    tgt = tgt_vocab.encode(pron)
    src_t = torch.tensor([src])
    tgt_in = torch.tensor([[BOS] + tgt])
    gold = tgt + [EOS]
    logprobs, attn = model(src_t, torch.tensor([len(src)]), tgt_in)
    logprobs = logprobs[0]
    top2 = logprobs.topk(2, dim=1).values
    tf = {"ref_logprob": [rnd(logprobs[t, y]) for t, y in enumerate(gold)],
          "argmax": [int(i) for i in logprobs.argmax(dim=1)],
          "argmax_margin": [rnd(a - b) for a, b in top2.tolist()]}
    if full:
        tf["logprobs"] = [[rnd(v) for v in row] for row in logprobs]
        if attn is not None:
            tf["attention"] = [[rnd(v) for v in row] for row in attn[0]]
    rec = {"word": word, "src": src, "tgt": tgt, "teacher_forced": tf, "search": {}}
    for name, opts in searches:
        stats = {}
        hyps = decode(model, src, opts, stats)
        rec["search"][name] = {"margin": None if stats["margin"] is None else rnd(stats["margin"]),
                               "hyps": [hyp_json(h) for h in hyps]}
    return rec


def write_golden(model, src_vocab, tgt_vocab, words, searches, checkpoint_rel, out_path, extra):
    model.eval()
    recs = [word_record(model, src_vocab, tgt_vocab, w, p, searches, i < N_FULL)
            for i, (w, p) in enumerate(words)]
    doc = {"format": "edgenmt-golden-1", "checkpoint": checkpoint_rel, "config": model.cfg.to_dict(),
           "full_words": N_FULL, "decimals": DECIMALS,
           "searches": [{"name": n, "options": vars(o)} for n, o in searches],
           **extra, "words": recs}
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    ended = sum(r["search"]["greedy"]["hyps"][0]["ended"] for r in recs)
    print(f"{out_path}: {os.path.getsize(out_path) / 1024:.0f} KiB, greedy ended with </s>: "
          f"{ended}/{len(recs)}", flush=True)


def random_model(cfg, seed: int, eos_bias: float):
    torch.manual_seed(seed)
    model = Transformer(cfg) if isinstance(cfg, TransformerConfig) else Seq2Seq(cfg)
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in sorted(model.named_parameters()):
            p.copy_(torch.rand(p.shape, generator=gen) * (2 * INIT_RANGE) - INIT_RANGE)
        model.generator.bias[EOS] += eos_bias
    return model.eval()


def make_small(args, words, src_vocab, tgt_vocab):
    for i, (name, opts) in enumerate(SMALL_MODELS):
        if args.only and name not in args.only:
            continue
        seed = 1000 + i
        cfg = ModelConfig.from_dict(dict(SMALL_DEFAULTS, **opts, src_vocab_size=len(src_vocab),
                                         tgt_vocab_size=len(tgt_vocab)))
        model = random_model(cfg, seed, EOS_BIAS_OVERRIDE.get(name, EOS_BIAS))
        out_dir = os.path.join(args.out, name)
        save_checkpoint(model, src_vocab, tgt_vocab, out_dir, {"seed": str(seed), "weights": "random"})
        # Golden data comes from the checkpoint as written (float32 round trip is exact).
        model, sv, tv = load_checkpoint(out_dir)
        write_golden(model, sv, tv, words, small_decode_options(i),
                     os.path.relpath(out_dir, args.root), os.path.join(out_dir, "golden.json"),
                     {"name": name, "seed": seed})


def make_transformers(args, words, src_vocab, tgt_vocab):
    base = len(SMALL_MODELS)
    for i, (name, opts) in enumerate(TRANSFORMER_MODELS):
        if args.only and name not in args.only:
            continue
        seed = 2000 + i
        cfg = TransformerConfig.from_dict(dict(TRANSFORMER_DEFAULTS, **opts,
                                               src_vocab_size=len(src_vocab),
                                               tgt_vocab_size=len(tgt_vocab)))
        model = random_model(cfg, seed, EOS_BIAS_OVERRIDE.get(name, EOS_BIAS))
        out_dir = os.path.join(args.out, name)
        save_checkpoint(model, src_vocab, tgt_vocab, out_dir, {"seed": str(seed), "weights": "random"})
        model, sv, tv = load_checkpoint(out_dir)
        write_golden(model, sv, tv, words, small_decode_options(base + i),
                     os.path.relpath(out_dir, args.root), os.path.join(out_dir, "golden.json"),
                     {"name": name, "seed": seed})


def make_shipped(args, words, src_vocab, tgt_vocab):
    model, sv, tv = load_checkpoint(args.shipped)
    if sv.tokens != src_vocab.tokens or tv.tokens != tgt_vocab.tokens:
        raise SystemExit(f"{args.shipped}: vocabularies differ from the ones built from {args.data}")
    out_dir = os.path.join(args.out, "g2p-en")
    os.makedirs(out_dir, exist_ok=True)
    write_golden(model, sv, tv, words, shipped_decode_options(), os.path.relpath(args.shipped, args.root),
                 os.path.join(out_dir, "golden.json"), {"name": "g2p-en"})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--which", choices=["small", "shipped", "all"], default="all")
    ap.add_argument("--root", default=".", help="repository root (paths in JSON are relative to it)")
    ap.add_argument("--data", default="data/g2p")
    ap.add_argument("--shipped", default="models/g2p-en")
    ap.add_argument("--out", default="tests/data/golden")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--only", nargs="*", help="small models to (re)generate (default: all)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    words = golden_words(os.path.join(args.data, "test.tsv"))
    src_vocab, tgt_vocab = task_vocabs(args.data)
    if args.which in ("small", "all"):
        make_small(args, words, src_vocab, tgt_vocab)
        make_transformers(args, words, src_vocab, tgt_vocab)
    if args.which in ("shipped", "all"):
        make_shipped(args, words, src_vocab, tgt_vocab)


if __name__ == "__main__":
    main()
