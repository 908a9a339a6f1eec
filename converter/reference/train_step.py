"""train.py's data and one update: G2P lines to length-bucketed batches of padded tensors, and
the data-parallel training step.

Speed: data parallel over ``--workers`` (2) processes of one torch thread each. Every worker
runs forward and backward on its half of each batch; the loss is normalised by the whole
batch's target tokens and the gradients are summed (gloo all-reduce), so every worker applies
the update one process would on the whole batch, and the weights stay identical. One thread per
process matters: on these small matrices OpenBLAS's second thread costs more in
synchronisation than it gains (batch 64: 0.305 s with 2 threads, 0.163 s with 1). In the
shipped run a batch of 256 took 0.25-0.33 s (about 128 s per epoch, validation 2 s); the
128-wide encoder took 0.18-0.28 s on the same VM, whose speed varies by 30 %.
"""
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

from checkpoint import tokenize_source
from model import BOS, EOS, PAD


def load_pairs(path, tokenizer):
    pairs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                word, pron = line.split("\t")
                pairs.append((tokenize_source(word, tokenizer), pron.split()))
    return pairs


def make_batches(examples, batch_size, rng):
    idx = list(range(len(examples)))
    rng.shuffle(idx)
    idx.sort(key=lambda i: (len(examples[i][0]), len(examples[i][1])))
    batches = [idx[i:i + batch_size] for i in range(0, len(idx), batch_size)]
    rng.shuffle(batches)
    return batches


def collate(examples, batch):
    B = len(batch)
    S = max(len(examples[i][0]) for i in batch)
    T = max(len(examples[i][1]) for i in batch) + 1
    src = torch.full((B, S), PAD, dtype=torch.long)
    tgt_in = torch.full((B, T), PAD, dtype=torch.long)
    tgt_out = torch.full((B, T), PAD, dtype=torch.long)
    for r, i in enumerate(batch):
        s, y = examples[i]
        src[r, :len(s)] = torch.tensor(s)
        tgt_in[r, :len(y) + 1] = torch.tensor([BOS] + y)
        tgt_out[r, :len(y) + 1] = torch.tensor(y + [EOS])
    lengths = torch.tensor([len(examples[i][0]) for i in batch], dtype=torch.long)
    return src, lengths, tgt_in, tgt_out


def train_step(model, opt, batch_tensors, clip, world=1, label_smoothing=0.0, precision="fp32"):
    """One update on this worker's share of a batch. With world > 1 the loss is normalised by
    the batch's total target tokens (all workers) and the gradients are summed over workers,
    so every worker applies the same update as one process on the whole batch would.
    precision "bf16": the forward pass runs under bfloat16 autocast (the loss in float32)."""
    src, lengths, tgt_in, tgt_out = batch_tensors
    with torch.autocast(src.device.type, dtype=torch.bfloat16, enabled=precision == "bf16"):
        logprobs, _ = model(src, lengths, tgt_in)
    # cross_entropy re-normalises its input, a no-op on log-probabilities; it adds smoothing.
    loss = F.cross_entropy(logprobs.float().reshape(-1, logprobs.size(-1)), tgt_out.reshape(-1),
                           ignore_index=PAD, reduction="sum", label_smoothing=label_smoothing)
    ntok = int((tgt_out != PAD).sum())
    total_tok = ntok
    if world > 1:
        t = torch.tensor([float(ntok)])
        dist.all_reduce(t)
        total_tok = int(t.item())
    opt.zero_grad()
    (loss / total_tok).backward()
    if world > 1:
        grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in model.parameters()]
        flat = torch.cat([g.reshape(-1) for g in grads])
        dist.all_reduce(flat)
        off = 0
        for p in model.parameters():
            n = p.numel()
            p.grad = flat[off:off + n].view_as(p).clone()
            off += n
    torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    opt.step()
    return float(loss), ntok


def to_device(tensors, device):
    return tuple(t.to(device) for t in tensors)


def time_batches(model, opt, examples, rng, args, rank, world, device):
    """train.py --time-batches N: times N training batches and prints seconds per batch (lead)."""
    model.train()
    batches = make_batches(examples, args.batch_size, rng)
    n = min(args.time_batches, len(batches))
    t0 = time.time()
    for b in batches[:n]:
        train_step(model, opt, to_device(collate(examples, b[rank::world]), device), args.clip,
                   world, args.label_smoothing, args.precision)
    spb = (time.time() - t0) / n
    if rank == 0:
        print(f"s/batch={spb:.3f} batches/epoch={len(batches)} s/epoch~{spb * len(batches):.0f} "
              f"(batch {args.batch_size}: {world} worker(s) x {args.threads} thread(s), {args.precision})")
