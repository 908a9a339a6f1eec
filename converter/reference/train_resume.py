"""train.py's resumable state: what the training loop carries from one validation to the next,
written to <out>/train_state.safetensors at every validation, so that running the same command again
continues the run where it stopped (``--pause-after-min``, a killed job, a machine given back)
rather than starting over. On the same device type and worker count the continued run ends
with the same weights and log, bit for bit, as one uninterrupted invocation (the batch order's
rng is restored at the epoch's start and the epoch's batches re-drawn, every worker's dropout
rng is restored); elsewhere it follows the same schedule with other dropout masks.

The file holds the current weights and Adam state, the best validation's weights and Adam state
(the divergence guard's rollback target), the weights of the last ``--average-last``
validations, the cosine's anchors, the deadline's timings, the train log, and the flags and data
that define the run (``run_identity``): a state written by another run is refused by name, never
silently continued. It is removed once the run has written its final weights and metrics.

Format: no pickle (a state can come from another machine, and torch.load would run whatever a
pickle says): a safetensors file (safetensors_io.py) whose float32 tensors are named by their
path in the state ("model/encoder...", "optimizer/state/3/exp_avg"), and whose metadata
"train_state" is the JSON of everything else, each tensor there replaced by {"$f32": its name};
rng states (bytes) are base64. Written to a temporary file and renamed, so a kill mid-write
leaves the previous state whole.
"""
import base64
import copy
import hashlib
import json
import os
from dataclasses import dataclass, field

import torch

from safetensors_io import load_file, save_file

STATE_FILE = "train_state.safetensors"
STATE_VERSION = 1
EXIT_PAUSED = 75   # sysexits.h EX_TEMPFAIL: not done, run the same command again
CURRENT = "current"   # in a saved LoopState: this copy equals the saved weights / Adam state

# Flags that define the run's schedule and result; device, workers, threads, --out and the
# pause are how it runs, so a paused run may continue under other values of those.
IDENTITY_FLAGS = ("epochs", "batch_size", "eval_every", "lr", "clip", "seed", "schedule",
                  "label_smoothing", "model", "warmup", "init_from", "first_epoch",
                  "rollback_gap", "average_last", "deadline_min")


def run_identity(args):
    """The flags, config and data (by content, not path) a state must match to be continued."""
    ident = {k: getattr(args, k) for k in IDENTITY_FLAGS}
    ident["config"] = dict(args.config)
    if args.keep != "best":        # absent for the default, as precision is for fp32
        ident["keep"] = args.keep
    if args.precision != "fp32":   # absent for fp32, so states written before the flag still match
        ident["precision"] = args.precision
    for name in ("train.tsv", "dev.tsv"):
        with open(os.path.join(args.data, name), "rb") as f:
            ident[name] = hashlib.file_digest(f, "sha256").hexdigest()
    return ident


def encode(tree, name, tensors):
    """`tree` as JSON values; float32 tensors go to `tensors` under their path `name`."""
    if torch.is_tensor(tree):
        if tree.dtype == torch.float32:
            tensors[name] = tree
            return {"$f32": name}
        if tree.dtype == torch.uint8:   # rng states
            return {"$u8": base64.b64encode(tree.cpu().numpy().tobytes()).decode("ascii")}
        raise TypeError(f"{name}: cannot save a {tree.dtype} tensor")
    if isinstance(tree, dict):   # keys may be ints (optimizer state): kept as pairs
        return {"$dict": [[k, encode(v, f"{name}/{k}", tensors)] for k, v in tree.items()]}
    if isinstance(tree, (list, tuple)):
        return {"$tuple" if isinstance(tree, tuple) else "$list":
                [encode(v, f"{name}/{i}", tensors) for i, v in enumerate(tree)]}
    if tree is None or isinstance(tree, (bool, int, float, str)):
        return tree
    raise TypeError(f"{name}: cannot save a {type(tree).__name__}")


def decode(node, tensors):
    if not isinstance(node, dict):
        if isinstance(node, list):
            raise TypeError("a bare JSON list")
        return node
    if "$f32" in node:
        return tensors[node["$f32"]]
    if "$u8" in node:
        return torch.frombuffer(bytearray(base64.b64decode(node["$u8"])), dtype=torch.uint8)
    if "$dict" in node:
        return {k: decode(v, tensors) for k, v in node["$dict"]}
    if "$list" in node:
        return [decode(v, tensors) for v in node["$list"]]
    if "$tuple" in node:
        return tuple(decode(v, tensors) for v in node["$tuple"])
    raise TypeError(f"unknown node {sorted(node)[:3]}")


def decode_file(path):
    tensors, metadata = load_file(path)
    if "train_state" not in metadata:
        raise KeyError("no train_state metadata")
    return decode(json.loads(metadata["train_state"]), tensors)


def state_path(out):
    return os.path.join(out, STATE_FILE)


def read_state(out, identity):
    """The state saved in `out`, or None when there is none. Exits with the differing keys when
    it belongs to another run (other flags, config or data) or to another format version."""
    path = state_path(out)
    if not os.path.exists(path):
        return None
    try:
        state = decode_file(path)
    except (OSError, ValueError, KeyError, TypeError) as e:   # truncated, foreign or edited
        raise SystemExit(f"{path}: not a readable training state ({type(e).__name__}: {e}); "
                         f"remove it to start over")
    if state.get("version") != STATE_VERSION:
        raise SystemExit(f"{path}: training state of another format version "
                         f"({state.get('version')}, this train.py writes {STATE_VERSION}); "
                         f"remove it to start over")
    saved = state["identity"]
    differ = sorted(k for k in set(saved) | set(identity) if saved.get(k) != identity.get(k))
    if differ:
        detail = ", ".join(f"{k}: saved {saved.get(k)!r}, now {identity.get(k)!r}"
                           if k not in ("train.tsv", "dev.tsv") else f"{k}: other content"
                           for k in differ)
        raise SystemExit(f"{path} belongs to another run ({detail}); continue it with its own "
                         f"flags, or remove it (or choose another --out) to start over")
    return state


@dataclass
class LoopState:
    """The training loop's variables between validations (train.py's docstring says what each
    guard does). `epoch` is the 1-based epoch of this run that `batch_in_epoch` batches into;
    `epoch_rng` is the batch-order rng's state before that epoch's batches were drawn."""
    epoch_rng: object
    end_update: int
    update: int = 0
    epoch: int = 1
    batch_in_epoch: int = 0
    best_wer: float = None
    best_entry: dict = None
    best_state: dict = None
    best_opt_state: dict = None
    recent_states: list = field(default_factory=list)   # lead only
    lr_scale: float = 1.0            # halved by every rollback
    anchor_update: int = 0           # the cosine's phase is anchor_phase at anchor_update,
    anchor_phase: float = 0.0        # rising linearly to 1 at end_update
    recent_round_s: list = field(default_factory=list)  # seconds per update, last 3 rounds
    slowest_round_s: float = 0.0
    bad_evals: int = 0
    elapsed_s: float = 0.0           # wall seconds of the run so far, earlier invocations too
    finished: bool = False           # training is over; the weights to keep are still to write

    def cosine_phase(self, u):
        return self.anchor_phase + (1.0 - self.anchor_phase) * (
            (u - self.anchor_update) / (self.end_update - self.anchor_update))


def rng_snapshot(device):
    snap = {"cpu": torch.get_rng_state()}
    if device.type == "cuda":
        snap["cuda"] = torch.cuda.get_rng_state(device)
    return snap


def restore_rng(snap, device):
    torch.set_rng_state(snap["cpu"])
    if device.type == "cuda":
        torch.cuda.set_rng_state(snap["cuda"], device)


def to_cpu(tree):
    """A state dict / optimizer state with every tensor on the CPU, for writing at once: CPU
    tensors are the live ones, not copies (load_state_dict moves them back to the device)."""
    if torch.is_tensor(tree):
        return tree.detach().to("cpu")
    if isinstance(tree, dict):
        return {k: to_cpu(v) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return type(tree)(to_cpu(v) for v in tree)
    return tree


def same_tree(a, b):
    """True when two state dicts / optimizer states hold equal values (tensors compared)."""
    if torch.is_tensor(a) or torch.is_tensor(b):
        return torch.is_tensor(a) and torch.is_tensor(b) and a.shape == b.shape and torch.equal(
            a.to("cpu"), b.to("cpu"))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_tree(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_tree(x, y) for x, y in zip(a, b))
    return a == b


def validations_left(loop, eval_every):
    """Validations still to come: every eval_every-th update and the cosine's last one."""
    return (loop.end_update // eval_every - loop.update // eval_every
            + (1 if loop.end_update % eval_every else 0))


def compact_loop(loop, model_state, opt_state, args):
    """vars(loop) without the copies the file need not hold: the best weights and Adam state
    when they are the current ones (CURRENT), and averaging candidates that later validations
    are sure to replace (a cosine without deadline has a fixed number of validations left and
    no early stop; a rollback empties the list anyway). Mid-run, that leaves the weights and
    Adam state alone: 17 MB for the 1.4 M-parameter Transformer, not 62."""
    fields = dict(vars(loop))
    if fields["best_state"] is not None and same_tree(fields["best_state"], model_state):
        fields["best_state"] = CURRENT
    # The lr in param_groups is not compared: it is set anew after every rollback and step.
    if (fields["best_opt_state"] is not None
            and same_tree(fields["best_opt_state"]["state"], opt_state["state"])):
        fields["best_opt_state"] = CURRENT
    if (args.schedule == "cosine" and args.deadline_min <= 0
            and validations_left(loop, args.eval_every) >= args.average_last):
        fields["recent_states"] = []
    return to_cpu(fields)


def write_state(out, args, loop, model, opt, log, worker_rngs, device_type):
    """Saves the loop (lead only): worker_rngs[rank] is each worker's rng_snapshot."""
    model_state, opt_state = model.state_dict(), opt.state_dict()
    blob = {"version": STATE_VERSION, "identity": args.identity,
            "loop": compact_loop(loop, model_state, opt_state, args),
            "model": to_cpu(model_state), "optimizer": to_cpu(opt_state),
            "log": log, "worker_rngs": worker_rngs, "device_type": device_type}
    path = state_path(out)
    tmp = f"{path}.tmp.{os.getpid()}"
    try:
        tensors = {}
        skeleton = encode(blob, "", tensors)
        save_file(tensors, tmp, {"train_state": json.dumps(skeleton, separators=(",", ":"))})
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def resume_loop(state, model, opt, device):
    """Loads a read_state() result into the model and optimizer; returns the LoopState and log."""
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["optimizer"])   # moves the moments to the parameters' device
    loop = LoopState(**state["loop"])
    if loop.best_state == CURRENT:
        loop.best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
    elif loop.best_state is not None:
        loop.best_state = {k: v.to(device) for k, v in loop.best_state.items()}
    if loop.best_opt_state == CURRENT:
        loop.best_opt_state = copy.deepcopy(opt.state_dict())
    return loop, state["log"]


def remove_state(out):
    if os.path.exists(state_path(out)):
        os.remove(state_path(out))
