#!/usr/bin/env python3
"""Train the shipped G2P model (models/g2p-en) on data/g2p.

Reproduce (from the repository root; the shipped run took 68 min on the 2-core dev machine):
    /usr/bin/python3 converter/reference/train.py --out models/g2p-en

Shipped config: recipes.py's SHIPPED_CONFIG. ``--recipe NAME`` starts from a named recipe's
flags and config (recipes.py), e.g. ``--recipe g2p-en-transformer`` for the Transformer.

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
train_log.json (train_final.py).

``--average-last K`` (off by default): checkpoint averaging at the end (train_final.py). Speed:
data parallel over ``--workers`` (2) processes of one torch thread each (train_step.py).

``--deadline-min M`` bounds the time: with the cosine schedule, every validation times the
remaining updates by the slowest of the last three rounds, and if they would end past M
minutes the cosine is shortened so the lr still reaches 0 at the deadline (logged as
deadline_reschedules in train_log.json). Without a deadline, or when it never acts, the run is
deterministic (epoch 1 of a rerun gave the shipped run's dev WER to the last digit); when it
acts, the number of updates depends on the machine's speed, which varies by 30 % on this VM.
The final evaluation takes about 1.5 min.
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
from tqdm import tqdm  # noqa: E402

from checkpoint import Vocab, build_model, config_from_dict, save_checkpoint  # noqa: E402
from evaluate import evaluate  # noqa: E402
from g2p_metrics import read_tsv  # noqa: E402
from model import count_parameters  # noqa: E402
from recipes import SHIPPED_CONFIG, TRANSFORMER_CONFIG, apply_recipe  # noqa: E402
from search import DecodeOptions  # noqa: E402
from train_final import RunEnd, final_evaluation, keep_weights  # noqa: E402
from train_step import collate, load_pairs, make_batches, time_batches, to_device, train_step  # noqa: E402

DEFAULT_EPOCHS = 30
PATIENCE = 3
PLATEAU_MIN_GAIN = 0.5   # dev WER points: a smaller gain over the best counts as a plateau
EVAL_EVERY = 451         # updates between validations (one epoch at batch 256)
ROLLBACK_GAP = 5.0       # dev WER points above the best that count as a divergence
EVAL_MAX_LEN = 64
AVERAGE_LAST = 0         # validations the end-of-run weight averaging may combine; 0: off


def build_parser():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--recipe", default="",
                    help="start from a named recipe's flags and config (recipes.py: g2p-en, "
                         "g2p-en-transformer); flags given here win")
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
                    help="torch device; cuda trains in one process (--workers 1); auto: cuda "
                         "when torch sees one (then one worker), else the cpu")
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
    return ap


def main():
    ap = build_parser()
    known, _ = ap.parse_known_args()
    overrides = apply_recipe(ap, known.recipe) if known.recipe else {}
    args = ap.parse_args()
    if args.device == "auto":
        args.device = "cuda" if torch.cuda.is_available() else "cpu"
        if args.device == "cuda":
            args.workers = 1
    base = TRANSFORMER_CONFIG if args.model == "transformer" else SHIPPED_CONFIG
    for key in overrides:
        if key not in base:
            raise SystemExit(f"--recipe {args.recipe}: unknown config key {key}")
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
    """Ends this worker once the process that spawned it is gone (killed or crashed): killing
    the launcher stops the whole run (without this the workers went on training as orphans)."""
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
        time_batches(model, opt, examples, rng, args, rank, world, device)
        return

    os.makedirs(args.out, exist_ok=True)
    log = {"recipe": args.recipe, "config": cfg.to_dict(), "params": n_params, "seed": args.seed, "lr": args.lr,
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

    # ---- the weights to keep, then the final evaluation (metrics.json)
    run = RunEnd(model=model, src_vocab=src_vocab, tgt_vocab=tgt_vocab, dev_refs=dev_refs,
                 test_refs=test_refs, greedy_opts=greedy_opts, beam_opts=beam_opts, log=log,
                 out=args.out, rank=rank, world=world, t_start=t_start)
    keep_weights(run, best_state, best_entry, best_wer, recent_states, update, args.average_last)
    if not args.skip_final_eval:
        final_evaluation(run)


if __name__ == "__main__":
    main()
