"""PyTorch reference of the edgenmt model family (docs/MODEL.md is the contract).

One ``Seq2Seq`` module covers every option of MODEL.md: LSTM/GRU cells, (bi)directional stacked
encoder over packed sequences (padding never reaches the recurrences), optional source
reversal, bridge or zero decoder init, stacked ``nn.LSTMCell``/``nn.GRUCell`` decoder, input
feeding, and attention none | global | local_m | local_p | bahdanau with dot | general | concat |
location scores. ``state_dict`` names are exactly the tensor names of MODEL.md.

APIs:
  * ``Seq2Seq.forward(src, src_len, tgt_in)``: teacher-forced; per-step log-probs [B, T, V] and
    attention weights [B, T, S] (None for attention "none").
  * ``Seq2Seq.encode(src, src_len)`` -> (EncoderContext, DecoderState) and
    ``Seq2Seq.step(prev, state, ctx)`` -> (log-probs [B, V], attention [B, S] | None, new state):
    the single-step decoder used by search.py.
"""
import dataclasses
import json
import math
from typing import List, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

PAD, UNK, BOS, EOS = 0, 1, 2, 3
SPECIALS = ["<pad>", "<unk>", "<s>", "</s>"]

CELLS = ("lstm", "gru")
ATTENTIONS = ("none", "global", "local_m", "local_p", "bahdanau")
SCORES = ("dot", "general", "concat", "location")
TOKENIZERS = ("char", "word")


class ConfigFile:
    """config.json I/O shared by both model types' config dataclasses (ModelConfig here,
    transformer.TransformerConfig): exact keys (unknown and missing ones refused), then the
    subclass's validate()."""

    @classmethod
    def from_dict(cls, d: dict):
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise ValueError(f"unknown config keys: {sorted(unknown)}")
        missing = {f.name for f in dataclasses.fields(cls)
                   if f.default is dataclasses.MISSING} - set(d)
        if missing:
            raise ValueError(f"missing config keys: {sorted(missing)}")
        return cls(**d).validate()

    @classmethod
    def load(cls, path: str):
        with open(path, encoding="utf-8") as f:
            return cls.from_dict(json.load(f))

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def save(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, indent=2)
            f.write("\n")


@dataclasses.dataclass
class ModelConfig(ConfigFile):
    """Exactly the keys of MODEL.md's config.json table."""
    cell: str
    src_vocab_size: int
    tgt_vocab_size: int
    src_embed: int
    tgt_embed: int
    enc_hidden: int
    enc_layers: int
    bidirectional: bool
    reverse_source: bool
    dec_hidden: int
    dec_layers: int
    bridge: bool
    input_feeding: bool
    attention: str
    score: str
    attn_hidden: int
    window: int
    max_src_len: int
    tokenizer: str
    dropout: float = 0.0

    @property
    def enc_out(self) -> int:
        """E: width of an encoder state."""
        return self.enc_hidden * (2 if self.bidirectional else 1)

    def validate(self) -> "ModelConfig":
        def need(cond, msg):
            if not cond:
                raise ValueError(f"invalid config: {msg}")
        need(self.cell in CELLS, f"cell {self.cell!r}")
        need(self.attention in ATTENTIONS, f"attention {self.attention!r}")
        need(self.score in SCORES, f"score {self.score!r}")
        need(self.tokenizer in TOKENIZERS, f"tokenizer {self.tokenizer!r}")
        for k in ("src_vocab_size", "tgt_vocab_size"):
            need(getattr(self, k) > len(SPECIALS), f"{k} must exceed {len(SPECIALS)}")
        for k in ("src_embed", "tgt_embed", "enc_hidden", "enc_layers", "dec_hidden",
                  "dec_layers", "attn_hidden", "window", "max_src_len"):
            need(getattr(self, k) >= 1, f"{k} must be >= 1")
        need(not (self.input_feeding and self.attention == "none"), "input_feeding needs attention")
        if self.attention in ("global", "local_m", "local_p") and self.score == "dot":
            need(self.enc_out == self.dec_hidden, "dot score needs E == H")
        if self.attention == "bahdanau":
            need(self.score == "concat", "bahdanau uses its additive score: set score \"concat\"")
        need(0.0 <= self.dropout < 1.0, "dropout in [0, 1)")
        return self


@dataclasses.dataclass
class EncoderContext:
    """Everything attention needs about the source, batch-first."""
    memory: torch.Tensor            # [B, S, E] encoder states h̄ (zeros at padding)
    keys: Optional[torch.Tensor]    # [B, S, A] W_k h̄ (+ b_k) for concat/bahdanau, else None
    mask: torch.Tensor              # [B, S] bool, True at real positions
    lengths: torch.Tensor           # [B] long, source lengths

    def index_select(self, idx: torch.Tensor) -> "EncoderContext":
        return EncoderContext(self.memory.index_select(0, idx),
                              None if self.keys is None else self.keys.index_select(0, idx),
                              self.mask.index_select(0, idx), self.lengths.index_select(0, idx))


@dataclasses.dataclass
class DecoderState:
    h: List[torch.Tensor]                    # per layer [B, H]
    c: Optional[List[torch.Tensor]]          # per layer [B, H] (LSTM only)
    feed: Optional[torch.Tensor]             # h̃_{t-1} [B, H] (input feeding only)
    t: int                                   # index of the next decoder step

    def index_select(self, idx: torch.Tensor) -> "DecoderState":
        return DecoderState([x.index_select(0, idx) for x in self.h],
                            None if self.c is None else [x.index_select(0, idx) for x in self.c],
                            None if self.feed is None else self.feed.index_select(0, idx), self.t)


class Encoder(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        rnn = nn.LSTM if cfg.cell == "lstm" else nn.GRU
        self.rnn = rnn(cfg.src_embed, cfg.enc_hidden, num_layers=cfg.enc_layers,
                       bidirectional=cfg.bidirectional, batch_first=True,
                       dropout=cfg.dropout if cfg.enc_layers > 1 else 0.0)

    def forward(self, emb, lengths):
        packed = pack_padded_sequence(emb, lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, final = self.rnn(packed)
        memory, _ = pad_packed_sequence(out, batch_first=True, total_length=emb.size(1))
        return memory, final


class BridgeLayer(nn.Module):
    """Maps the encoder's final state to one decoder layer's initial state."""
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.h = nn.Linear(cfg.enc_out, cfg.dec_hidden)
        self.c = nn.Linear(cfg.enc_out, cfg.dec_hidden) if cfg.cell == "lstm" else None


class Decoder(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        cell = nn.LSTMCell if cfg.cell == "lstm" else nn.GRUCell
        in0 = (cfg.tgt_embed + (cfg.enc_out if cfg.attention == "bahdanau" else 0)
               + (cfg.dec_hidden if cfg.input_feeding else 0))
        self.layers = nn.ModuleList(
            [cell(in0 if l == 0 else cfg.dec_hidden, cfg.dec_hidden) for l in range(cfg.dec_layers)])


class Attention(nn.Module):
    """attend(q) of MODEL.md: scores, window, weights a_t [B, S] and context c_t [B, E]."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.kind, self.score = cfg.attention, cfg.score
        self.window = cfg.window
        E, H, A = cfg.enc_out, cfg.dec_hidden, cfg.attn_hidden
        if self.kind == "bahdanau":
            self.query = nn.Linear(H, A, bias=False)
            self.key = nn.Linear(E, A, bias=True)
            self.v = nn.Linear(A, 1, bias=False)
        elif self.score == "general":
            self.linear_in = nn.Linear(H, E, bias=False)
        elif self.score == "concat":
            self.query = nn.Linear(H, A, bias=False)
            self.key = nn.Linear(E, A, bias=False)
            self.v = nn.Linear(A, 1, bias=False)
        elif self.score == "location":
            self.location = nn.Linear(H, cfg.max_src_len, bias=False)
        if self.kind == "local_p":
            self.predict_w = nn.Linear(H, A, bias=False)
            self.predict_v = nn.Linear(A, 1, bias=False)

    def uses_keys(self) -> bool:
        return self.kind == "bahdanau" or self.score == "concat"

    def precompute_keys(self, memory):
        return self.key(memory) if self.uses_keys() else None

    def scores(self, q, ctx: EncoderContext):
        S = ctx.memory.size(1)
        if self.uses_keys():
            return self.v(torch.tanh(self.query(q).unsqueeze(1) + ctx.keys)).squeeze(2)
        # Broadcast multiply-and-sum rather than bmm: same math, and bmm of these tiny
        # [B, S, E] x [B, E, 1] shapes is ~20 % of a CPU training step with OpenBLAS.
        if self.score == "dot":
            return (ctx.memory * q.unsqueeze(1)).sum(2)
        if self.score == "general":
            return (ctx.memory * self.linear_in(q).unsqueeze(1)).sum(2)
        return self.location(q)[:, :S]  # location

    def forward(self, q, ctx: EncoderContext, t: int):
        S = ctx.memory.size(1)
        scores = self.scores(q, ctx)
        pos = torch.arange(S, device=q.device, dtype=q.dtype).unsqueeze(0)       # [1, S]
        D = float(self.window)
        if self.kind in ("global", "bahdanau"):
            window = ctx.mask
        elif self.kind == "local_m":
            p = torch.clamp(ctx.lengths - 1, max=t).to(q.dtype).unsqueeze(1)      # min(t, S-1)
            window = ctx.mask & (pos >= p - D) & (pos <= p + D)
        else:  # local_p
            frac = torch.sigmoid(self.predict_v(torch.tanh(self.predict_w(q))))  # [B, 1]
            p = ctx.lengths.to(q.dtype).unsqueeze(1) * frac                     # in [0, S]
            lo = torch.clamp(torch.ceil(p - D), min=0.0)
            hi = torch.floor(p + D)        # the mask clips hi to S-1
            window = ctx.mask & (pos >= lo) & (pos <= hi)
        a = torch.softmax(scores.masked_fill(~window, float("-inf")), dim=1)
        if self.kind == "local_p":
            sigma = D / 2.0
            a = a * torch.exp(-((pos - p) ** 2) / (2.0 * sigma * sigma))   # not renormalised
        c = (a.unsqueeze(2) * ctx.memory).sum(1)
        return a, c


class Seq2Seq(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg.validate()
        E, H = cfg.enc_out, cfg.dec_hidden
        self.src_embed = nn.Embedding(cfg.src_vocab_size, cfg.src_embed)
        self.encoder = Encoder(cfg)
        self.bridge = nn.ModuleList([BridgeLayer(cfg) for _ in range(cfg.dec_layers)]) if cfg.bridge else None
        self.tgt_embed = nn.Embedding(cfg.tgt_vocab_size, cfg.tgt_embed)
        self.decoder = Decoder(cfg)
        self.attn = Attention(cfg) if cfg.attention != "none" else None
        self.attn_out = nn.Linear((E + H) if cfg.attention != "none" else H, H, bias=False)
        self.generator = nn.Linear(H, cfg.tgt_vocab_size)
        self.drop = nn.Dropout(cfg.dropout)

    # ---- encoder -------------------------------------------------------------------------
    @staticmethod
    def reverse_padded(src, lengths):
        """Reverses each row's first lengths[b] tokens; padding stays at the end."""
        B, S = src.shape
        pos = torch.arange(S, device=src.device).unsqueeze(0).expand(B, S)
        rev = lengths.unsqueeze(1) - 1 - pos
        idx = torch.where(rev >= 0, rev, pos)
        return src.gather(1, idx)

    def encode(self, src, src_len):
        """src [B, S] long (padded with <pad>, original order), src_len [B] long."""
        cfg = self.cfg
        if int(src_len.max()) > cfg.max_src_len:
            raise ValueError(f"source longer than max_src_len={cfg.max_src_len}")
        if int(src_len.min()) < 1:
            raise ValueError("empty source")
        S = int(src_len.max())
        src = src[:, :S]
        if cfg.reverse_source:
            src = self.reverse_padded(src, src_len)
        emb = self.drop(self.src_embed(src))
        memory, final = self.encoder(emb, src_len)
        mask = torch.arange(S, device=src.device).unsqueeze(0) < src_len.unsqueeze(1)
        keys = self.attn.precompute_keys(memory) if self.attn is not None else None
        ctx = EncoderContext(memory, keys, mask, src_len)
        return ctx, self.init_state(final, src.size(0), memory)

    def init_state(self, final, B, memory):
        cfg = self.cfg
        H, L = cfg.dec_hidden, cfg.dec_layers
        zeros = memory.new_zeros(B, H)
        if cfg.bridge:
            def top(x):  # final states [layers*dirs, B, h] -> top layer [B, E]
                return torch.cat([x[-2], x[-1]], dim=1) if cfg.bidirectional else x[-1]
            f_h = top(final[0] if cfg.cell == "lstm" else final)
            h = [torch.tanh(self.bridge[l].h(f_h)) for l in range(L)]
            if cfg.cell == "lstm":
                f_c = top(final[1])
                c = [self.bridge[l].c(f_c) for l in range(L)]
            else:
                c = None
        else:
            h = [zeros for _ in range(L)]
            c = [zeros for _ in range(L)] if cfg.cell == "lstm" else None
        return DecoderState(h, c, zeros if cfg.input_feeding else None, 0)

    # ---- decoder -------------------------------------------------------------------------
    def step(self, prev, state: DecoderState, ctx: EncoderContext):
        """One decoder step. prev [B] long -> (log-probs [B, V], a_t [B, S] | None, state)."""
        cfg = self.cfg
        parts = [self.drop(self.tgt_embed(prev))]
        a = c_t = None
        if cfg.attention == "bahdanau":
            a, c_t = self.attn(state.h[-1], ctx, state.t)
            parts.append(c_t)
        if cfg.input_feeding:
            parts.append(state.feed)
        x = torch.cat(parts, dim=1)
        new_h, new_c = [], ([] if cfg.cell == "lstm" else None)
        for l, cell in enumerate(self.decoder.layers):
            if l > 0:
                x = self.drop(x)
            if cfg.cell == "lstm":
                h, c = cell(x, (state.h[l], state.c[l]))
                new_c.append(c)
            else:
                h = cell(x, state.h[l])
            new_h.append(h)
            x = h
        h_top = x
        if cfg.attention in ("global", "local_m", "local_p"):
            a, c_t = self.attn(h_top, ctx, state.t)
        if cfg.attention == "none":
            h_tilde = torch.tanh(self.attn_out(h_top))
        else:
            h_tilde = torch.tanh(self.attn_out(torch.cat([c_t, h_top], dim=1)))
        h_tilde = self.drop(h_tilde)
        logprobs = F.log_softmax(self.generator(h_tilde), dim=-1)
        return logprobs, a, DecoderState(new_h, new_c, h_tilde if cfg.input_feeding else None,
                                         state.t + 1)

    def forward(self, src, src_len, tgt_in):
        """Teacher forcing. tgt_in [B, T] starts with <s>. Returns log-probs [B, T, V] and
        attention [B, T, S] (None for attention "none")."""
        ctx, state = self.encode(src, src_len)
        out, attn = [], []
        for t in range(tgt_in.size(1)):
            lp, a, state = self.step(tgt_in[:, t], state, ctx)
            out.append(lp)
            attn.append(a)
        return torch.stack(out, 1), (torch.stack(attn, 1) if self.attn is not None else None)


def count_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
