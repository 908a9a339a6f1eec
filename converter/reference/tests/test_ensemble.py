"""ensemble.py: an ensemble of an RNN and a Transformer decodes like the mixture of their step
distributions, batched greedy equals per-word search over it, one member is that member, and
members whose vocabularies differ are refused."""
import os
import subprocess
import sys
import tempfile
import unittest

import torch

import _path  # noqa: F401
from checkpoint import save_checkpoint
from ensemble import Ensemble, load_ensemble
from search import DecodeOptions, batched_greedy, decode
from test_model_search import SRC, TGT, random_model as random_rnn, small_config, sources
from test_transformer import random_model as random_transformer

SCRIPT = os.path.join(_path.REFERENCE_DIR, "ensemble.py")
OTHER_TGT = type(TGT)(TGT.tokens + ["ZZ"])   # one phoneme more: vocabularies that differ
TGT_SIZE_OTHER = len(OTHER_TGT)


def members():
    rnn = random_rnn(small_config(tgt_embed=5, max_src_len=8), seed=3)
    trf = random_transformer(5, src_vocab_size=len(SRC), tgt_vocab_size=len(TGT))
    return rnn, trf


class EnsembleTest(unittest.TestCase):
    def setUp(self):
        self.rnn, self.trf = members()
        self.assertEqual(self.rnn.cfg.tgt_vocab_size, self.trf.cfg.tgt_vocab_size)
        self.src = torch.tensor([[5, 6, 7, 8], [9, 4, 0, 0]])
        self.len = torch.tensor([4, 2])

    def step_logprobs(self, model, prev):
        ctx, state = model.encode(self.src, self.len)
        lp, _, _ = model.step(prev, state, ctx)
        return lp.float()

    def test_step_mixes_the_members_distributions(self):
        prev = torch.tensor([2, 2])
        with torch.no_grad():
            a, b = self.step_logprobs(self.rnn, prev), self.step_logprobs(self.trf, prev)
            prob = self.step_logprobs(Ensemble([self.rnn, self.trf], [3, 1], "prob"), prev)
            log = self.step_logprobs(Ensemble([self.rnn, self.trf], [3, 1], "log"), prev)
        torch.testing.assert_close(prob.exp(), 0.75 * a.exp() + 0.25 * b.exp())
        torch.testing.assert_close(log, torch.log_softmax(0.75 * a + 0.25 * b, dim=-1))
        for lp in (prob, log):   # both are distributions
            torch.testing.assert_close(lp.exp().sum(-1), torch.ones(2))

    def test_one_member_is_that_member(self):
        with torch.no_grad():
            alone = self.step_logprobs(self.trf, torch.tensor([2, 2]))
            ens = self.step_logprobs(Ensemble([self.trf], [2.0]), torch.tensor([2, 2]))
        torch.testing.assert_close(ens, alone)

    def test_batched_greedy_equals_per_word_search(self):
        ens = Ensemble([self.rnn, self.trf], [1, 1]).eval()
        srcs = [s[:6] for s in sources(12, seed=9)]
        opts = DecodeOptions(beam=1, max_len=7)
        with torch.no_grad():
            batched = batched_greedy(ens, srcs, opts)
            for src, hyp in zip(srcs, batched):
                one = decode(ens, src, opts)[0]
                self.assertEqual(hyp.tokens, one.tokens)
                self.assertAlmostEqual(hyp.logprob, one.logprob, places=4)
            # beam search over the ensemble runs too (the stepper protocol's select)
            self.assertTrue(decode(ens, srcs[0], DecodeOptions(beam=3, nbest=2, max_len=7)))

    def test_bad_members_are_refused(self):
        with self.assertRaises(ValueError):
            Ensemble([self.rnn, self.trf], [1, 0])
        with self.assertRaises(ValueError):
            Ensemble([self.rnn], [1, 1])
        with self.assertRaises(ValueError):
            Ensemble([self.rnn, self.trf], [1, 1], mix="max")
        other = random_rnn(small_config(tgt_vocab_size=TGT_SIZE_OTHER), seed=4)
        with self.assertRaises(ValueError):
            Ensemble([self.rnn, other], [1, 1])

    def test_command_scores_and_writes_nbest_lines(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
            save_checkpoint(self.rnn, SRC, TGT, a)
            save_checkpoint(random_rnn(small_config(tgt_embed=5, max_src_len=8), seed=8), SRC, TGT, b)
            data = os.path.join(tmp, "data.tsv")
            with open(data, "w") as f:
                f.write("abc\tB K\nabc\tB D\nfig\tF\n")
            out = os.path.join(tmp, "out.tsv")
            r = subprocess.run([sys.executable, SCRIPT, "--model", a + ":2", "--model", b,
                                "--data", data, "--out", out, "--threads", "1", "--max-len", "6"],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertRegex(r.stdout.strip().splitlines()[-1], r"^words=2 WER=\d+\.\d\d PER=\d+\.\d\d$")
            with open(out, encoding="utf-8") as f:
                lines = f.read().splitlines()
            self.assertEqual([l.split("\t")[:2] for l in lines], [["abc", "1"], ["fig", "1"]])
            ens, _, _ = load_ensemble([a + ":2", b])
            hyps = batched_greedy(ens, [SRC.encode("abc"), SRC.encode("fig")], DecodeOptions(max_len=6))
            self.assertEqual([l.split("\t")[3].split() for l in lines],
                             [TGT.decode(h.tokens) for h in hyps])
            # a member with other vocabularies: refused with a message, nothing written
            os.remove(out)
            c = os.path.join(tmp, "c")
            save_checkpoint(random_rnn(small_config(tgt_vocab_size=TGT_SIZE_OTHER), seed=4), SRC,
                            OTHER_TGT, c)
            r = subprocess.run([sys.executable, SCRIPT, "--model", a, "--model", c, "--data", data,
                                "--out", out], capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("vocabularies differ", r.stderr)
            self.assertNotIn("Traceback", r.stderr)
            self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
