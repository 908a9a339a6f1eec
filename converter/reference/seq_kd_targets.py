#!/usr/bin/env python3
"""Sequence-level distillation targets (Kim and Rush 2016, "Sequence-Level Knowledge Distillation").

    seq_kd_targets.py --data data/g2p --nbest NBEST_FILE --out DIR [--mode inter|kd|union]

--mode kd (Seq-KD, for training a smaller student): one line per distinct word of
DATA/train.tsv, in first-seen order, whose target is the teacher's best hypothesis.

--mode union (gold plus teacher): every line of DATA/train.tsv unchanged, followed by one line per
distinct word whose teacher's best hypothesis is none of that word's gold pronunciations, with that
hypothesis as its target: the gold split augmented with the teacher's disagreements, so a
fine-tuned model sees both and the agreed words keep their weight.

--mode inter (the default, Seq-Inter): for every line ``word<TAB>gold`` of DATA/train.tsv, the target becomes the hypothesis of the
model's n-best list (NBEST_FILE) closest to the gold pronunciation (phoneme Levenshtein distance;
ties -> the better-scored hypothesis): the gold itself whenever the beam reaches it, otherwise
the nearest output the model can produce. Fine-tuning a model on its own interpolated targets
moves its greedy output towards its beam output (their Table 1: the teacher fine-tuned this way
gains most of beam search's lead at K = 1).

NBEST_FILE is what ``edgenmt translate -m <model>.f32.enmt --beam 5 --nbest 5 --alpha 0 --beta 0
--max-len 64`` prints for the distinct words of train.tsv (``word<TAB>rank<TAB>score<TAB>output``;
the float32 file decodes as the PyTorch reference does, word for word). DIR gets train.tsv
(inter: same lines and order, new targets) and copies of dev.tsv and test.tsv, so dev and test stay
the gold splits. Files are written to temporary names and renamed: a failed run leaves none.
"""
import argparse
import collections
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from g2p_metrics import edit_distance  # noqa: E402


def read_nbest(path):
    """word -> [(rank, output tokens)], best first."""
    nbest = collections.defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 4 or not parts[1].isdigit():
                sys.exit(f"{path}:{n}: expected word<TAB>rank<TAB>score<TAB>output, got {line!r}")
            nbest[parts[0]].append((int(parts[1]), parts[3].split()))
    for hyps in nbest.values():
        hyps.sort(key=lambda h: h[0])
    return nbest


def interpolate(gold, hyps):
    """The hypothesis closest to gold (the first, i.e. best-scored, among equals)."""
    best, best_d = None, None
    for _, out in hyps:
        d = edit_distance(out, gold)
        if best_d is None or d < best_d:
            best, best_d = out, d
    return best, best_d


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        os.fchmod(fd, 0o666 & ~current_umask())  # mkstemp's 0600 is for secrets, not data
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="data/g2p")
    ap.add_argument("--nbest", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--mode", choices=("inter", "kd", "union"), default="inter")
    args = ap.parse_args()
    nbest = read_nbest(args.nbest)
    lines, kept, moved, dist, seen = [], 0, 0, 0, set()
    golds = collections.defaultdict(list)  # union: word -> its gold pronunciations
    with open(os.path.join(args.data, "train.tsv"), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 2:
                sys.exit(f"train.tsv:{n}: expected word<TAB>phonemes")
            word, gold = parts[0], parts[1].split()
            if not nbest.get(word):
                sys.exit(f"{args.nbest}: no hypotheses for {word!r} (train.tsv:{n})")
            if args.mode == "union":
                golds[word].append(gold)
                lines.append(line if line.endswith("\n") else line + "\n")
                continue
            if args.mode == "kd":
                if word in seen:
                    continue
                seen.add(word)
                target, d = nbest[word][0][1], edit_distance(nbest[word][0][1], gold)
            else:
                target, d = interpolate(gold, nbest[word])
            kept += d == 0
            moved += d > 0
            dist += d
            lines.append(f"{word}\t{' '.join(target)}\n")
    if args.mode == "union":
        for word, word_golds in golds.items():  # dict order: first-seen order of train.tsv
            target = nbest[word][0][1]
            d = min(edit_distance(target, gold) for gold in word_golds)
            kept += d == 0
            if d > 0:
                moved += 1
                dist += d
                lines.append(f"{word}\t{' '.join(target)}\n")
    os.makedirs(args.out, exist_ok=True)
    write_atomic(os.path.join(args.out, "train.tsv"), "".join(lines))
    for name in ("dev.tsv", "test.tsv"):
        tmp = os.path.join(args.out, f".tmp-{name}")
        shutil.copyfile(os.path.join(args.data, name), tmp)
        os.replace(tmp, os.path.join(args.out, name))
    if args.mode == "union":
        print(f"{len(lines)} lines: the {len(lines) - moved} of train.tsv, then {moved} teacher "
              f"outputs for the words whose best is none of their golds ({kept} words agree; mean "
              f"distance to the nearest gold {dist / max(moved, 1):.2f} phonemes)")
        return
    how = "the teacher's best" if args.mode == "kd" else "the closest of the n-best"
    print(f"{len(lines)} lines: {kept} targets equal to the gold, {moved} replaced by {how} "
          f"(mean distance to the gold {dist / max(moved, 1):.2f} phonemes; kd: the word's "
          f"first gold)")


if __name__ == "__main__":
    main()
