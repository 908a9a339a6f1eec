"""WER / PER against the closest reference (the C++ CLI replicates these definitions).

For each word with hypothesis Y and reference pronunciations R_1..R_k (in file order):
  * closest reference R* = the R_i with minimal Levenshtein distance d(Y, R_i) over phoneme
    tokens (unit cost insert/delete/substitute); ties -> the first listed.
  * the word is wrong iff d(Y, R*) > 0.
  * WER = 100 * (#wrong words) / (#words).
  * PER = 100 * sum over words of d(Y, R*) / sum over words of |R*|.
"""
import collections
from typing import Dict, List, Sequence, Tuple


def edit_distance(a: Sequence, b: Sequence) -> int:
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        ai = a[i - 1]
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai != b[j - 1]))
        prev = cur
    return prev[len(b)]


def closest_reference(hyp: Sequence, refs: List[Sequence]) -> Tuple[int, int]:
    """(index of the closest ref, its distance); ties -> first listed."""
    best_i, best_d = 0, None
    for i, r in enumerate(refs):
        d = edit_distance(hyp, r)
        if best_d is None or d < best_d:
            best_i, best_d = i, d
    return best_i, best_d


def score(hyps: Dict[str, List[str]], refs: Dict[str, List[List[str]]]) -> Dict[str, float]:
    """hyps: word -> phonemes; refs: word -> list of pronunciations. Scores every word of refs."""
    wrong = edits = ref_len = 0
    for word, alts in refs.items():
        i, d = closest_reference(hyps[word], alts)
        wrong += d > 0
        edits += d
        ref_len += len(alts[i])
    n = len(refs)
    return {"words": n, "wer": 100.0 * wrong / n, "per": 100.0 * edits / ref_len}


def read_tsv(path: str) -> "collections.OrderedDict[str, List[List[str]]]":
    """word -> pronunciations in file order (alternates are repeated word lines)."""
    refs = collections.OrderedDict()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            word, pron = line.split("\t")
            refs.setdefault(word, []).append(pron.split())
    return refs
