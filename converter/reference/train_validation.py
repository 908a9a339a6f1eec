"""train.py's validation round, as the lead worker decides it: dev WER/PER, the best model so
far, the divergence rollback, plateau lr halving and early stop, the deadline-shortened cosine,
and the pause of ``--pause-after-min`` (train.py's docstring describes each guard)."""
import json
import os
import sys
import time

from train_args import PATIENCE, PLATEAU_MIN_GAIN


def decide(st, decision, log, model, opt, train_nll, round_start, n_batches, t_start,
           invocation_start, bar, args, evaluate_dev, save_best):
    """Fills decision = [lr, stop, improved, rollback, end_update, pause] for every worker and
    updates the lead's LoopState `st` and `log`. evaluate_dev() decodes dev; save_best(update,
    wer) writes the best checkpoint."""
    train_s = time.time() - round_start
    t0 = time.time()
    dev = evaluate_dev()
    model.train()
    lr = opt.param_groups[0]["lr"]
    update = st.update
    prev_update = log["evals"][-1]["update"] if log["evals"] else 0
    entry = {"update": update, "epoch": round(update / n_batches, 3),
             "train_nll": train_nll, "dev_wer": dev["wer"],
             "dev_per": dev["per"], "lr": lr, "train_s": round(train_s, 1),
             "s_per_batch": round(train_s / (update - prev_update), 4),
             "eval_s": round(time.time() - t0, 1)}
    improved = st.best_wer is None or dev["wer"] < st.best_wer
    plateau = st.best_wer is not None and dev["wer"] > st.best_wer - PLATEAU_MIN_GAIN
    if improved:
        st.best_wer, st.best_entry = dev["wer"], entry
        entry["best"] = True
    # Divergence (seen on GPU runs: a local-p model jumping from 30 % to 51 % dev WER mid-run
    # and never recovering): go back to the best weights and optimizer state and continue with
    # half the lr, rather than train on from a broken model.
    rollback = not improved and dev["wer"] > st.best_wer + args.rollback_gap
    if rollback:
        entry["rollback_to"] = st.best_entry["update"]
        log["rollbacks"].append({"update": update, "dev_wer": dev["wer"],
                                 "to_update": st.best_entry["update"]})
    st.bad_evals = 0 if improved else st.bad_evals + 1
    if args.schedule != "plateau":
        plateau, st.bad_evals = False, 0   # the schedule sets the lr; no early stop
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
        st.recent_states = [] if rollback else (st.recent_states + [
            {k: v.detach().to("cpu", copy=True) for k, v in model.state_dict().items()}
        ])[-args.average_last:]
    if improved:
        save_best(update, dev["wer"])
    now = time.time()
    st.slowest_round_s = max(st.slowest_round_s, now - round_start)
    st.recent_round_s = (st.recent_round_s + [(now - round_start) / (update - prev_update)])[-3:]
    elapsed = now - t_start
    if args.schedule == "cosine" and args.deadline_min > 0 and update < st.end_update:
        # The slowest of the last three rounds predicts the rest: if the planned updates would
        # end past the deadline, end the cosine earlier.
        fits = int((60 * args.deadline_min - elapsed) / max(st.recent_round_s))
        if update + fits < st.end_update:
            new_end = max(update + 1, update + fits)
            log.setdefault("deadline_reschedules", []).append(
                {"update": update, "elapsed_s": round(elapsed, 1),
                 "end_update": new_end, "planned_end_update": st.end_update})
            bar.write(f"deadline: the cosine now ends at update {new_end} "
                      f"(planned {st.end_update})")
            decision[4] = new_end
    stop = False
    total = args.epochs * n_batches
    if st.bad_evals >= PATIENCE:
        bar.write(f"early stop: {PATIENCE} validations without dev WER improvement")
        stop = True
    elif (args.schedule == "plateau" and args.deadline_min > 0 and update != total
          and elapsed + st.slowest_round_s > 60 * args.deadline_min):
        log["stopped_by_deadline"] = {"update": update, "elapsed_s": round(elapsed, 1)}
        bar.write(f"deadline: stopping after update {update} ({elapsed:.0f} s elapsed)")
        stop = True
    # Pause when the next round (timed like the deadline's) would end past this invocation's
    # budget; the state written after this round lets the same command continue.
    next_round_s = max(st.recent_round_s) * args.eval_every
    pause = (args.pause_after_min is not None and
             now - invocation_start + next_round_s > 60 * args.pause_after_min)
    decision[0], decision[1] = lr, float(stop)
    decision[2], decision[3] = float(improved), float(rollback)
    decision[5] = float(pause)
