#!/usr/bin/python3
"""Saves a model built with the reference modules (model.Seq2Seq, transformer.Transformer) as a
checkpoint directory
edgenmt-convert reads (converter/README.md "Checkpoint format"):

    from export import export_checkpoint
    export_checkpoint(model, src_tokens, tgt_tokens, "my-checkpoint")   # in your training code

or, from a state_dict saved with torch.save(model.state_dict(), "model.pt"):

    /usr/bin/python3 converter/reference/export.py --config config.json --state-dict model.pt \\
        --src-vocab src.txt --tgt-vocab tgt.txt --out my-checkpoint

Vocabularies are token lists (one per line in the files); <pad> <unk> <s> </s> are put first
when missing. Before writing, every tensor is checked (the names and shapes the config implies,
float32, finite), and after writing the directory is loaded back and must reproduce the model's
outputs, so a directory this writes converts.
"""
import argparse
import os
import sys
from typing import Dict, List, Optional, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import json  # noqa: E402

from checkpoint import (SPECIALS, AnyModel, Vocab, build_model, config_from_dict,  # noqa: E402
                        load_checkpoint, save_checkpoint)


def with_specials(tokens: Sequence[str]) -> List[str]:
    """SPECIALS followed by `tokens` without them (ids 0..3 are always <pad> <unk> <s> </s>)."""
    return list(SPECIALS) + [t for t in tokens if t not in SPECIALS]


def check_tensors(model: AnyModel) -> None:
    """The state_dict a fresh model of the same config has: same names and shapes, finite."""
    expected = {name: tuple(t.shape) for name, t in build_model(model.cfg).state_dict().items()}
    actual = model.state_dict()
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    if missing or extra:
        raise ValueError(f"state_dict does not match the config: missing {missing}, extra {extra}")
    for name, tensor in actual.items():
        if tuple(tensor.shape) != expected[name]:
            raise ValueError(f"{name}: shape {list(tensor.shape)}, the config needs {list(expected[name])}")
        if not torch.isfinite(tensor.float()).all():
            raise ValueError(f"{name}: holds NaN or Inf")


@torch.no_grad()
def _probe_outputs(model: AnyModel, cfg):
    """Teacher-forced log-probs of a fixed pseudo-random batch: a fingerprint of the weights."""
    generator = torch.Generator().manual_seed(0)
    length = min(cfg.max_src_len, 5)
    src = torch.randint(4, cfg.src_vocab_size, (2, length), generator=generator)
    tgt = torch.randint(4, cfg.tgt_vocab_size, (2, 4), generator=generator)
    tgt[:, 0] = 2  # <s>
    model.eval()
    return model(src, torch.tensor([length, length]), tgt)[0]


def export_checkpoint(model: AnyModel, src_tokens: Sequence[str], tgt_tokens: Sequence[str],
                      out_dir: str, metadata: Optional[Dict[str, str]] = None) -> None:
    """Writes out_dir/{config.json, model.safetensors, src.vocab, tgt.vocab} and verifies it."""
    src_vocab, tgt_vocab = Vocab(with_specials(src_tokens)), Vocab(with_specials(tgt_tokens))
    cfg = model.cfg.validate()
    if len(src_vocab) != cfg.src_vocab_size or len(tgt_vocab) != cfg.tgt_vocab_size:
        raise ValueError(f"vocabularies have {len(src_vocab)} and {len(tgt_vocab)} tokens, the "
                         f"config says {cfg.src_vocab_size} and {cfg.tgt_vocab_size}")
    check_tensors(model)
    save_checkpoint(model, src_vocab, tgt_vocab, out_dir, metadata)
    reloaded, _, _ = load_checkpoint(out_dir)
    if not torch.equal(_probe_outputs(model, cfg), _probe_outputs(reloaded, cfg)):
        raise RuntimeError(f"{out_dir}: the saved checkpoint does not reproduce the model")


def read_tokens(path: str) -> List[str]:
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.rstrip("\n")]


def main():
    parser = argparse.ArgumentParser(description="state_dict + config -> edgenmt checkpoint directory")
    parser.add_argument("--config", required=True, help="config.json (docs/MODEL.md keys)")
    parser.add_argument("--state-dict", required=True, help="torch.save(model.state_dict()) file")
    parser.add_argument("--src-vocab", required=True, help="source tokens, one per line")
    parser.add_argument("--tgt-vocab", required=True, help="target tokens, one per line")
    parser.add_argument("--out", required=True, help="checkpoint directory to write")
    args = parser.parse_args()
    with open(args.config, encoding="utf-8") as f:
        model = build_model(config_from_dict(json.load(f)))
    model.load_state_dict(torch.load(args.state_dict, map_location="cpu"), strict=True)
    export_checkpoint(model, read_tokens(args.src_vocab), read_tokens(args.tgt_vocab), args.out)
    print(f"export: wrote {args.out}")


if __name__ == "__main__":
    main()
