"""The training tests' data: the first lines of data/g2p's splits in a temporary directory
(600 training lines: ten batches of 64)."""
import os

from _path import REPO_ROOT

DATA = os.path.join(REPO_ROOT, "data", "g2p")
TRAIN = os.path.join(REPO_ROOT, "converter", "reference", "train.py")


def write_tiny_data(directory, lines=(("train.tsv", 600), ("dev.tsv", 40), ("test.tsv", 40))):
    """Writes each split's first n lines into `directory` (created); returns it."""
    os.makedirs(directory)
    for name, n in lines:
        with open(os.path.join(DATA, name), encoding="utf-8") as f, \
                open(os.path.join(directory, name), "w", encoding="utf-8") as g:
            for i, line in enumerate(f):
                if i == n:
                    break
                g.write(line)
    return directory
