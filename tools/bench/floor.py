"""The weight-read floor of `make bench`: how long a word must take at least if every weight it
needs is read once per use, each part at the read bandwidth of the cache level its working set
lives in.

Counted from the model file itself (`edgenmt inspect` lists every tensor, its bytes and its
scales), per word with S source characters and T decoder steps (T counts the step that emits
</s>; for beam search one step serves all live hypotheses, which share one read of the
weights). Quantization scales (4 bytes per channel) are counted with their tensors.

    floor = once / bw(whole) + S * per_char / bw(direction) + T * per_step / bw(step)

  * once      the encoder's input projections (weight_ih, which can be applied to the whole
              source as one matrix product), the encoder biases and the bridge. Each is read
              once per word, so between two reads of it the whole model is read: it streams
              from a working set the size of all the weights (bw(whole)).
  * per_char  the encoder's recurrent weights (weight_hh of every layer and direction) and one
              source embedding row. A direction's recurrence reads its own weight_hh at every
              character and nothing else of size in between (the runtime runs one direction
              after the other, as any implementation can): the working set is one direction's
              weight_hh, the smallest set that must be re-read (bw(direction)).
  * per_step  every decoder weight (LSTM cell, attention, attn_out, generator) and one target
              embedding row: a step reads all of them, so they are the working set (bw(step)).

Each bw(size) is measured now by bandwidth.c on a buffer of that size: the best one core reads
from the smallest cache level that holds it. Where a choice was open it was made so the floor
is lower, never higher, than any implementation's time: the first read of a part in a word
(from a farther level) is costed at the nearer level's bandwidth, weight_ih counts once though
edgenmt applies it per block of 4 positions, and compute is ignored entirely. So the floor is a
bound, not an estimate, and efficiency = floor / measured time per word is at most 100 %.
"""
import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROW = re.compile(r"^\s+(\S+)\s+(f32|i8|i32|u8|f16)\s+\[([0-9, ]+)\]\s+(\d+)\s+(.*)$")
SCALES = re.compile(r"(\d+) scale\(s\)")
PARTS = ("once", "per_char", "per_step")
WORKING_SET = {"once": "whole", "per_char": "direction", "per_step": "step"}
WHAT = {"whole": "all weights", "direction": "one encoder direction's weight_hh",
        "step": "all decoder weights"}   # what each working set holds


def inspect_tensors(cli, model):
    """[(name, shape, data bytes, scale bytes)] from `edgenmt inspect MODEL`."""
    out = subprocess.run([cli, "inspect", model], check=True, capture_output=True, text=True).stdout
    tensors = []
    for line in out.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        shape = [int(x) for x in m.group(3).split(",")]
        s = SCALES.search(m.group(5))
        tensors.append((m.group(1), shape, int(m.group(4)), 4 * int(s.group(1)) if s else 0))
    if not tensors:
        raise RuntimeError(f"no tensor table in `edgenmt inspect {model}`")
    return tensors


def weight_classes(tensors):
    """Bytes read once per word, per source character and per decoder step, and the working
    set each part streams from (bytes): {"once", "per_char", "per_step", "sizes": {"whole",
    "direction", "step"}, "total"}."""
    once = per_char = per_step = direction = 0
    for name, shape, data, scales in tensors:
        size = data + scales
        if name == "src_embed.weight":
            per_char += size // shape[0]                # one row per character
        elif name == "tgt_embed.weight":
            per_step += size // shape[0]                # one row per step
        elif name.startswith("encoder.rnn.weight_hh"):
            per_char += size
            direction = max(direction, size)            # one (layer, direction) at a time
        elif name.startswith(("encoder.", "bridge.")):
            once += size
        elif name.startswith(("decoder.", "attn.", "attn_out.", "generator.")):
            per_step += size
        else:
            raise RuntimeError(f"floor: tensor {name} is not classified")
    total = sum(d + s for _, _, d, s in tensors)
    return {"once": once, "per_char": per_char, "per_step": per_step, "total": total,
            "sizes": {"whole": page(total), "direction": page(direction), "step": page(per_step)}}


def page(size):
    """A working set rounded up to 4 KiB: sets a few bytes apart (int8 and int8-full) share one
    measurement, and the rounding only adds bytes to the buffer, never removes."""
    return -(-size // 4096) * 4096


def floor_us(classes, bw, avg_src_len, avg_steps):
    """The floor in µs per word; bw maps a working-set size in bytes to GB/s."""
    count = {"once": 1.0, "per_char": avg_src_len, "per_step": avg_steps}
    return sum(count[p] * classes[p] / (bw[classes["sizes"][WORKING_SET[p]]] * 1e3)
               for p in PARTS)


def bytes_per_word(classes, avg_src_len, avg_steps):
    return classes["once"] + avg_src_len * classes["per_char"] + avg_steps * classes["per_step"]


def describe(scheme, classes, bw, avg_src_len, avg_steps):
    """One line: the parts of a greedy word, each with its working set and bandwidth."""
    parts = []
    for p, n in (("once", "once"), ("per_char", "per char"), ("per_step", "per step")):
        ws = classes["sizes"][WORKING_SET[p]]
        parts.append(f"{classes[p]} B {n} @ {bw[ws]:.1f} GB/s ({WHAT[WORKING_SET[p]]}, "
                     f"{ws / 1e6:.2f} MB)")
    total = bytes_per_word(classes, avg_src_len, avg_steps)
    return (f"  {scheme}: " + " + ".join(parts) + f" = {total / 1e6:.2f} MB, "
            f"{floor_us(classes, bw, avg_src_len, avg_steps):.1f} µs per greedy word")


def bandwidth_line(classes, bw):
    """The measured bandwidths, each with the working sets it stands for."""
    users = {}
    for scheme, c in classes.items():
        for ws, size in c["sizes"].items():
            users.setdefault(size, []).append(f"{scheme} {ws}")
    return ("read bandwidth of one core by working set (bandwidth.c: best of 100 passes of 2 ms, "
            "32- and 64-byte loads, before and after the rows, the higher counts): " +
            ", ".join(f"{s / 1e6:.3f} MB ({', '.join(users.get(s, []))}) {g:.1f} GB/s"
                      for s, g in sorted(bw.items())))


def compile_tool(work, name, flags=("-O2",)):
    """tools/bench/NAME.c compiled into `work` once (again when the source is newer); its path."""
    exe = os.path.join(work, name)
    src = os.path.join(HERE, name + ".c")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        cc = shutil.which("cc") or shutil.which("gcc")
        if not cc:
            raise RuntimeError(f"no C compiler for {name}.c (make deps installs build-essential)")
        subprocess.run([cc, *flags, "-o", exe, src], check=True)
    return exe


def bandwidths(work, sizes):
    """GB/s read by one core from a buffer of each size (bandwidth.c)."""
    exe = compile_tool(work, "bandwidth", ("-O3", "-march=native"))
    sizes = sorted(set(sizes))
    out = subprocess.run([exe] + [str(s) for s in sizes], check=True, capture_output=True,
                         text=True).stdout
    gbps = [float(line.split()[1]) for line in out.splitlines() if line]
    return dict(zip(sizes, gbps))   # one line per size, in order
