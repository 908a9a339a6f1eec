"""train.py's command line: its flags, their defaults and the recipe constants they name
(train.py's docstring describes the recipe)."""
import argparse

from recipes import RECIPES

DEFAULT_EPOCHS = 30
PATIENCE = 3
PLATEAU_MIN_GAIN = 0.5   # dev WER points: a smaller gain over the best counts as a plateau
EVAL_EVERY = 451         # updates between validations (one epoch at batch 256)
ROLLBACK_GAP = 5.0       # dev WER points above the best that count as a divergence
EVAL_MAX_LEN = 64
AVERAGE_LAST = 0         # validations the end-of-run weight averaging may combine; 0: off


def build_parser(description=None):
    ap = argparse.ArgumentParser(description=description,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--recipe", default="",
                    help="start from a named recipe's flags and config (recipes.py: "
                         f"{', '.join(RECIPES)}); flags given here win")
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
    ap.add_argument("--precision", choices=("fp32", "bf16"), default="fp32",
                    help="bf16: forward pass and loss under torch.autocast(bfloat16) (matrix "
                         "products in bfloat16, weights, gradients and Adam state in float32); "
                         "2.3-2.9x faster a batch on a CPU with AVX512_BF16 (this machine's EPYC)")
    ap.add_argument("--time-batches", type=int, default=0,
                    help="only time this many training batches, print s/batch and exit")
    ap.add_argument("--skip-final-eval", action="store_true")
    ap.add_argument("--init-from", default="",
                    help="warm start: load the weights of this checkpoint directory (same config "
                         "but for dropout, same vocabularies) and continue training from them")
    ap.add_argument("--first-epoch", type=int, default=1,
                    help="number of the first epoch (continues the numbering after --init-from)")
    ap.add_argument("--rollback-gap", type=float, default=ROLLBACK_GAP,
                    help="divergence guard: when dev WER is more than this many points above the "
                         "best so far, the weights and Adam state go back to the best validation "
                         "and the lr is halved from then on (logged in train_log.json)")
    ap.add_argument("--average-last", type=int, default=AVERAGE_LAST,
                    help="at the end, also try the averages of the weights of the last 2..K "
                         "validations and keep whichever candidate has the best dev WER (0: off)")
    ap.add_argument("--keep", choices=("best", "last-average"), default="best",
                    help="best: dev WER chooses between the best single validation and the "
                         "averages (above); last-average: keep the average of the last "
                         "--average-last validations, whatever dev says (a late average is "
                         "steadier than a single validation that dev's noise put first)")
    ap.add_argument("--deadline-min", type=float, default=0.0,
                    help="if > 0: end training by this many minutes. cosine: at each validation, "
                         "if the remaining updates (timed by the slowest of the last 3 rounds) would "
                         "end later, the cosine is shortened to end in time; plateau: stop at the "
                         "validation after which the next round would end later. Logged in "
                         "train_log.json")
    ap.add_argument("--pause-after-min", type=float, default=None, metavar="M",
                    help="end this invocation at the first validation after which the next "
                         "round would end past M minutes of it (0: at the first validation), "
                         "leaving the run's state in OUT/train_state.safetensors; the same command then "
                         "continues the run (train_resume.py). Exit status 75 while paused")
    return ap
