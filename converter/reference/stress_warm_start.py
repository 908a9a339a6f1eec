#!/usr/bin/env python3
"""A stressless checkpoint widened to the stressed phoneme set: the warm start of the models
with stress (recipes g2p-en-stress and g2p-en-stress-mcu).

Every weight is copied from the stressless model; each row indexed by a target token (the target
embedding, and with it the tied output matrix, and the output bias) of a stressed phoneme such as
``AH1`` starts as a copy of its stressless phoneme's row (``AH``), and the specials keep theirs.
Training then only has to learn where the stress falls: the encoder, the attention and the
phoneme identities are already known. The target vocabulary is the one train.py builds from the
stressed training split, so train.py --init-from accepts the result.

Usage: /usr/bin/python3 converter/reference/stress_warm_start.py --from models/g2p-en-transformer
           --data data/g2p-stress --out build/g2p-en-stress-init
"""
import argparse
import os
import re
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint import (Vocab, build_model, config_from_dict, load_checkpoint,  # noqa: E402
                        save_checkpoint)
from train_step import load_pairs  # noqa: E402

STRESS_DIGIT = re.compile(r"[012]$")


def widen(source_dir, data_dir, out_dir):
    old_model, src_vocab, old_tgt = load_checkpoint(source_dir)
    pairs = load_pairs(os.path.join(data_dir, "train.tsv"), old_model.cfg.tokenizer)
    new_src = Vocab.build(c for s, _ in pairs for c in s)
    new_tgt = Vocab.build(p for _, y in pairs for p in y)
    if list(new_src.tokens) != list(src_vocab.tokens):
        raise SystemExit(f"{data_dir}: source characters differ from {source_dir}'s")
    row_of = []
    for token in new_tgt.tokens:
        base = STRESS_DIGIT.sub("", token)
        if base not in old_tgt.index:
            raise SystemExit(f"{token}: no stressless phoneme {base} in {source_dir}")
        row_of.append(old_tgt.index[base])
    cfg = config_from_dict(dict(old_model.cfg.to_dict(), tgt_vocab_size=len(new_tgt)))
    model = build_model(cfg)
    old_state = old_model.state_dict()
    new_state = model.state_dict()
    index = torch.tensor(row_of)
    for name, tensor in new_state.items():
        old = old_state[name]
        if old.shape == tensor.shape:
            tensor.copy_(old)
        elif old.shape[0] == len(old_tgt) and tensor.shape[0] == len(new_tgt):
            tensor.copy_(old.index_select(0, index))
        else:
            raise SystemExit(f"{name}: shapes {tuple(old.shape)} -> {tuple(tensor.shape)}")
    model.load_state_dict(new_state, strict=True)
    save_checkpoint(model, src_vocab, new_tgt, out_dir)
    print(f"{out_dir}: {len(old_tgt)} -> {len(new_tgt)} target tokens, from {source_dir}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--from", dest="source", required=True)
    ap.add_argument("--data", default="data/g2p-stress")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    widen(args.source, args.data, args.out)


if __name__ == "__main__":
    main()
