"""The end of a train.py run: the weights it keeps (the best validation, or an average of the
last validations' weights when that decodes dev better) and the final evaluation
(metrics.json: dev and test, greedy and beam 5, the numbers evaluate.py prints).

``--average-last K`` (off by default) adds checkpoint averaging: the weights at the last K
validations are kept, and at the end the averages of the last 2..K are decoded on dev; the best
single model or an average, whichever has the lower dev WER, is written (logged as "averaging").
Measured on a 40-epoch run of the enc_hidden 128 config (K = 8): the averages scored 25.40-25.52 dev
WER against the best single epoch's 25.40, so no gain; the cosine has already annealed the
weights to one point by then.
"""
import json
import os
import time
from dataclasses import dataclass

import torch
import torch.distributed as dist

from checkpoint import save_checkpoint
from evaluate import decode_words, evaluate
from g2p_metrics import score


@dataclass
class RunEnd:
    model: torch.nn.Module
    src_vocab: object
    tgt_vocab: object
    dev_refs: dict
    test_refs: dict
    greedy_opts: object
    beam_opts: object
    log: dict       # train_log.json's content (the lead's; workers' copies are not written)
    out: str
    rank: int
    world: int
    t_start: float

    @property
    def lead(self):
        return self.rank == 0

    def write_log(self):
        with open(os.path.join(self.out, "train_log.json"), "w") as f:
            json.dump(self.log, f, indent=2)


def average_state_dicts(states):
    """The element-wise mean of state dicts with the same keys (summed in float64)."""
    return {name: (sum(s[name].double() for s in states) / len(states)).to(t.dtype)
            for name, t in states[0].items()}


def rounded(r):
    return {"words": r["words"], "wer": round(r["wer"], 2), "per": round(r["per"], 2)}


def keep_weights(run, best_state, best_entry, best_wer, recent_states, update, average_last,
                 keep="best"):
    """Loads the weights to keep into run.model in every worker and (lead) writes them with
    train_log.json's "best". recent_states: the lead's weights at the last validations.
    keep="last-average": the average of all of recent_states, not chosen by dev."""
    model = run.model
    model.load_state_dict(best_state)
    chosen = None
    if run.lead:
        chosen = {"update": best_entry["update"], "epoch": best_entry["epoch"], "dev_wer": best_wer}
    if run.lead and len(recent_states) > 1:
        # Weight averaging of the last validations (checkpoint averaging): late in the cosine
        # the weights wander around one basin, and their mean often decodes better than any
        # single point. Dev WER decides between the best single model and each average.
        chosen_state, trials = best_state, []
        for k in range(2, len(recent_states) + 1):
            avg = average_state_dicts(recent_states[-k:])
            model.load_state_dict(avg)
            dev = evaluate(model, run.src_vocab, run.tgt_vocab, run.dev_refs, run.greedy_opts)
            trial = {"last": k, "from_update": run.log["evals"][-k]["update"],
                     "dev_wer": dev["wer"], "dev_per": dev["per"]}
            trials.append(trial)
            print(f"average of the last {k} validations: dev WER={dev['wer']:.2f} "
                  f"PER={dev['per']:.2f}", flush=True)
            if ((keep == "best" and dev["wer"] < chosen["dev_wer"])
                    or (keep == "last-average" and k == len(recent_states))):
                chosen = {"average_last": k, "from_update": trial["from_update"], "update": update,
                          "epoch": run.log["evals"][-1]["epoch"], "dev_wer": dev["wer"]}
                chosen_state = avg
        run.log["averaging"] = trials
        model.load_state_dict(chosen_state)
    if run.world > 1 and average_last > 1:
        # Only the lead tried the averages: give every worker the chosen weights. (Without
        # averaging every worker already holds the best state.)
        for t in model.state_dict().values():
            dist.broadcast(t, 0)
    if run.lead:
        save_checkpoint(model, run.src_vocab, run.tgt_vocab, run.out,
                        {"update": str(chosen["update"]), "dev_wer": f"{chosen['dev_wer']:.2f}",
                         **({"average_last": str(chosen["average_last"])}
                            if "average_last" in chosen else {})})
        run.log["best"] = chosen
        run.log["train_wall_s"] = round(time.time() - run.t_start, 1)
        run.write_log()


def final_evaluation(run):
    """Dev and test, greedy and beam 5, into <out>/metrics.json (every worker takes part)."""
    model = run.model
    model.to("cpu")   # the final evaluation decodes on the CPU, as evaluate.py does
    model.eval()
    metrics = {"decode": {"greedy": vars(run.greedy_opts), "beam5": vars(run.beam_opts)}}
    for split, refs in (("dev", run.dev_refs), ("test", run.test_refs)):
        words = list(refs)
        # Beam search decodes each word on its own, so the workers split the words between
        # them and the result is the same as one process's. Greedy decodes in batches, whose
        # composition could change float rounding, so the lead decodes the whole list, as
        # evaluate.py does.
        share = decode_words(model, run.src_vocab, run.tgt_vocab, words[run.rank::run.world],
                             run.beam_opts, progress=run.lead)
        if run.world > 1:
            shares = [None] * run.world
            dist.all_gather_object(shares, share)
            for s in shares:
                share.update(s)
        if not run.lead:
            continue
        results = {"greedy": evaluate(model, run.src_vocab, run.tgt_vocab, refs, run.greedy_opts),
                   "beam5": score({w: share[w] for w in words}, refs)}
        for name in ("greedy", "beam5"):
            r = rounded(results[name])
            metrics.setdefault(split, {})[name] = r
            print(f"{split} {name}: words={r['words']} WER={r['wer']:.2f} PER={r['per']:.2f}",
                  flush=True)
    if not run.lead:
        return
    with open(os.path.join(run.out, "metrics.json"), "w") as f:
        json.dump(metrics, f, indent=2)
        f.write("\n")
    run.log["total_wall_s"] = round(time.time() - run.t_start, 1)
    run.write_log()
    print(f"done in {run.log['total_wall_s']:.0f} s", flush=True)
