#!/usr/bin/env python3
"""Train the shipped G2P model (models/g2p-en) on data/g2p.

Reproduce (from the repository root; the shipped run took 68 min on the 2-core dev machine):
    /usr/bin/python3 converter/reference/train.py --out models/g2p-en

Shipped config (Luong 2015's best: bidirectional LSTM encoder, local-p attention with the
general score, input feeding): see SHIPPED_CONFIG below (~1.94 M parameters: 160 per encoder
direction; window D = 3, dropout 0.1).

Recipe: fixed seed; Adam, token-level NLL, gradient norm clipped at 5; batches of 256 lines
bucketed by length (lines shuffled, stably sorted by source then target length, cut into
batches, batch order shuffled each epoch). The lr follows one cosine from 2e-3 to 0 over
DEFAULT_EPOCHS (30) epochs (``--schedule cosine``, the default; no early stop). After every
epoch (EVAL_EVERY, 451 updates) the dev WER/PER is computed with batched greedy decoding and
the best model so far is kept and written. A divergence guard: if dev WER ever lands more than
ROLLBACK_GAP (5) points above the best, the weights and Adam state go back to the best
validation and the lr is halved from then on (a w3 run on a GPU jumped from 30 % to 51 % and
never recovered; rollbacks are logged). ``--schedule plateau`` is the earlier recipe: halve the
lr when dev WER does not improve by PLATEAU_MIN_GAIN (0.5) points, stop after PATIENCE (3)
such validations. At the end the best model is written with config.json, model.safetensors,
vocabs, metrics.json (dev and test, greedy and beam 5; the numbers evaluate.py prints) and
train_log.json.

``--average-last K`` (off by default) adds checkpoint averaging: the weights at the last K
validations are kept, and at the end the averages of the last 2..K are decoded on dev; the best
single model or an average, whichever has the lower dev WER, is written (logged as "averaging").
Measured on a 40-epoch run of the enc_hidden 128 config (K = 8): the averages scored 25.40-25.52 dev
WER against the best single epoch's 25.40, so no gain; the cosine has already annealed the
weights to one point by then.

Speed: data parallel over ``--workers`` (2) processes of one torch thread each. Every worker
runs forward and backward on its half of each batch; the loss is normalised by the whole
batch's target tokens and the gradients are summed (gloo all-reduce), so every worker applies
the update one process would on the whole batch, and the weights stay identical. One thread per
process matters: on these small matrices OpenBLAS's second thread costs more in
synchronisation than it gains (batch 64: 0.305 s with 2 threads, 0.163 s with 1). In the
shipped run a batch of 256 took 0.25-0.33 s (about 128 s per epoch, validation 2 s); the
128-wide encoder took 0.18-0.28 s on the same VM, whose speed varies by 30 %.

``--deadline-min M`` bounds the time: with the cosine schedule, every validation times the
remaining updates by the slowest of the last three rounds, and if they would end past M
minutes the cosine is shortened so the lr still reaches 0 at the deadline (logged as
deadline_reschedules in train_log.json). Without a deadline, or when it never acts, the run is
deterministic (epoch 1 of a rerun gave the shipped run's dev WER to the last digit); when it
acts, the number of updates depends on the machine's speed, which varies by 30 % on this VM.
The final evaluation (beam 5 split between the workers, word by word, so the result is the
same as one process's) takes about 1.5 min.

The workers exit when the launching process dies (killing it stops the whole run; without
this they went on training as orphans).
"""
import argparse
import copy
import json
import math
import os
import random
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from tqdm import tqdm  # noqa: E402

from checkpoint import Vocab, build_model, config_from_dict, save_checkpoint, tokenize_source  # noqa: E402
from evaluate import decode_words, evaluate  # noqa: E402
from g2p_metrics import read_tsv, score  # noqa: E402
from model import BOS, EOS, PAD, count_parameters  # noqa: E402
from search import DecodeOptions  # noqa: E402

SHIPPED_CONFIG = dict(cell="lstm", src_embed=64, tgt_embed=64, enc_hidden=160, enc_layers=2,
                      bidirectional=True, reverse_source=False, dec_hidden=256, dec_layers=1,
                      bridge=True, input_feeding=True, attention="local_p", score="general",
                      attn_hidden=128, window=3, max_src_len=32, tokenizer="char", dropout=0.1)
# models/g2p-en-transformer (--model transformer): pre-norm, 3 + 3 layers of width 128.
TRANSFORMER_CONFIG = dict(model_type="transformer", d_model=128, heads=4, ffn=512, enc_layers=3,
                          dec_layers=3, activation="relu", norm="pre", positions="sinusoidal",
                          tie_output=True, max_src_len=32, max_tgt_len=64, tokenizer="char",
                          dropout=0.1)
DEFAULT_EPOCHS = 30
PATIENCE = 3
PLATEAU_MIN_GAIN = 0.5   # dev WER points: a smaller gain over the best counts as a plateau
EVAL_EVERY = 451         # updates between validations (one epoch at batch 256)
ROLLBACK_GAP = 5.0       # dev WER points above the best that count as a divergence
EVAL_MAX_LEN = 64
AVERAGE_LAST = 0         # validations the end-of-run weight averaging may combine; 0: off


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


def train_step(model, opt, batch_tensors, clip, world=1, label_smoothing=0.0):
    """One update on this worker's share of a batch. With world > 1 the loss is normalised by
    the batch's total target tokens (all workers) and the gradients are summed over workers,
    so every worker applies the same update as one process on the whole batch would."""
    src, lengths, tgt_in, tgt_out = batch_tensors
    logprobs, _ = model(src, lengths, tgt_in)
    # cross_entropy re-normalises its input, a no-op on log-probabilities; it adds smoothing.
    loss = F.cross_entropy(logprobs.reshape(-1, logprobs.size(-1)), tgt_out.reshape(-1),
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


def average_state_dicts(states):
    """The element-wise mean of state dicts with the same keys (summed in float64)."""
    return {name: (sum(s[name].double() for s in states) / len(states)).to(t.dtype)
            for name, t in states[0].items()}


def to_device(tensors, device):
    return tuple(t.to(device) for t in tensors)


def rounded(r):
    return {"words": r["words"], "wer": round(r["wer"], 2), "per": round(r["per"], 2)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="data/g2p")
    ap.add_argument("--out", default="models/g2p-en")
    ap.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--eval-every", type=int, default=EVAL_EVERY,
                    help="updates between dev validations (lr halving / early stopping points)")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--clip", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--schedule", choices=("plateau", "cosine"), default="cosine",
                    help="plateau: halve the lr when dev WER stalls, stop early after PATIENCE "
                         "stalls; cosine: lr * (1 + cos(pi * update / total)) / 2 over --epochs, "
                         "no early stop")
    ap.add_argument("--label-smoothing", type=float, default=0.0)
    ap.add_argument("--model", choices=("rnn", "transformer"), default="rnn",
                    help="rnn: SHIPPED_CONFIG; transformer: TRANSFORMER_CONFIG")
    ap.add_argument("--warmup", type=int, default=0,
                    help="updates of linear lr warm-up before the cosine (0: none)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="override a config key (JSON value), e.g. --set dec_hidden=320")
    ap.add_argument("--device", default="cpu",
                    help="torch device; cuda trains in one process (--workers 1)")
    ap.add_argument("--workers", type=int, default=2,
                    help="data-parallel worker processes (each takes 1/N of every batch; "
                         "gradients are summed, so the update is the same as one process's)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads per worker")
    ap.add_argument("--time-batches", type=int, default=0,
                    help="only time this many training batches, print s/batch and exit")
    ap.add_argument("--skip-final-eval", action="store_true")
    ap.add_argument("--init-from", default="",
                    help="warm start: load the weights of this checkpoint directory (same config "
                         "and vocabularies) and continue training from them (the shipped model "
                         "does not use it)")
    ap.add_argument("--first-epoch", type=int, default=1,
                    help="number of the first epoch (continues the numbering after --init-from)")
    ap.add_argument("--rollback-gap", type=float, default=ROLLBACK_GAP,
                    help="divergence guard: when dev WER is more than this many points above the "
                         "best so far, the weights and Adam state go back to the best validation "
                         "and the lr is halved from then on (logged in train_log.json)")
    ap.add_argument("--average-last", type=int, default=AVERAGE_LAST,
                    help="at the end, also try the averages of the weights of the last 2..K "
                         "validations and keep whichever candidate has the best dev WER (0: off)")
    ap.add_argument("--deadline-min", type=float, default=0.0,
                    help="if > 0: end training by this many minutes. cosine: at each validation, "
                         "if the remaining updates (timed by the slowest of the last 3 rounds) would "
                         "end later, the cosine is shortened to end in time; plateau: stop at the "
                         "validation after which the next round would end later. Logged in "
                         "train_log.json")
    args = ap.parse_args()
    overrides = {}
    base = TRANSFORMER_CONFIG if args.model == "transformer" else SHIPPED_CONFIG
    for kv in args.set:
        key, _, value = kv.partition("=")
        if key not in base:
            raise SystemExit(f"--set {kv}: unknown config key")
        try:
            overrides[key] = json.loads(value)
        except json.JSONDecodeError:
            overrides[key] = value
    args.config = dict(base, **overrides)
    if args.device != "cpu" and args.workers != 1:
        raise SystemExit("--device other than cpu needs --workers 1")
    if args.workers < 1 or args.batch_size < args.workers:
        raise SystemExit("--workers must be >= 1 and <= --batch-size")
    if args.workers == 1:
        run_worker(0, args, "")
        return
    with tempfile.TemporaryDirectory() as tmp:
        # A file rendezvous: no TCP port to collide with, removed with the directory.
        mp.spawn(run_worker, args=(args, os.path.join(tmp, "rendezvous"), os.getpid()),
                 nprocs=args.workers)


def exit_with_parent(parent_pid):
    """Ends this worker once the process that spawned it is gone (killed or crashed)."""
    def watch():
        while os.getppid() == parent_pid:
            time.sleep(2)
        os._exit(1)
    threading.Thread(target=watch, daemon=True).start()


def run_worker(rank, args, rendezvous, parent_pid=None):
    world = args.workers
    if parent_pid is not None:
        exit_with_parent(parent_pid)
    if world == 1:
        train_worker(rank, args)
        return
    dist.init_process_group("gloo", init_method=f"file://{rendezvous}", rank=rank,
                            world_size=world)
    train_worker(rank, args)
    # A worker that returns early (only the lead writes files) must not tear down its gloo
    # threads while the others still talk to it: that aborted a worker with "terminate called
    # without an active exception". Everyone meets here, then the group is closed in order.
    dist.barrier()
    dist.destroy_process_group()


def train_worker(rank, args):
    world = args.workers
    lead = rank == 0

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)   # same initial weights in every worker
    rng = random.Random(args.seed)
    t_start = time.time()

    tok = args.config["tokenizer"]
    train_raw = load_pairs(os.path.join(args.data, "train.tsv"), tok)
    src_vocab = Vocab.build(c for s, _ in train_raw for c in s)
    tgt_vocab = Vocab.build(p for _, y in train_raw for p in y)
    cfg = config_from_dict(dict(args.config, src_vocab_size=len(src_vocab),
                                tgt_vocab_size=len(tgt_vocab)))
    too_long = [s for s, _ in train_raw if len(s) > cfg.max_src_len]
    if too_long:
        raise SystemExit(f"{len(too_long)} training sources exceed max_src_len")
    examples = [(src_vocab.encode(s), tgt_vocab.encode(y)) for s, y in train_raw]
    dev_refs = read_tsv(os.path.join(args.data, "dev.tsv"))
    test_refs = read_tsv(os.path.join(args.data, "test.tsv"))

    model = build_model(cfg)
    if args.init_from:
        from checkpoint import load_checkpoint
        init_model, init_src, init_tgt = load_checkpoint(args.init_from)
        if (init_model.cfg.to_dict() != cfg.to_dict() or list(init_src.tokens) != list(src_vocab.tokens)
                or list(init_tgt.tokens) != list(tgt_vocab.tokens)):
            raise SystemExit(f"--init-from {args.init_from}: config or vocabularies differ")
        model.load_state_dict(init_model.state_dict(), strict=True)
        # A different seed stream for the continued run (batch order), still deterministic.
        rng = random.Random(args.seed + args.first_epoch)
    # Dropout masks differ per worker (each sees different lines); batch order (rng) is shared.
    torch.manual_seed(args.seed * 1000 + rank)
    device = torch.device(args.device)
    model.to(device)
    n_params = count_parameters(model)
    if lead:
        print(f"train lines={len(examples)} src_vocab={len(src_vocab)} tgt_vocab={len(tgt_vocab)} "
              f"params={n_params}", flush=True)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    greedy_opts = DecodeOptions(beam=1, nbest=1, max_len=EVAL_MAX_LEN)
    beam_opts = DecodeOptions(beam=5, nbest=1, max_len=EVAL_MAX_LEN)

    if args.time_batches:
        model.train()
        batches = make_batches(examples, args.batch_size, rng)
        n = min(args.time_batches, len(batches))
        t0 = time.time()
        for b in batches[:n]:
            train_step(model, opt, to_device(collate(examples, b[rank::world]), device), args.clip,
                       world, args.label_smoothing)
        spb = (time.time() - t0) / n
        if lead:
            print(f"s/batch={spb:.3f} batches/epoch={len(batches)} s/epoch~{spb * len(batches):.0f} "
                  f"(batch {args.batch_size}: {world} worker(s) x {args.threads} thread(s))")
        return

    os.makedirs(args.out, exist_ok=True)
    log = {"config": cfg.to_dict(), "params": n_params, "seed": args.seed, "lr": args.lr,
           "batch_size": args.batch_size, "workers": world, "threads_per_worker": args.threads,
           "clip": args.clip, "max_epochs": args.epochs, "eval_every": args.eval_every,
           "schedule": args.schedule, "label_smoothing": args.label_smoothing,
           "warmup": args.warmup,
           "patience": PATIENCE, "plateau_min_gain": PLATEAU_MIN_GAIN,
           "deadline_min": args.deadline_min, "rollback_gap": args.rollback_gap,
           "average_last": args.average_last, "rollbacks": [], "evals": []}
    best_wer, best_entry, best_state, bad_evals = None, None, None, 0
    best_opt_state = None
    recent_states = []   # lead only: weights at the last args.average_last validations
    lr_scale = 1.0   # halved by every rollback
    n_batches = len(examples) // args.batch_size + (len(examples) % args.batch_size > 0)
    total = args.epochs * n_batches
    # Cosine phase: 0 at anchor_update rising linearly to 1 at end_update. A deadline can pull
    # end_update in (below); the lr then anneals to 0 by the deadline instead of being cut off.
    anchor_update, anchor_phase, end_update = 0, 0.0, total
    recent_round_s = []   # seconds per update (validation included) of the recent rounds

    def cosine_phase(u):
        return anchor_phase + (1.0 - anchor_phase) * ((u - anchor_update) / (end_update - anchor_update))

    slowest_round_s, round_start, update = 0.0, time.time(), 0
    round_loss = round_tok = 0
    stop = False
    bar = tqdm(total=total, desc="train", mininterval=15, file=sys.stdout, disable=not lead)
    for epoch in range(1, args.epochs + 1):
        model.train()
        for b in make_batches(examples, args.batch_size, rng):
            if args.schedule == "cosine":
                lr_now = lr_scale * args.lr * 0.5 * (1.0 + math.cos(math.pi * cosine_phase(update)))
                if update < args.warmup:
                    lr_now *= (update + 1) / args.warmup
                for g in opt.param_groups:
                    g["lr"] = lr_now
            loss, ntok = train_step(model, opt, to_device(collate(examples, b[rank::world]), device),
                                    args.clip, world, args.label_smoothing)
            round_loss += loss
            round_tok += ntok
            update += 1
            bar.update(1)
            bar.set_postfix(epoch=epoch, loss=f"{round_loss / round_tok:.3f}", refresh=False)
            if update % args.eval_every and update != end_update:
                continue
            # ---- validation round: dev WER/PER, keep best, lr halving, early stop, deadline.
            # The lead worker validates and decides; the others wait for its decision.
            if world > 1:
                # Workers apply identical updates; re-sync anyway so no float drift can build up.
                for p in model.parameters():
                    dist.broadcast(p.data, 0)
            decision = torch.zeros(5)  # [lr, stop, improved, rollback, end_update]
            decision[4] = end_update
            if lead:
                train_s = time.time() - round_start
                t0 = time.time()
                dev = evaluate(model, src_vocab, tgt_vocab, dev_refs, greedy_opts)
                model.train()
                lr = opt.param_groups[0]["lr"]
                prev_update = log["evals"][-1]["update"] if log["evals"] else 0
                entry = {"update": update, "epoch": round(update / n_batches, 3),
                         "train_nll": round_loss / round_tok, "dev_wer": dev["wer"],
                         "dev_per": dev["per"], "lr": lr, "train_s": round(train_s, 1),
                         "s_per_batch": round(train_s / (update - prev_update), 4),
                         "eval_s": round(time.time() - t0, 1)}
                improved = best_wer is None or dev["wer"] < best_wer
                plateau = best_wer is not None and dev["wer"] > best_wer - PLATEAU_MIN_GAIN
                if improved:
                    best_wer, best_entry = dev["wer"], entry
                    entry["best"] = True
                # Divergence (seen on GPU runs: a local-p model jumping from 30 % to 51 % dev
                # WER mid-run and never recovering): go back to the best weights and optimizer
                # state and continue with half the lr, rather than train on from a broken model.
                rollback = not improved and dev["wer"] > best_wer + args.rollback_gap
                if rollback:
                    entry["rollback_to"] = best_entry["update"]
                    log["rollbacks"].append({"update": update, "dev_wer": dev["wer"],
                                             "to_update": best_entry["update"]})
                bad_evals = 0 if improved else bad_evals + 1
                if args.schedule != "plateau":
                    plateau, bad_evals = False, 0   # the schedule sets the lr; no early stop
                if plateau:
                    lr = lr / 2
                log["evals"].append(entry)
                bar.write(f"update {update} (epoch {entry['epoch']:.2f}): nll={entry['train_nll']:.4f} "
                          f"dev WER={dev['wer']:.2f} PER={dev['per']:.2f} lr={entry['lr']:g} "
                          f"s/batch={entry['s_per_batch']}{' *' if improved else ''}"
                          f"{' (plateau: lr halved)' if plateau else ''}"
                          f"{' (diverged: back to the best, lr halved)' if rollback else ''}")
                sys.stdout.flush()
                with open(os.path.join(args.out, "train_log.json"), "w") as f:
                    json.dump(log, f, indent=2)
                if args.average_last > 1:
                    # A rollback discards the diverged weights, so nothing before it is averaged.
                    recent_states = [] if rollback else (recent_states + [
                        {k: v.detach().to("cpu", copy=True) for k, v in model.state_dict().items()}
                    ])[-args.average_last:]
                if improved:
                    save_checkpoint(model, src_vocab, tgt_vocab, args.out,
                                    {"update": str(update), "dev_wer": f"{dev['wer']:.2f}"})
                slowest_round_s = max(slowest_round_s, time.time() - round_start)
                recent_round_s = (recent_round_s + [(time.time() - round_start) /
                                                    (update - prev_update)])[-3:]
                elapsed = time.time() - t_start
                if (args.schedule == "cosine" and args.deadline_min > 0 and update < end_update):
                    # The slowest of the last three rounds predicts the rest: if the planned
                    # updates would end past the deadline, end the cosine earlier.
                    fits = int((60 * args.deadline_min - elapsed) / max(recent_round_s))
                    if update + fits < end_update:
                        new_end = max(update + 1, update + fits)
                        log.setdefault("deadline_reschedules", []).append(
                            {"update": update, "elapsed_s": round(elapsed, 1),
                             "end_update": new_end, "planned_end_update": end_update})
                        bar.write(f"deadline: the cosine now ends at update {new_end} "
                                  f"(planned {end_update})")
                        decision[4] = new_end
                if bad_evals >= PATIENCE:
                    bar.write(f"early stop: {PATIENCE} validations without dev WER improvement")
                    stop = True
                elif (args.schedule == "plateau" and args.deadline_min > 0 and update != total
                      and elapsed + slowest_round_s > 60 * args.deadline_min):
                    log["stopped_by_deadline"] = {"update": update, "elapsed_s": round(elapsed, 1)}
                    bar.write(f"deadline: stopping after update {update} ({elapsed:.0f} s elapsed)")
                    stop = True
                decision[0], decision[1] = lr, float(stop)
                decision[2], decision[3] = float(improved), float(rollback)
            if world > 1:
                dist.broadcast(decision, 0)
            # Every worker keeps its own copy of the best state, so all can roll back alike.
            if decision[2]:
                best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
                best_opt_state = copy.deepcopy(opt.state_dict())
            if decision[3]:
                model.load_state_dict(best_state)
                opt.load_state_dict(copy.deepcopy(best_opt_state))
                lr_scale *= 0.5
                decision[0] = decision[0] * 0.5
            for g in opt.param_groups:
                g["lr"] = float(decision[0])
            stop = bool(decision[1])
            if int(decision[4]) != end_update:
                anchor_phase, anchor_update, end_update = cosine_phase(update), update, int(decision[4])
            if update >= end_update:
                stop = True
            round_start, round_loss, round_tok = time.time(), 0, 0
            if stop:
                break
        if stop:
            break
    bar.close()

    # ---- the best model, then the final evaluation (metrics.json)
    model.load_state_dict(best_state)
    chosen = None
    if lead:
        chosen = {"update": best_entry["update"], "epoch": best_entry["epoch"], "dev_wer": best_wer}
    if lead and len(recent_states) > 1:
        # Weight averaging of the last validations (checkpoint averaging): late in the cosine
        # the weights wander around one basin, and their mean often decodes better than any
        # single point. Dev WER decides between the best single model and each average.
        chosen_state, trials = best_state, []
        for k in range(2, len(recent_states) + 1):
            avg = average_state_dicts(recent_states[-k:])
            model.load_state_dict(avg)
            dev = evaluate(model, src_vocab, tgt_vocab, dev_refs, greedy_opts)
            trial = {"last": k, "from_update": log["evals"][-k]["update"],
                     "dev_wer": dev["wer"], "dev_per": dev["per"]}
            trials.append(trial)
            print(f"average of the last {k} validations: dev WER={dev['wer']:.2f} "
                  f"PER={dev['per']:.2f}", flush=True)
            if dev["wer"] < chosen["dev_wer"]:
                chosen = {"average_last": k, "from_update": trial["from_update"], "update": update,
                          "epoch": log["evals"][-1]["epoch"], "dev_wer": dev["wer"]}
                chosen_state = avg
        log["averaging"] = trials
        model.load_state_dict(chosen_state)
    if world > 1 and args.average_last > 1:
        # Only the lead tried the averages: give every worker the chosen weights. (Without
        # averaging every worker already holds the best state; see best_state above.)
        for t in model.state_dict().values():
            dist.broadcast(t, 0)
    if lead:
        save_checkpoint(model, src_vocab, tgt_vocab, args.out,
                        {"update": str(chosen["update"]), "dev_wer": f"{chosen['dev_wer']:.2f}",
                         **({"average_last": str(chosen["average_last"])}
                            if "average_last" in chosen else {})})
        log["best"] = chosen
        log["train_wall_s"] = round(time.time() - t_start, 1)
        with open(os.path.join(args.out, "train_log.json"), "w") as f:
            json.dump(log, f, indent=2)
    if args.skip_final_eval:
        return
    model.to("cpu")   # the final evaluation decodes on the CPU, as evaluate.py does
    model.eval()
    metrics = {"decode": {"greedy": vars(greedy_opts), "beam5": vars(beam_opts)}}
    for split, refs in (("dev", dev_refs), ("test", test_refs)):
        words = list(refs)
        # Beam search decodes each word on its own, so the workers split the words between
        # them and the result is the same as one process's. Greedy decodes in batches, whose
        # composition could change float rounding, so the lead decodes the whole list, as
        # evaluate.py does.
        share = decode_words(model, src_vocab, tgt_vocab, words[rank::world], beam_opts,
                             progress=lead)
        if world > 1:
            shares = [None] * world
            dist.all_gather_object(shares, share)
            for s in shares:
                share.update(s)
        if not lead:
            continue
        results = {"greedy": evaluate(model, src_vocab, tgt_vocab, refs, greedy_opts),
                   "beam5": score({w: share[w] for w in words}, refs)}
        for name in ("greedy", "beam5"):
            r = rounded(results[name])
            metrics.setdefault(split, {})[name] = r
            print(f"{split} {name}: words={r['words']} WER={r['wer']:.2f} PER={r['per']:.2f}",
                  flush=True)
    if not lead:
        return
    with open(os.path.join(args.out, "metrics.json"), "w") as f:
        json.dump(metrics, f, indent=2)
        f.write("\n")
    log["total_wall_s"] = round(time.time() - t_start, 1)
    with open(os.path.join(args.out, "train_log.json"), "w") as f:
        json.dump(log, f, indent=2)
    print(f"done in {log['total_wall_s']:.0f} s", flush=True)


if __name__ == "__main__":
    main()
