"""train.py's schedule guards and end-of-run weight averaging on a tiny run: the divergence
rollback, the deadline-shortened cosine, the choice between the best model and the averages.
Each case trains a ~80 k-parameter model on 600 lines for a few seconds."""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

from _tiny_data import TRAIN, write_tiny_data

import torch  # noqa: E402

from checkpoint import load_checkpoint  # noqa: E402
from evaluate import evaluate  # noqa: E402
from g2p_metrics import read_tsv  # noqa: E402
from search import DecodeOptions  # noqa: E402
from train import EVAL_MAX_LEN  # noqa: E402
from train_final import average_state_dicts  # noqa: E402

TINY = ["--set", "enc_hidden=16", "--set", "dec_hidden=16", "--set", "attn_hidden=8",
        "--set", "src_embed=8", "--set", "tgt_embed=8", "--batch-size", "64", "--eval-every", "2",
        "--skip-final-eval"]
LR = 2e-3


class TrainGuardsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.data = write_tiny_data(os.path.join(self.tmp.name, "data"))
        self.out = os.path.join(self.tmp.name, "out")

    def tearDown(self):
        self.tmp.cleanup()

    def train(self, *extra):
        cmd = [sys.executable, TRAIN, "--data", self.data, "--out", self.out, *TINY, *extra]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        with open(os.path.join(self.out, "train_log.json")) as f:
            return json.load(f)

    def check_rollbacks(self, log, total):
        self.assertTrue(log["rollbacks"], "a negative gap must roll back at every non-improvement")
        best_update, scale = None, 1.0
        for e in log["evals"]:
            # The lr logged is the one of the round's last update (update - 1), halved once per
            # earlier rollback.
            want = scale * LR * 0.5 * (1 + math.cos(math.pi * (e["update"] - 1) / total))
            self.assertAlmostEqual(e["lr"], want, delta=1e-9 + 1e-6 * want)
            if e.get("best"):
                best_update = e["update"]
            else:
                self.assertEqual(e.get("rollback_to"), best_update)
                scale *= 0.5
        self.assertEqual(len(log["rollbacks"]), sum(1 for e in log["evals"] if not e.get("best")))

    def test_rollback_one_worker(self):
        log = self.train("--epochs", "2", "--workers", "1", "--rollback-gap", "-1000")
        self.check_rollbacks(log, total=2 * 10)   # 600 lines / 64 = 10 batches per epoch

    def test_rollback_two_workers(self):
        log = self.train("--epochs", "1", "--workers", "2", "--rollback-gap", "-1000")
        self.check_rollbacks(log, total=10)

    def test_no_rollback_by_default(self):
        log = self.train("--epochs", "1", "--workers", "1")
        self.assertEqual(log["rollbacks"], [])

    def test_deadline_shortens_the_cosine(self):
        # 200 epochs (2,000 updates) cannot fit in 3 s: the cosine must be pulled in and end there.
        log = self.train("--epochs", "200", "--workers", "1", "--deadline-min", "0.05")
        resched = log["deadline_reschedules"]
        self.assertTrue(resched)
        end = resched[-1]["end_update"]
        self.assertLess(end, 2000)
        self.assertEqual(log["evals"][-1]["update"], end)
        self.assertLess(log["evals"][-1]["lr"], 0.1 * LR)   # annealed, not cut off mid-way
        lrs = [e["lr"] for e in log["evals"]]
        self.assertEqual(lrs, sorted(lrs, reverse=True))

    def test_average_state_dicts(self):
        g = torch.Generator().manual_seed(5)
        states = [{"w": torch.randn(3, 4, generator=g), "b": torch.randn(4, generator=g)}
                  for _ in range(3)]
        avg = average_state_dicts(states)
        for name in ("w", "b"):
            want = (states[0][name] + states[1][name] + states[2][name]) / 3
            self.assertTrue(torch.allclose(avg[name], want, atol=1e-6))
            self.assertEqual(avg[name].dtype, torch.float32)

    def test_weight_averaging_keeps_the_best_dev_candidate(self):
        log = self.train("--epochs", "2", "--workers", "2", "--average-last", "4")
        evals, trials, best = log["evals"], log["averaging"], log["best"]
        self.assertEqual([t["last"] for t in trials], [2, 3, 4])
        for t in trials:
            self.assertEqual(t["from_update"], evals[-t["last"]]["update"])
        # The candidates: the best single validation (ties go to it), then each average.
        single = min(evals, key=lambda e: e["dev_wer"])
        want_wer, want_per = single["dev_wer"], single["dev_per"]
        for t in trials:
            if t["dev_wer"] < want_wer:
                want_wer, want_per = t["dev_wer"], t["dev_per"]
        self.assertEqual(best["dev_wer"], want_wer)
        # The written model is the chosen candidate: decoding dev again gives its scores (PER
        # tells the candidates apart even while every tiny model gets every word wrong).
        model, src_vocab, tgt_vocab = load_checkpoint(self.out)
        dev = evaluate(model, src_vocab, tgt_vocab, read_tsv(os.path.join(self.data, "dev.tsv")),
                       DecodeOptions(beam=1, nbest=1, max_len=EVAL_MAX_LEN))
        self.assertAlmostEqual(dev["wer"], want_wer, places=6)
        self.assertAlmostEqual(dev["per"], want_per, places=6)

    def test_keep_last_average_ignores_dev(self):
        log = self.train("--epochs", "2", "--workers", "1", "--average-last", "3",
                         "--keep", "last-average")
        evals, trials, best = log["evals"], log["averaging"], log["best"]
        self.assertEqual(log["keep"], "last-average")
        self.assertEqual(best["average_last"], 3)
        self.assertEqual(best["from_update"], evals[-3]["update"])
        self.assertEqual(best["dev_wer"], trials[-1]["dev_wer"])
        # The written model is the average of the last 3 validations, whatever dev said.
        model, src_vocab, tgt_vocab = load_checkpoint(self.out)
        dev = evaluate(model, src_vocab, tgt_vocab, read_tsv(os.path.join(self.data, "dev.tsv")),
                       DecodeOptions(beam=1, nbest=1, max_len=EVAL_MAX_LEN))
        self.assertAlmostEqual(dev["per"], trials[-1]["dev_per"], places=6)

    def test_no_averaging_when_off(self):
        log = self.train("--epochs", "1", "--workers", "1", "--average-last", "0")
        self.assertNotIn("averaging", log)
        self.assertEqual(log["best"]["update"], min(log["evals"], key=lambda e: e["dev_wer"])["update"])

    def test_init_from_may_change_dropout_only(self):
        self.train("--epochs", "1", "--workers", "1")
        first = os.path.join(self.tmp.name, "first")
        os.rename(self.out, first)
        log = self.train("--epochs", "1", "--workers", "1", "--init-from", first,
                         "--set", "dropout=0.0")
        self.assertEqual(log["config"]["dropout"], 0.0)
        # Any other config key must match the weights' checkpoint.
        cmd = [sys.executable, TRAIN, "--data", self.data, "--out", self.out + "-b", *TINY,
               "--epochs", "1", "--workers", "1", "--init-from", first, "--set", "window=1"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("config or vocabularies differ", r.stderr)


if __name__ == "__main__":
    unittest.main()
