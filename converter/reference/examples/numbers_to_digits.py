#!/usr/bin/python3
"""Worked example for "convert your own model": English number words -> digits, e.g.
"forty two thousand one hundred seven" -> "4 2 1 0 7", with a configuration unlike the shipped
G2P model (GRU cells, global attention with the dot score, word tokenizer).

    /usr/bin/python3 converter/reference/examples/numbers_to_digits.py train --out models/numbers-en
    build/host/converter/edgenmt-convert --checkpoint models/numbers-en --out numbers.f32.enmt
    echo "nine hundred ninety nine thousand" | build/host/edgenmt translate -m numbers.f32.enmt

`train` generates its data from fixed seeds (numbers 0..999,999; no file needed), trains for
--epochs on the CPU (about two minutes on two cores), reports exact-match accuracy on a held-out
set and saves the checkpoint with export.export_checkpoint. `data --split test --out FILE`
writes a split as words<TAB>digits (the test in tests/package/ checks the converted files
against the float reference on it; `--split calibration` is for int8-full calibration).
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from export import export_checkpoint, with_specials  # noqa: E402
from model import BOS, EOS, PAD, ModelConfig, Seq2Seq  # noqa: E402

ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
        "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
SOURCE_TOKENS = ONES + TENS[2:] + ["hundred", "thousand"]
TARGET_TOKENS = [str(d) for d in range(10)]
MAX_NUMBER = 999_999
# Independent draws per split (short numbers recur in every split: there are only 100 below 100).
SPLITS = {"train": (1, 20_000), "dev": (2, 500), "test": (3, 1_000), "calibration": (4, 500)}

CONFIG = dict(cell="gru", src_vocab_size=len(SOURCE_TOKENS) + 4, tgt_vocab_size=len(TARGET_TOKENS) + 4,
              src_embed=32, tgt_embed=16, enc_hidden=48, enc_layers=1, bidirectional=True,
              reverse_source=False, dec_hidden=96, dec_layers=1, bridge=True, input_feeding=True,
              attention="global", score="dot", attn_hidden=1, window=1, max_src_len=12,
              tokenizer="word", dropout=0.0)


def below_thousand(n):
    words = []
    if n >= 100:
        words += [ONES[n // 100], "hundred"]
        n %= 100
    if n >= 20:
        words.append(TENS[n // 10])
        n %= 10
        if n:
            words.append(ONES[n])
    elif n or not words:
        words.append(ONES[n])
    return words


def number_to_words(n):
    """0 <= n <= 999,999 in words, without "and": 1,005 -> "one thousand five"."""
    if n < 1000:
        return " ".join(below_thousand(n))
    words = below_thousand(n // 1000) + ["thousand"]
    if n % 1000:
        words += below_thousand(n % 1000)
    return " ".join(words)


def split(name):
    """[(words, digits)] of a split: the digit count is uniform in 1..6, so short numbers are
    as common as long ones."""
    seed, count = SPLITS[name]
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        digits = rng.randint(1, 6)
        n = rng.randint(0 if digits == 1 else 10 ** (digits - 1), 10 ** digits - 1)
        pairs.append((number_to_words(n), " ".join(str(n))))
    return pairs


def encode(pairs, src_index, tgt_index):
    return [([src_index[w] for w in words.split()], [tgt_index[d] for d in digits.split()])
            for words, digits in pairs]


def batch_tensors(examples):
    S = max(len(s) for s, _ in examples)
    T = max(len(y) for _, y in examples) + 1
    src = torch.full((len(examples), S), PAD, dtype=torch.long)
    tgt_in = torch.full((len(examples), T), PAD, dtype=torch.long)
    tgt_out = torch.full((len(examples), T), PAD, dtype=torch.long)
    for r, (s, y) in enumerate(examples):
        src[r, :len(s)] = torch.tensor(s)
        tgt_in[r, :len(y) + 1] = torch.tensor([BOS] + y)
        tgt_out[r, :len(y) + 1] = torch.tensor(y + [EOS])
    return src, torch.tensor([len(s) for s, _ in examples]), tgt_in, tgt_out


def exact_match(model, examples):
    """Share of examples whose greedy output (teacher-free) equals the target."""
    from search import DecodeOptions, batched_greedy
    hyps = batched_greedy(model, [s for s, _ in examples], DecodeOptions(beam=1, max_len=16))
    return sum(h.tokens == y for h, (_, y) in zip(hyps, examples)) / len(examples)


def train(args):
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    src_tokens, tgt_tokens = with_specials(SOURCE_TOKENS), with_specials(TARGET_TOKENS)
    src_index = {t: i for i, t in enumerate(src_tokens)}
    tgt_index = {t: i for i, t in enumerate(tgt_tokens)}
    train_set = encode(split("train"), src_index, tgt_index)
    dev_set = encode(split("dev"), src_index, tgt_index)
    model = Seq2Seq(ModelConfig.from_dict(CONFIG))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    rng = random.Random(args.seed)
    steps_per_epoch = (len(train_set) + args.batch - 1) // args.batch
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=args.lr,
                                                    total_steps=args.epochs * steps_per_epoch)
    start = time.time()
    for epoch in range(1, args.epochs + 1):
        model.train()
        order = list(range(len(train_set)))
        rng.shuffle(order)
        total, tokens = 0.0, 0
        for first in range(0, len(order), args.batch):
            src, lengths, tgt_in, tgt_out = batch_tensors([train_set[i] for i in order[first:first + args.batch]])
            logprobs, _ = model(src, lengths, tgt_in)
            loss = F.nll_loss(logprobs.reshape(-1, logprobs.size(-1)), tgt_out.reshape(-1),
                              ignore_index=PAD, reduction="sum")
            n = int((tgt_out != PAD).sum())
            optimizer.zero_grad()
            (loss / n).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            total, tokens = total + float(loss), tokens + n
            if args.log_every and (first // args.batch) % args.log_every == 0:
                print(f"  epoch {epoch} batch {first // args.batch}/{steps_per_epoch}: "
                      f"nll {total / tokens:.4f}, {time.time() - start:.0f} s", flush=True)
        model.eval()
        print(f"epoch {epoch}: train nll {total / tokens:.4f}, dev exact match "
              f"{100 * exact_match(model, dev_set):.2f} %, {time.time() - start:.0f} s", flush=True)
    model.eval()
    export_checkpoint(model, SOURCE_TOKENS, TARGET_TOKENS, args.out,
                      {"task": "numbers in words -> digits", "script": os.path.basename(__file__)})
    print(f"wrote {args.out} ({sum(p.numel() for p in model.parameters())} parameters)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    t = commands.add_parser("train", help="generate data, train, export a checkpoint")
    t.add_argument("--out", required=True)
    t.add_argument("--epochs", type=int, default=10)
    t.add_argument("--batch", type=int, default=100)
    t.add_argument("--lr", type=float, default=3e-3)
    t.add_argument("--seed", type=int, default=17)
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--log-every", type=int, default=0, help="print the loss every N batches")
    d = commands.add_parser("data", help="write a split as words<TAB>digits")
    d.add_argument("--split", choices=sorted(SPLITS), required=True)
    d.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.command == "train":
        train(args)
    else:
        with open(args.out, "w", encoding="utf-8") as f:
            for words, digits in split(args.split):
                f.write(f"{words}\t{digits}\n")


if __name__ == "__main__":
    main()
