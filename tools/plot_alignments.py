#!/usr/bin/python3
"""Renders `edgenmt translate --alignments OUT.json` as an alignment heatmap PNG, in the style of
Luong et al. (2015)'s alignment figures: source characters along x, output tokens along y (the
last row is </s> when the hypothesis ended with it), a_t(s) as grey levels.

    printf 'translation\\n' | build/host/edgenmt translate -m build/models/g2p-en.f32.enmt \\
        --alignments /tmp/a.json
    /usr/bin/python3 tools/plot_alignments.py /tmp/a.json --out docs/alignment.png \\
        --checkpoint models/g2p-en

local-p's predicted positions p_t are not in the JSON (the runtime returns a_t only), so with
--checkpoint (the checkpoint the model file was converted from) the script recomputes them with
the PyTorch reference (converter/reference), teacher-forced on the plotted output, and draws
p_t with its window [p_t - D, p_t + D]. It first checks that the reference reproduces the JSON's
attention (largest difference printed) and that every nonzero weight of the JSON lies inside
the window of the recomputed p_t, so a wrong checkpoint is an error, not a wrong picture.
Needs Debian's python3-matplotlib (and python3-torch for --checkpoint).
"""
import argparse
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

REFERENCE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "converter", "reference")
# The reference in float32 against the runtime's float32 file agrees to ~1e-6; an int8 file
# differs more but far less than this, while another checkpoint's attention differs by O(1).
MAX_ATTENTION_DIFFERENCE = 0.05


def reference_positions(checkpoint, entry, hypothesis):
    """(p_t per step, window D, largest |a_ref - a_json|) from the reference, teacher-forced."""
    sys.path.insert(0, REFERENCE_DIR)
    import torch
    from checkpoint import load_checkpoint, tokenize_source

    model, src_vocab, tgt_vocab = load_checkpoint(checkpoint)
    if model.cfg.attention != "local_p":
        return None, None, None
    src = src_vocab.encode(tokenize_source(entry["source"], model.cfg.tokenizer))
    tgt = tgt_vocab.encode(hypothesis["output"].split())
    steps = len(hypothesis["attention"])
    # Decoder inputs: <s> then the output; steps = len(output) (+ 1 for the </s> step).
    tgt_in = torch.tensor([([tgt_vocab.index["<s>"]] + tgt)[:steps]])
    fractions = []
    hook = model.attn.predict_v.register_forward_hook(
        lambda module, inputs, output: fractions.append(torch.sigmoid(output).item()))
    with torch.no_grad():
        _, attention = model(torch.tensor([src]), torch.tensor([len(src)]), tgt_in)
    hook.remove()
    difference = max(abs(float(attention[0, t, s]) - hypothesis["attention"][t][s])
                     for t in range(steps) for s in range(len(src)))
    return [len(src) * f for f in fractions], model.cfg.window, difference


def outside_window(positions, window, attention):
    """Rows whose nonzero a_t(s) fall outside local-p's window around the recomputed p_t
    (lo = max(0, ceil(p - D)), hi = min(S - 1, floor(p + D)), docs/MODEL.md): the runtime's
    own evidence of where p_t was, independent of the reference's numbers."""
    bad = []
    for t, (p, row) in enumerate(zip(positions, attention)):
        lo, hi = max(0, math.ceil(p - window)), min(len(row) - 1, math.floor(p + window))
        if any(a != 0.0 and not lo <= s <= hi for s, a in enumerate(row)):
            bad.append(t)
    return bad


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("alignments", help="JSON written by edgenmt translate --alignments")
    parser.add_argument("--out", required=True, help="PNG to write")
    parser.add_argument("--line", type=int, default=None, help="input line to plot (default: first)")
    parser.add_argument("--hypothesis", type=int, default=0, help="n-best rank, 0 = best")
    parser.add_argument("--checkpoint", help="checkpoint directory, to draw local-p's p_t")
    args = parser.parse_args()

    with open(args.alignments, encoding="utf-8") as f:
        entries = json.load(f)
    entry = entries[0] if args.line is None else next(
        (e for e in entries if e["line"] == args.line), None)
    if entry is None:
        sys.exit(f"plot_alignments: no line {args.line} in {args.alignments}")
    hypothesis = entry["hypotheses"][args.hypothesis]
    attention = hypothesis["attention"]
    if not attention:
        sys.exit("plot_alignments: the hypothesis has no attention")
    source = entry["source_tokens"]
    outputs = hypothesis["output"].split()
    outputs += ["</s>"] * (len(attention) - len(outputs))

    positions = window = None
    if args.checkpoint:
        positions, window, difference = reference_positions(args.checkpoint, entry, hypothesis)
        if positions is not None:
            print(f"plot_alignments: reference attention differs from the JSON's by at most "
                  f"{difference:.2g}")
            if difference > MAX_ATTENTION_DIFFERENCE:
                sys.exit(f"plot_alignments: {args.checkpoint} does not reproduce this attention "
                         f"(difference {difference:.3g}); is it the model's checkpoint?")
            bad = outside_window(positions, window, attention)
            if bad:
                sys.exit(f"plot_alignments: steps {bad} attend outside the window of the "
                         f"recomputed p_t")

    width = max(4.0, 0.45 * len(source) + 1.8)
    height = max(3.0, 0.4 * len(outputs) + 1.4)
    fig, ax = plt.subplots(figsize=(width, height), dpi=120)
    image = ax.imshow(attention, cmap="gray_r", vmin=0.0, vmax=1.0, aspect="equal")
    ax.set_xticks(range(len(source)))
    ax.set_xticklabels(source, fontsize=11)
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_yticks(range(len(outputs)))
    ax.set_yticklabels(outputs, fontsize=10)
    ax.set_xlabel("source characters")
    ax.set_ylabel("output phonemes")
    if positions is not None:
        rows = list(range(len(positions)))
        ax.plot(positions, rows, "o-", color="tab:red", markersize=4, linewidth=1.2,
                label="local-p $p_t$")
        ax.fill_betweenx(rows, [p - window for p in positions], [p + window for p in positions],
                         color="tab:red", alpha=0.08, label=f"window $p_t \\pm D$ (D={window})")
        ax.set_xlim(-0.5, len(source) - 0.5)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.02), ncol=2, fontsize=8,
                  frameon=False)
    fig.colorbar(image, ax=ax, fraction=0.04, pad=0.03, label="$a_t(s)$")
    ax.set_title(f"\"{entry['source']}\" → {hypothesis['output']}", fontsize=11, pad=10)
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"plot_alignments: wrote {args.out} ({len(outputs)} x {len(source)})")


if __name__ == "__main__":
    main()
