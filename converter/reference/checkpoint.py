"""Checkpoint directories (MODEL.md "Checkpoint directory"): config, weights, vocabularies."""
import json
import os
from typing import Dict, List, Tuple, Union

import torch

from model import SPECIALS, UNK, ModelConfig, Seq2Seq
from safetensors_io import load_file, save_file
from transformer import Transformer, TransformerConfig

AnyConfig = Union[ModelConfig, TransformerConfig]
AnyModel = Union[Seq2Seq, Transformer]


def config_from_dict(d: dict) -> AnyConfig:
    """config.json's model_type picks the family: "rnn" (or absent) or "transformer"."""
    kind = d.get("model_type", "rnn")
    if kind == "transformer":
        return TransformerConfig.from_dict(d)
    if kind != "rnn":
        raise ValueError(f"unknown model_type {kind!r} (rnn or transformer)")
    return ModelConfig.from_dict({k: v for k, v in d.items() if k != "model_type"})


def build_model(cfg: AnyConfig) -> AnyModel:
    return Transformer(cfg) if isinstance(cfg, TransformerConfig) else Seq2Seq(cfg)


class Vocab:
    """Line i is id i; ids 0..3 are <pad> <unk> <s> </s>."""

    def __init__(self, tokens: List[str]):
        if tokens[:len(SPECIALS)] != SPECIALS:
            raise ValueError(f"vocab must start with {SPECIALS}")
        if len(set(tokens)) != len(tokens):
            raise ValueError("vocab has duplicate tokens")
        self.tokens = list(tokens)
        self.index: Dict[str, int] = {t: i for i, t in enumerate(tokens)}

    @classmethod
    def build(cls, symbols) -> "Vocab":
        return cls(SPECIALS + sorted(set(symbols) - set(SPECIALS)))

    @classmethod
    def load(cls, path: str) -> "Vocab":
        with open(path, encoding="utf-8") as f:
            return cls([line.rstrip("\n") for line in f])

    def save(self, path: str) -> None:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            for t in self.tokens:
                f.write(t + "\n")

    def __len__(self) -> int:
        return len(self.tokens)

    def encode(self, symbols) -> List[int]:
        return [self.index.get(s, UNK) for s in symbols]

    def decode(self, ids) -> List[str]:
        return [self.tokens[i] for i in ids]


def tokenize_source(text: str, tokenizer: str) -> List[str]:
    return list(text) if tokenizer == "char" else text.split()


def save_checkpoint(model: AnyModel, src_vocab: Vocab, tgt_vocab: Vocab, out_dir: str,
                    metadata: Dict[str, str] = None) -> None:
    os.makedirs(out_dir, exist_ok=True)
    cfg = model.cfg
    if cfg.src_vocab_size != len(src_vocab) or cfg.tgt_vocab_size != len(tgt_vocab):
        raise ValueError("vocab sizes disagree with the config")
    cfg.save(os.path.join(out_dir, "config.json"))
    save_file(model.state_dict(), os.path.join(out_dir, "model.safetensors"), metadata)
    src_vocab.save(os.path.join(out_dir, "src.vocab"))
    tgt_vocab.save(os.path.join(out_dir, "tgt.vocab"))


def load_checkpoint(model_dir: str) -> Tuple[AnyModel, Vocab, Vocab]:
    with open(os.path.join(model_dir, "config.json"), encoding="utf-8") as f:
        cfg = config_from_dict(json.load(f))
    src_vocab = Vocab.load(os.path.join(model_dir, "src.vocab"))
    tgt_vocab = Vocab.load(os.path.join(model_dir, "tgt.vocab"))
    if cfg.src_vocab_size != len(src_vocab) or cfg.tgt_vocab_size != len(tgt_vocab):
        raise ValueError("vocab files disagree with config.json")
    model = build_model(cfg)
    tensors, _ = load_file(os.path.join(model_dir, "model.safetensors"))
    model.load_state_dict(tensors, strict=True)
    model.eval()
    return model, src_vocab, tgt_vocab
