#!/usr/bin/env python3
"""Train the shipped G2P model (models/g2p-en) on data/g2p.

Reproduce (from the repository root; the shipped run took 68 min on the 2-core dev machine):
    /usr/bin/python3 converter/reference/train.py --out models/g2p-en

Shipped config: recipes.py's SHIPPED_CONFIG. ``--recipe NAME`` starts from a named recipe's
flags and config (recipes.py), e.g. ``--recipe g2p-en-transformer-4x4`` for the shipped Transformer.

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

Resumable (train_resume.py): every validation writes OUT/train_state.safetensors, and running the same
command again continues the run from there (same device and worker count: bit for bit the
result of one uninterrupted invocation). ``--pause-after-min M`` ends an invocation at the last
validation before M minutes run out (exit status 75), so a run longer than the jobs a machine
is lent for still comes from one command, run again in each job until it exits 0.
"""
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
from train_args import EVAL_MAX_LEN, PATIENCE, PLATEAU_MIN_GAIN, build_parser  # noqa: E402
from train_resume import (EXIT_PAUSED, LoopState, read_state, remove_state, restore_rng,  # noqa: E402
                          resume_loop, rng_snapshot, run_identity, state_path, write_state)
from train_step import collate, load_pairs, make_batches, time_batches, to_device, train_step  # noqa: E402
from train_validation import decide  # noqa: E402



def main():
    ap = build_parser(__doc__)
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
    args.identity = None
    if not args.time_batches:
        args.identity = run_identity(args)
        read_state(args.out, args.identity)   # a state of another run: refused here, by name
    if args.workers == 1:
        run_worker(0, args, "")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            # A file rendezvous: no TCP port to collide with, removed with the directory.
            mp.spawn(run_worker, args=(args, os.path.join(tmp, "rendezvous"), os.getpid()),
                     nprocs=args.workers)
    if not args.time_batches and os.path.exists(state_path(args.out)):
        sys.exit(EXIT_PAUSED)


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
        # Dropout shapes no weight: a warm start may change it (e.g. --set dropout=0.0).
        def shape_config(c):
            return {k: v for k, v in c.to_dict().items() if k != "dropout"}
        if (shape_config(init_model.cfg) != shape_config(cfg)
                or list(init_src.tokens) != list(src_vocab.tokens)
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
           "warmup": args.warmup, "precision": args.precision,
           "patience": PATIENCE, "plateau_min_gain": PLATEAU_MIN_GAIN,
           "deadline_min": args.deadline_min, "rollback_gap": args.rollback_gap,
           "average_last": args.average_last, "keep": args.keep, "rollbacks": [], "evals": []}
    n_batches = len(examples) // args.batch_size + (len(examples) % args.batch_size > 0)
    total = args.epochs * n_batches
    # Cosine phase: 0 at anchor_update rising linearly to 1 at end_update. A deadline can pull
    # end_update in (below); the lr then anneals to 0 by the deadline instead of being cut off.
    st = LoopState(epoch_rng=rng.getstate(), end_update=total)
    state = read_state(args.out, args.identity)
    if state is not None:
        st, log = resume_loop(state, model, opt, device)
        same_rngs = state["device_type"] == device.type and len(state["worker_rngs"]) == world
        if same_rngs:
            restore_rng(state["worker_rngs"][rank], device)
        else:   # the same schedule; other dropout masks than an uninterrupted run's
            torch.manual_seed(args.seed * 1000 + rank + 7919 * st.update)
        if lead:
            log.setdefault("resumed", []).append(
                {"update": st.update, "elapsed_s": round(st.elapsed_s, 1), "workers": world,
                 "device": device.type, "same_rngs": same_rngs})
            print(f"continuing the run in {state_path(args.out)} at update {st.update} "
                  f"(epoch {st.epoch}, {st.elapsed_s / 60:.1f} min so far)", flush=True)
        del state
    if not lead:
        st.recent_states = []
    invocation_start = t_start
    t_start -= st.elapsed_s   # the deadline and train_wall_s count every invocation's time

    round_start = time.time()
    round_loss = round_tok = 0
    stop = pause = st.finished
    bar = tqdm(total=total, initial=st.update, desc="train", mininterval=15, file=sys.stdout,
               disable=not lead)
    while not (stop or pause) and st.epoch <= args.epochs:
        model.train()
        rng.setstate(st.epoch_rng)
        batches = make_batches(examples, args.batch_size, rng)
        next_epoch_rng = rng.getstate()
        for b in batches[st.batch_in_epoch:]:
            if args.schedule == "cosine":
                lr_now = st.lr_scale * args.lr * 0.5 * (1.0 + math.cos(math.pi * st.cosine_phase(st.update)))
                if st.update < args.warmup:
                    lr_now *= (st.update + 1) / args.warmup
                for g in opt.param_groups:
                    g["lr"] = lr_now
            loss, ntok = train_step(model, opt, to_device(collate(examples, b[rank::world]), device),
                                    args.clip, world, args.label_smoothing, args.precision)
            round_loss += loss
            round_tok += ntok
            st.update += 1
            st.batch_in_epoch += 1
            if st.batch_in_epoch == len(batches):
                st.epoch, st.batch_in_epoch, st.epoch_rng = st.epoch + 1, 0, next_epoch_rng
            bar.update(1)
            bar.set_postfix(epoch=st.epoch, loss=f"{round_loss / round_tok:.3f}", refresh=False)
            if st.update % args.eval_every and st.update != st.end_update:
                continue
            # ---- validation round: dev WER/PER, keep best, lr halving, early stop, deadline.
            # The lead worker validates and decides; the others wait for its decision.
            if world > 1:
                # Workers apply identical updates; re-sync anyway so no float drift can build up.
                for p in model.parameters():
                    dist.broadcast(p.data, 0)
            decision = torch.zeros(6)  # [lr, stop, improved, rollback, end_update, pause]
            decision[4] = st.end_update
            if lead:
                decide(st, decision, log, model, opt, round_loss / round_tok, round_start,
                       n_batches, t_start, invocation_start, bar, args,
                       lambda: evaluate(model, src_vocab, tgt_vocab, dev_refs, greedy_opts),
                       lambda u, wer: save_checkpoint(model, src_vocab, tgt_vocab, args.out,
                                                      {"update": str(u), "dev_wer": f"{wer:.2f}"}))
            if world > 1:
                dist.broadcast(decision, 0)
            # Every worker keeps its own copy of the best state, so all can roll back alike.
            if decision[2]:
                st.best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
                st.best_opt_state = copy.deepcopy(opt.state_dict())
            if decision[3]:
                model.load_state_dict(st.best_state)
                opt.load_state_dict(copy.deepcopy(st.best_opt_state))
                st.lr_scale *= 0.5
                decision[0] = decision[0] * 0.5
            for g in opt.param_groups:
                g["lr"] = float(decision[0])
            stop, pause = bool(decision[1]), bool(decision[5])
            if int(decision[4]) != st.end_update:
                st.anchor_phase, st.anchor_update, st.end_update = (st.cosine_phase(st.update),
                                                                    st.update, int(decision[4]))
            if st.update >= st.end_update:
                stop = True
            st.finished = stop
            st.elapsed_s = time.time() - t_start
            save_loop_state(st, model, opt, log, rank, world, device, args)
            round_start, round_loss, round_tok = time.time(), 0, 0
            if stop or pause:
                break
    bar.close()
    if pause and not st.finished:
        if lead:
            print(f"paused at update {st.update} of {st.end_update}: run the same command again "
                  f"to continue", flush=True)
        return

    # ---- the weights to keep, then the final evaluation (metrics.json)
    run = RunEnd(model=model, src_vocab=src_vocab, tgt_vocab=tgt_vocab, dev_refs=dev_refs,
                 test_refs=test_refs, greedy_opts=greedy_opts, beam_opts=beam_opts, log=log,
                 out=args.out, rank=rank, world=world, t_start=t_start)
    keep_weights(run, st.best_state, st.best_entry, st.best_wer, st.recent_states, st.update,
                 args.average_last, args.keep)
    if not args.skip_final_eval:
        final_evaluation(run)
    if lead:
        remove_state(args.out)


def save_loop_state(st, model, opt, log, rank, world, device, args):
    """Every validation: each worker's dropout rng to the lead, which writes train_state.safetensors."""
    rngs = [rng_snapshot(device)]
    if world > 1:
        rngs = [None] * world
        dist.all_gather_object(rngs, rng_snapshot(device))
    if rank == 0:
        write_state(args.out, args, st, model, opt, log, rngs, device.type)


if __name__ == "__main__":
    main()
