"""PyTorch reference of edgenmt's second model type: the Transformer encoder-decoder
(Vaswani et al. 2017; docs/MODEL.md "Transformer" is the contract).

Options: layers (encoder and decoder), ``d_model``, ``heads``, FFN width, ReLU or GELU (erf),
pre- or post-norm, sinusoidal or learned positions, tied output embedding, dropout. Label
smoothing is a training option (train.py ``--label-smoothing``).

Written out, not nn.Transformer, so that every ``state_dict`` name is a tensor name of MODEL.md
and incremental decoding (one token at a time, with per-layer key/value caches) is the same
arithmetic as the teacher-forced pass:
  * embeddings are scaled by sqrt(d_model), then the position row is added (positions live in
    the state_dict in both modes: a fixed buffer for sinusoidal, a parameter for learned, so a
    runtime never computes sin/cos);
  * attention: per head softmax(q k^T / sqrt(d_head)) v over the unmasked keys;
  * pre-norm: x + f(LN(x)) per sublayer and a final LN on each stack; post-norm: LN(x + f(x));
  * the generator is ``generator.bias`` plus either ``generator.weight`` or, tied, the target
    embedding matrix.

Same interface as model.Seq2Seq, so search.py, evaluate.py and train.py serve both:
``forward(src, src_len, tgt_in)`` -> (log-probs [B, T, V], attention [B, T, S]);
``encode`` -> (TransformerContext, TransformerState); ``step(prev, state, ctx)`` -> (log-probs
[B, V], attention [B, S], state). The attention returned (for coverage and ``--alignments``) is
the last decoder layer's cross-attention averaged over its heads.
"""
import dataclasses
import math
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F

from model import SPECIALS, TOKENIZERS, ConfigFile

ACTIVATIONS = ("relu", "gelu")
NORMS = ("pre", "post")
POSITIONS = ("sinusoidal", "learned")
LAYER_NORM_EPS = 1e-5


@dataclasses.dataclass
class TransformerConfig(ConfigFile):
    """The keys of MODEL.md's Transformer config.json table (I/O: model.ConfigFile)."""
    src_vocab_size: int
    tgt_vocab_size: int
    d_model: int
    heads: int
    ffn: int
    enc_layers: int
    dec_layers: int
    activation: str
    norm: str
    positions: str
    tie_output: bool
    max_src_len: int
    max_tgt_len: int
    tokenizer: str
    dropout: float = 0.0
    model_type: str = "transformer"

    @property
    def d_head(self) -> int:
        return self.d_model // self.heads

    def validate(self) -> "TransformerConfig":
        def need(cond, msg):
            if not cond:
                raise ValueError(f"invalid config: {msg}")
        need(self.model_type == "transformer", f"model_type {self.model_type!r}")
        need(self.activation in ACTIVATIONS, f"activation {self.activation!r}")
        need(self.norm in NORMS, f"norm {self.norm!r}")
        need(self.positions in POSITIONS, f"positions {self.positions!r}")
        need(self.tokenizer in TOKENIZERS, f"tokenizer {self.tokenizer!r}")
        for k in ("src_vocab_size", "tgt_vocab_size"):
            need(getattr(self, k) > len(SPECIALS), f"{k} must exceed {len(SPECIALS)}")
        for k in ("d_model", "heads", "ffn", "enc_layers", "dec_layers", "max_src_len",
                  "max_tgt_len"):
            need(getattr(self, k) >= 1, f"{k} must be >= 1")
        need(self.d_model % self.heads == 0, "d_model must be a multiple of heads")
        need(0.0 <= self.dropout < 1.0, "dropout in [0, 1)")
        return self


def sinusoid_table(rows: int, d: int) -> torch.Tensor:
    """Vaswani et al.'s table: row p, column 2i = sin(p / 10000^(2i/d)), 2i+1 = cos(...)."""
    pos = torch.arange(rows, dtype=torch.float64).unsqueeze(1)
    i = torch.arange(0, d, 2, dtype=torch.float64)
    angle = pos / torch.pow(10000.0, i / d)
    table = torch.zeros(rows, d, dtype=torch.float64)
    table[:, 0::2] = torch.sin(angle)
    table[:, 1::2] = torch.cos(angle)[:, :d // 2]
    return table.to(torch.float32)


class MultiHeadAttention(nn.Module):
    def __init__(self, d: int, heads: int, dropout: float):
        super().__init__()
        self.heads, self.d_head = heads, d // heads
        self.q_proj = nn.Linear(d, d)
        self.k_proj = nn.Linear(d, d)
        self.v_proj = nn.Linear(d, d)
        self.out_proj = nn.Linear(d, d)
        self.drop = nn.Dropout(dropout)

    def split(self, x):  # [B, L, d] -> [B, heads, L, d_head]
        B, L, _ = x.shape
        return x.view(B, L, self.heads, self.d_head).transpose(1, 2)

    def attend(self, q, k, v, mask):
        """q [B, h, T, dh], k/v [B, h, S, dh], mask broadcastable to [B, h, T, S] (True = keep).
        Returns the output [B, T, d] and the weights [B, h, T, S]."""
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d_head)
        weights = torch.softmax(scores.float().masked_fill(~mask, float("-inf")), dim=-1)
        out = torch.matmul(self.drop(weights), v)
        B, h, T, dh = out.shape
        return self.out_proj(out.transpose(1, 2).reshape(B, T, h * dh)), weights


class EncoderLayer(nn.Module):
    """norm1 guards self-attention, norm2 the feed-forward block."""
    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        d = cfg.d_model
        self.self_attn = MultiHeadAttention(d, cfg.heads, cfg.dropout)
        self.norm1 = nn.LayerNorm(d, eps=LAYER_NORM_EPS)
        self.linear1 = nn.Linear(d, cfg.ffn)
        self.linear2 = nn.Linear(cfg.ffn, d)
        self.norm2 = nn.LayerNorm(d, eps=LAYER_NORM_EPS)


class DecoderLayer(nn.Module):
    """norm1 guards self-attention, norm2 cross-attention, norm3 the feed-forward block."""
    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        d = cfg.d_model
        self.self_attn = MultiHeadAttention(d, cfg.heads, cfg.dropout)
        self.norm1 = nn.LayerNorm(d, eps=LAYER_NORM_EPS)
        self.cross_attn = MultiHeadAttention(d, cfg.heads, cfg.dropout)
        self.norm2 = nn.LayerNorm(d, eps=LAYER_NORM_EPS)
        self.linear1 = nn.Linear(d, cfg.ffn)
        self.linear2 = nn.Linear(cfg.ffn, d)
        self.norm3 = nn.LayerNorm(d, eps=LAYER_NORM_EPS)


@dataclasses.dataclass
class TransformerContext:
    """The source side every decoder step reads: cross-attention keys and values per layer."""
    keys: List[torch.Tensor]      # per decoder layer [B, h, S, dh]
    values: List[torch.Tensor]    # per decoder layer [B, h, S, dh]
    mask: torch.Tensor            # [B, S] bool, True at real positions
    lengths: torch.Tensor         # [B] long

    def index_select(self, idx: torch.Tensor) -> "TransformerContext":
        return TransformerContext([k.index_select(0, idx) for k in self.keys],
                                  [v.index_select(0, idx) for v in self.values],
                                  self.mask.index_select(0, idx), self.lengths.index_select(0, idx))


@dataclasses.dataclass
class TransformerState:
    """Self-attention keys and values of the steps so far, per decoder layer [B, h, t, dh]."""
    keys: List[torch.Tensor]
    values: List[torch.Tensor]
    t: int

    def index_select(self, idx: torch.Tensor) -> "TransformerState":
        return TransformerState([k.index_select(0, idx) for k in self.keys],
                                [v.index_select(0, idx) for v in self.values], self.t)


class Transformer(nn.Module):
    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.cfg = cfg.validate()
        d = cfg.d_model
        self.src_embed = nn.Embedding(cfg.src_vocab_size, d)
        self.tgt_embed = nn.Embedding(cfg.tgt_vocab_size, d)
        if cfg.positions == "learned":
            self.src_pos = nn.Parameter(torch.randn(cfg.max_src_len, d) * 0.02)
            self.tgt_pos = nn.Parameter(torch.randn(cfg.max_tgt_len, d) * 0.02)
        else:
            self.register_buffer("src_pos", sinusoid_table(cfg.max_src_len, d))
            self.register_buffer("tgt_pos", sinusoid_table(cfg.max_tgt_len, d))
        self.encoder = nn.ModuleList([EncoderLayer(cfg) for _ in range(cfg.enc_layers)])
        self.decoder = nn.ModuleList([DecoderLayer(cfg) for _ in range(cfg.dec_layers)])
        if cfg.norm == "pre":
            self.encoder_norm = nn.LayerNorm(d, eps=LAYER_NORM_EPS)
            self.decoder_norm = nn.LayerNorm(d, eps=LAYER_NORM_EPS)
        self.generator = nn.Linear(d, cfg.tgt_vocab_size)
        if cfg.tie_output:
            del self.generator.weight   # the target embedding is the output matrix
        self.drop = nn.Dropout(cfg.dropout)
        nn.init.normal_(self.src_embed.weight, std=d ** -0.5)
        nn.init.normal_(self.tgt_embed.weight, std=d ** -0.5)

    # ---- building blocks ------------------------------------------------------------------
    def sublayer(self, x, norm, f):
        if self.cfg.norm == "pre":
            return x + self.drop(f(norm(x)))
        return norm(x + self.drop(f(x)))

    def ffn(self, layer, x):
        h = layer.linear1(x)
        h = F.relu(h) if self.cfg.activation == "relu" else F.gelu(h)
        return layer.linear2(self.drop(h))

    def output_weight(self):
        return self.tgt_embed.weight if self.cfg.tie_output else self.generator.weight

    def logprobs(self, x):
        if self.cfg.norm == "pre":
            x = self.decoder_norm(x)
        # .float(): a no-op in float32; under bfloat16 autocast (train.py --precision bf16) the
        # log-softmax and the loss stay in float32.
        return F.log_softmax(F.linear(x, self.output_weight(), self.generator.bias).float(), dim=-1)

    def embed_target(self, tokens, start):
        T = tokens.size(1)
        x = self.tgt_embed(tokens) * math.sqrt(self.cfg.d_model) + self.tgt_pos[start:start + T]
        return self.drop(x)

    # ---- encoder --------------------------------------------------------------------------
    def encode(self, src, src_len):
        cfg = self.cfg
        if int(src_len.max()) > cfg.max_src_len:
            raise ValueError(f"source longer than max_src_len={cfg.max_src_len}")
        if int(src_len.min()) < 1:
            raise ValueError("empty source")
        S = int(src_len.max())
        src = src[:, :S]
        mask = torch.arange(S, device=src.device).unsqueeze(0) < src_len.unsqueeze(1)
        x = self.drop(self.src_embed(src) * math.sqrt(cfg.d_model) + self.src_pos[:S])
        key_mask = mask[:, None, None, :]
        for layer in self.encoder:
            a = layer.self_attn

            def self_attention(y, a=a):
                return a.attend(a.split(a.q_proj(y)), a.split(a.k_proj(y)), a.split(a.v_proj(y)),
                                key_mask)[0]
            x = self.sublayer(x, layer.norm1, self_attention)
            x = self.sublayer(x, layer.norm2, lambda y, layer=layer: self.ffn(layer, y))
        if cfg.norm == "pre":
            x = self.encoder_norm(x)
        keys = [layer.cross_attn.split(layer.cross_attn.k_proj(x)) for layer in self.decoder]
        values = [layer.cross_attn.split(layer.cross_attn.v_proj(x)) for layer in self.decoder]
        B = src.size(0)
        empty = x.new_zeros(B, cfg.heads, 0, cfg.d_head)
        state = TransformerState([empty] * cfg.dec_layers, [empty] * cfg.dec_layers, 0)
        return TransformerContext(keys, values, mask, src_len), state

    # ---- decoder --------------------------------------------------------------------------
    def decode_layers(self, x, ctx: TransformerContext, state: TransformerState, self_mask):
        """Runs the decoder stack on x [B, T, d] (positions state.t ..). Returns the top output,
        the last layer's cross-attention weights averaged over heads [B, T, S], new caches."""
        new_k, new_v, weights = [], [], None
        cross_mask = ctx.mask[:, None, None, :]
        for l, layer in enumerate(self.decoder):
            a, c = layer.self_attn, layer.cross_attn

            def self_attention(y, a=a, l=l):
                k = torch.cat([state.keys[l], a.split(a.k_proj(y))], dim=2)
                v = torch.cat([state.values[l], a.split(a.v_proj(y))], dim=2)
                new_k.append(k)
                new_v.append(v)
                return a.attend(a.split(a.q_proj(y)), k, v, self_mask)[0]

            def cross_attention(y, c=c, l=l):
                nonlocal weights
                out, w = c.attend(c.split(c.q_proj(y)), ctx.keys[l], ctx.values[l], cross_mask)
                weights = w
                return out
            x = self.sublayer(x, layer.norm1, self_attention)
            x = self.sublayer(x, layer.norm2, cross_attention)
            x = self.sublayer(x, layer.norm3, lambda y, layer=layer: self.ffn(layer, y))
        return x, weights.mean(dim=1), TransformerState(new_k, new_v, state.t + x.size(1))

    def step(self, prev, state: TransformerState, ctx: TransformerContext):
        """One decoder step. prev [B] long -> (log-probs [B, V], a_t [B, S], state)."""
        if state.t >= self.cfg.max_tgt_len:
            raise ValueError(f"decoder step beyond max_tgt_len={self.cfg.max_tgt_len}")
        x = self.embed_target(prev.unsqueeze(1), state.t)
        self_mask = torch.ones(1, 1, 1, state.t + 1, dtype=torch.bool, device=x.device)
        y, a, new_state = self.decode_layers(x, ctx, state, self_mask)
        return self.logprobs(y[:, 0]), a[:, 0], new_state

    def forward(self, src, src_len, tgt_in):
        """Teacher forcing, all target positions at once (causal mask)."""
        ctx, state = self.encode(src, src_len)
        T = tgt_in.size(1)
        if T > self.cfg.max_tgt_len:
            raise ValueError(f"target longer than max_tgt_len={self.cfg.max_tgt_len}")
        causal = torch.ones(T, T, dtype=torch.bool, device=src.device).tril()[None, None]
        y, a, _ = self.decode_layers(self.embed_target(tgt_in, 0), ctx, state, causal)
        return self.logprobs(y), a
