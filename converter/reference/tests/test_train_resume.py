"""train.py's resumable runs (train_resume.py): a run paused at every validation and continued by
the same command ends with the weights and log of one uninterrupted run, bit for bit; a state
left by another run, or a corrupt one, is refused by name; another worker count continues the
same schedule. Each case trains a tiny Transformer on 600 lines for a few seconds."""
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

from _tiny_data import TRAIN, write_tiny_data

import torch  # noqa: E402

from train_resume import EXIT_PAUSED, STATE_FILE, decode, encode, same_tree  # noqa: E402

# 600 lines / 64 = 10 batches an epoch; validations every 4 updates fall mid-epoch (4, 8, 12,
# 16) and at an epoch's end (20), so resuming re-draws a half-trained epoch's batches too.
TINY = ["--model", "transformer", "--set", "d_model=16", "--set", "ffn=32", "--set", "heads=2",
        "--set", "enc_layers=1", "--set", "dec_layers=1", "--batch-size", "64",
        "--eval-every", "4", "--epochs", "2", "--average-last", "3", "--label-smoothing", "0.1",
        "--warmup", "5", "--skip-final-eval"]
TIMINGS = ("train_s", "s_per_batch", "eval_s")


def without_timings(evals):
    return [{k: v for k, v in e.items() if k not in TIMINGS} for e in evals]


class TrainResumeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.data = write_tiny_data(os.path.join(self.tmp.name, "data"))

    def tearDown(self):
        self.tmp.cleanup()

    def train(self, out, *extra):
        cmd = [sys.executable, TRAIN, "--data", self.data, "--out", out, *TINY, *extra]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=300)

    def train_to_end(self, out, *extra):
        """Runs the command until it no longer pauses; returns the exit codes and the log."""
        codes = []
        while len(codes) < 20:
            r = self.train(out, *extra)
            codes.append(r.returncode)
            if r.returncode != EXIT_PAUSED:
                break
        self.assertEqual(codes[-1], 0, r.stderr[-2000:])
        with open(os.path.join(out, "train_log.json")) as f:
            return codes, json.load(f)

    def read(self, out, name="model.safetensors"):
        with open(os.path.join(out, name), "rb") as f:
            return f.read()

    def test_paused_at_every_validation_ends_as_one_run(self):
        whole, paused = (os.path.join(self.tmp.name, n) for n in ("whole", "paused"))
        codes, log = self.train_to_end(whole)
        self.assertEqual(codes, [0])
        codes, resumed_log = self.train_to_end(paused, "--pause-after-min", "0")
        # Five validations: a pause after each of the first four, the fifth ends the cosine.
        self.assertEqual(codes, [EXIT_PAUSED] * 4 + [0])
        self.assertEqual([r["update"] for r in resumed_log["resumed"]], [4, 8, 12, 16])
        self.assertTrue(all(r["same_rngs"] for r in resumed_log["resumed"]))
        self.assertEqual(self.read(paused), self.read(whole))
        self.assertEqual(without_timings(resumed_log["evals"]), without_timings(log["evals"]))
        self.assertEqual(resumed_log["averaging"], log["averaging"])
        self.assertEqual(resumed_log["best"], log["best"])
        self.assertFalse(os.path.exists(os.path.join(paused, STATE_FILE)))

    def test_state_of_another_run_is_refused_by_name(self):
        out = os.path.join(self.tmp.name, "out")
        self.assertEqual(self.train(out, "--pause-after-min", "0").returncode, EXIT_PAUSED)
        state = self.read(out, STATE_FILE)
        r = self.train(out, "--lr", "1e-3")
        self.assertEqual(r.returncode, 1)
        self.assertIn("belongs to another run", r.stderr)
        self.assertIn("lr: saved 0.002, now 0.001", r.stderr)
        with open(os.path.join(self.data, "train.tsv"), "a", encoding="utf-8") as f:
            f.write("zyzzyva\tZ IH Z IY V AH\n")
        r = self.train(out)
        self.assertEqual(r.returncode, 1)
        self.assertIn("train.tsv: other content", r.stderr)
        self.assertEqual(self.read(out, STATE_FILE), state)   # refused, not overwritten

    def test_bf16_run_resumes_bit_for_bit_and_is_its_own_run(self):
        whole, paused = (os.path.join(self.tmp.name, n) for n in ("whole", "paused"))
        codes, log = self.train_to_end(whole, "--precision", "bf16")
        self.assertEqual((codes, log["precision"]), ([0], "bf16"))
        self.assertLess(log["evals"][-1]["train_nll"], log["evals"][0]["train_nll"])
        self.assertEqual(self.train(paused, "--precision", "bf16", "--pause-after-min", "0").returncode,
                         EXIT_PAUSED)
        r = self.train(paused)   # fp32 would be another run
        self.assertEqual(r.returncode, 1)
        self.assertIn("precision: saved 'bf16', now None", r.stderr)
        codes, resumed_log = self.train_to_end(paused, "--precision", "bf16", "--pause-after-min", "0")
        self.assertEqual(codes, [EXIT_PAUSED] * 3 + [0])
        self.assertEqual(self.read(paused), self.read(whole))
        self.assertEqual(without_timings(resumed_log["evals"]), without_timings(log["evals"]))

    def test_corrupt_state_is_refused(self):
        out = os.path.join(self.tmp.name, "out")
        self.assertEqual(self.train(out, "--pause-after-min", "0").returncode, EXIT_PAUSED)
        state = self.read(out, STATE_FILE)
        for bad in (state[:len(state) // 2],                              # truncated
                    b"\x10\x00\x00\x00\x00\x00\x00\x00{\"x\": 1}  not a state",  # no state
                    state.replace(b'$f32', b'$f64', 1)):                    # an edited node
            self.assertNotEqual(bad, state)
            with open(os.path.join(out, STATE_FILE), "wb") as f:
                f.write(bad)
            r = self.train(out)
            self.assertEqual(r.returncode, 1)
            self.assertIn("not a readable training state", r.stderr)
            self.assertNotIn("Traceback", r.stderr)

    def test_encode_decode_round_trip(self):
        g = torch.Generator().manual_seed(3)
        tree = {"w": torch.randn(3, 2, generator=g), "step": torch.tensor(7.0),
                "rng": torch.get_rng_state(), 4: [1, 2.5, None, True, "x"],
                "py_rng": random.Random(1).getstate()}
        tensors = {}
        skeleton = json.loads(json.dumps(encode(tree, "", tensors)))
        back = decode(skeleton, tensors)
        self.assertTrue(same_tree(back, tree))
        self.assertIsInstance(back["py_rng"][1], tuple)
        random.Random().setstate(back["py_rng"])
        with self.assertRaises(TypeError):
            encode({"i": torch.zeros(2, dtype=torch.int64)}, "", {})

    def test_another_worker_count_continues_the_same_schedule(self):
        whole, moved = (os.path.join(self.tmp.name, n) for n in ("whole", "moved"))
        _, log = self.train_to_end(whole, "--workers", "2")
        self.assertEqual(self.train(moved, "--workers", "2", "--pause-after-min", "0").returncode,
                         EXIT_PAUSED)
        _, moved_log = self.train_to_end(moved, "--workers", "1")
        self.assertEqual(moved_log["resumed"][0]["same_rngs"], False)
        self.assertEqual([(e["update"], e["lr"]) for e in moved_log["evals"]],
                         [(e["update"], e["lr"]) for e in log["evals"]])
        self.assertEqual(without_timings(moved_log["evals"][:1]), without_timings(log["evals"][:1]))


if __name__ == "__main__":
    unittest.main()
