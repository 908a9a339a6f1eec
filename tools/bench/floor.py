"""The weight-read floor of `make bench`: how long a word must take at least if every weight
it needs is read once per use at the core's measured read bandwidth.

Counted from the model file itself (`edgenmt inspect` lists every tensor, its bytes and its
scales), per word with S source characters and T decoder steps (T counts the step that emits
</s>; for beam search one step serves all live hypotheses, which share one read of the
weights):
  * once:           the encoder's input projections (weight_ih, applied to the whole source
                    as one matrix product), the encoder biases and the bridge;
  * S times:        the encoder's recurrent weights (weight_hh of every layer and direction)
                    and one source embedding row;
  * T times:        every decoder weight (LSTM cell, attention, attn_out, generator) and one
                    target embedding row.
Quantization scales (4 bytes per channel) are counted with their tensors. The bandwidth comes
from bandwidth.c run on a buffer as large as the model's weights (where they live between
words), so floor = bytes per word / bandwidth. It ignores compute entirely, so it is a bound,
not an estimate: efficiency = floor / measured time per word.
"""
import re
import subprocess

ROW = re.compile(r"^\s+(\S+)\s+(f32|i8|i32|u8|f16)\s+\[([0-9, ]+)\]\s+(\d+)\s+(.*)$")
SCALES = re.compile(r"(\d+) scale\(s\)")


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
    """Bytes read once per word, per source character and per decoder step."""
    once = per_char = per_step = 0
    for name, shape, data, scales in tensors:
        size = data + scales
        if name == "src_embed.weight":
            per_char += size // shape[0]                # one row per character
        elif name == "tgt_embed.weight":
            per_step += size // shape[0]                # one row per step
        elif name.startswith("encoder.rnn.weight_hh"):
            per_char += size
        elif name.startswith(("encoder.", "bridge.")):
            once += size
        elif name.startswith(("decoder.", "attn.", "attn_out.", "generator.")):
            per_step += size
        else:
            raise RuntimeError(f"floor: tensor {name} is not classified")
    total = sum(d + s for _, _, d, s in tensors)
    return {"once": once, "per_char": per_char, "per_step": per_step, "total": total}


def bytes_per_word(classes, avg_src_len, avg_steps):
    return classes["once"] + avg_src_len * classes["per_char"] + avg_steps * classes["per_step"]
