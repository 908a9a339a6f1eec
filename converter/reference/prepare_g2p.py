#!/usr/bin/env python3
"""Build the G2P data set data/g2p/{train,dev,test}.tsv from CMUdict.

Source: the CMU pronouncing dictionary shipped by Debian's ``pocketsphinx-en-us``
(``/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict``). If it is missing the
script installs the package with ``apt-get install -y pocketsphinx-en-us``.

Recipe (deterministic, no randomness):
  * Each line is ``word PH ON ES``; alternates are ``word(2) ...``. The ``(n)``
    suffix is removed so alternates attach to their base word.
  * Words are lowercased. Only words made of ``a-z`` and ``'`` are kept; the
    others (with ``.``, ``-``, ``_``, digits, ...) are dropped and counted.
  * Stress digits are stripped from phonemes (the Debian file has none already).
  * Exact duplicate pronunciations of the same word are kept once.
  * Split by a fixed hash of the word: bucket = int.from_bytes(sha256(word)[:8],
    "big") % 1000; bucket < 95 -> test, 95 <= bucket < 135 -> dev, else train.
    All pronunciations of a word land in the same split, in dictionary order.
  * Output lines: ``word<TAB>PH ON ES``; files are sorted by word, alternates in
    dictionary order.

Usage: /usr/bin/python3 converter/reference/prepare_g2p.py [--dict PATH] [--out data/g2p]
"""
import argparse
import collections
import hashlib
import json
import os
import re
import subprocess
import sys

DEFAULT_DICT = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"
TEST_BUCKETS = 95    # buckets [0, 95) of 1000
DEV_BUCKETS = 40     # buckets [95, 135)
WORD_RE = re.compile(r"^[a-z']+$")
ALT_RE = re.compile(r"\(\d+\)$")


def split_of(word):
    """Split name for a word: a fixed function of its UTF-8 bytes."""
    bucket = int.from_bytes(hashlib.sha256(word.encode("utf-8")).digest()[:8], "big") % 1000
    if bucket < TEST_BUCKETS:
        return "test"
    if bucket < TEST_BUCKETS + DEV_BUCKETS:
        return "dev"
    return "train"


def ensure_dict(path):
    if os.path.exists(path):
        return path
    if path != DEFAULT_DICT:
        sys.exit(f"dictionary not found: {path}")
    print("cmudict not found; installing pocketsphinx-en-us", file=sys.stderr)
    subprocess.run(["apt-get", "install", "-y", "pocketsphinx-en-us"], check=True)
    if not os.path.exists(path):
        sys.exit(f"dictionary still missing after install: {path}")
    return path


def read_dict(path):
    """Returns (ordered dict word -> [pron, ...], stats)."""
    prons = collections.OrderedDict()
    stats = collections.Counter()
    dropped_words = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith(";;;"):
                continue
            fields = line.split()
            stats["lines"] += 1
            word = ALT_RE.sub("", fields[0]).lower()
            phones = [re.sub(r"\d", "", p) for p in fields[1:]]
            if not phones:
                stats["lines_without_phonemes"] += 1
                continue
            if not WORD_RE.match(word):
                dropped_words.add(word)
                stats["lines_dropped_charset"] += 1
                continue
            pron = " ".join(phones)
            alts = prons.setdefault(word, [])
            if pron in alts:
                stats["duplicate_prons"] += 1
                continue
            alts.append(pron)
    stats["words_dropped_charset"] = len(dropped_words)
    return prons, stats


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dict", default=DEFAULT_DICT)
    ap.add_argument("--out", default="data/g2p")
    args = ap.parse_args()

    prons, stats = read_dict(ensure_dict(args.dict))
    splits = {"train": [], "dev": [], "test": []}
    for word in sorted(prons):
        splits[split_of(word)].append(word)

    os.makedirs(args.out, exist_ok=True)
    counts = {"source_lines": stats["lines"],
              "words_kept": len(prons),
              "words_dropped_charset": stats["words_dropped_charset"],
              "lines_dropped_charset": stats["lines_dropped_charset"],
              "duplicate_prons_dropped": stats["duplicate_prons"],
              "splits": {}}
    for name, words in splits.items():
        n_lines = 0
        with open(os.path.join(args.out, f"{name}.tsv"), "w", encoding="utf-8", newline="\n") as f:
            for w in words:
                for p in prons[w]:
                    f.write(f"{w}\t{p}\n")
                    n_lines += 1
        counts["splits"][name] = {"words": len(words), "lines": n_lines}
    print(json.dumps(counts, indent=2))
    return counts


if __name__ == "__main__":
    main()
