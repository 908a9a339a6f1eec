"""The shipped model (models/g2p-en) against issue 2's quality targets and its own metrics.json.

The target tests read metrics.json only (fast). test_evaluate_matches_metrics decodes
the whole test split greedily with the reference (about half a minute) and must print exactly
the numbers metrics.json records, as `evaluate.py --model models/g2p-en --data data/g2p/test.tsv`
does.
"""
import json
import os
import unittest

from _path import REPO_ROOT

import torch

from checkpoint import load_checkpoint
from evaluate import evaluate, format_result
from g2p_metrics import read_tsv
from search import DecodeOptions

SHIPPED = os.path.join(REPO_ROOT, "models", "g2p-en")
TEST_TSV = os.path.join(REPO_ROOT, "data", "g2p", "test.tsv")
# Issue 2: greedy decoding on data/g2p/test.tsv.
MAX_TEST_WER = 26.0
MAX_TEST_PER = 7.0
MAX_PARAMS = 2_000_000


def load_metrics():
    with open(os.path.join(SHIPPED, "metrics.json")) as f:
        return json.load(f)


class ShippedModelTest(unittest.TestCase):
    def test_metrics_cover_the_test_split(self):
        self.assertEqual(load_metrics()["test"]["greedy"]["words"], len(read_tsv(TEST_TSV)))

    def test_per_meets_target(self):
        self.assertLessEqual(load_metrics()["test"]["greedy"]["per"], MAX_TEST_PER)

    def test_wer_meets_target(self):
        self.assertLessEqual(load_metrics()["test"]["greedy"]["wer"], MAX_TEST_WER)

    def test_size_limit(self):
        model, _, _ = load_checkpoint(SHIPPED)
        self.assertLessEqual(sum(p.numel() for p in model.parameters()), MAX_PARAMS)

    def test_evaluate_matches_metrics(self):
        torch.set_num_threads(1)
        model, src_vocab, tgt_vocab = load_checkpoint(SHIPPED)
        m = load_metrics()
        opts = DecodeOptions(**m["decode"]["greedy"])
        got = format_result(evaluate(model, src_vocab, tgt_vocab, read_tsv(TEST_TSV), opts))
        want = m["test"]["greedy"]
        self.assertEqual(got, f"words={want['words']} WER={want['wer']:.2f} PER={want['per']:.2f}")


if __name__ == "__main__":
    unittest.main()
