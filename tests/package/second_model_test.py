"""The worked example of converter/README.md "Convert your own model": models/numbers-en (numbers
in words -> digits; GRU, global attention with the dot score, word tokenizer), trained by
converter/reference/examples/numbers_to_digits.py, converted in all three schemes and checked
against its float reference on the example's 1,000-number test split:

- float32: the runtime's outputs equal the reference's, greedy and beam 5, every one; and on the
  first 200 numbers all five beam-5 hypotheses (mostly wrong ones, where the models' numerics
  show) with their scores to 1e-4;
- int8 and int8-full: at least 98 % identical to the reference's outputs, exact-match accuracy
  within 1 point of the reference's;
- the reference itself gets at least 95 % exact (the example learned its task).

Environment (tests/package/CMakeLists.txt): EDGENMT_CLI, EDGENMT_CONVERT, EDGENMT_REPO.
"""
import os
import subprocess
import sys
import tempfile
import unittest

REPO = os.environ["EDGENMT_REPO"]
CLI = os.environ["EDGENMT_CLI"]
CONVERT = os.environ["EDGENMT_CONVERT"]
CHECKPOINT = os.path.join(REPO, "models", "numbers-en")
sys.path.insert(0, os.path.join(REPO, "converter", "reference"))
sys.path.insert(0, os.path.join(REPO, "converter", "reference", "examples"))

import torch  # noqa: E402

from checkpoint import load_checkpoint, tokenize_source  # noqa: E402
from numbers_to_digits import split  # noqa: E402
from search import DecodeOptions, batched_greedy, decode  # noqa: E402

# Decoding shared by the reference and the runtime: no penalties, at most 16 digits.
OPTIONS = dict(alpha=0.0, beta=0.0, min_len=0, max_len=16, max_len_ratio=0.0)
MIN_INT8_AGREEMENT = 0.98
MIN_REFERENCE_ACCURACY = 0.95


def reference_outputs(sources, beam):
    model, src_vocab, tgt_vocab = load_checkpoint(CHECKPOINT)
    ids = [src_vocab.encode(tokenize_source(s, model.cfg.tokenizer)) for s in sources]
    options = DecodeOptions(beam=beam, nbest=1, **OPTIONS)
    if beam == 1:
        hyps = batched_greedy(model, ids, options)
    else:
        hyps = [decode(model, x, options)[0] for x in ids]
    return [" ".join(tgt_vocab.decode(h.tokens)) for h in hyps]


def runtime_outputs(model_file, sources, beam):
    flags = ["--beam", str(beam)] + [f"--{k.replace('_', '-')}={v}" for k, v in OPTIONS.items()]
    result = subprocess.run([CLI, "translate", "-m", model_file, *flags], input="\n".join(sources) + "\n",
                            capture_output=True, text=True, check=True)
    return result.stdout.splitlines()


class SecondModelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        torch.set_num_threads(1)
        cls.tmp = tempfile.TemporaryDirectory()
        test = split("test")
        cls.sources = [words for words, _ in test]
        cls.truth = [digits for _, digits in test]
        calibration = os.path.join(cls.tmp.name, "calibration.tsv")
        with open(calibration, "w", encoding="utf-8") as f:
            f.writelines(f"{words}\t{digits}\n" for words, digits in split("calibration"))
        cls.files = {}
        for scheme in ("float32", "int8", "int8-full"):
            path = os.path.join(cls.tmp.name, f"numbers.{scheme}.enmt")
            subprocess.run([CONVERT, "--checkpoint", CHECKPOINT, "--out", path, "--dtype", scheme,
                            "--calibration", calibration, "--created", "2026-01-01"],
                           check=True, capture_output=True)
            cls.files[scheme] = path
        cls.reference = {beam: reference_outputs(cls.sources, beam) for beam in (1, 5)}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def accuracy(self, outputs):
        return sum(o == t for o, t in zip(outputs, self.truth)) / len(self.truth)

    def test_reference_learned_the_task(self):
        for beam in (1, 5):
            self.assertGreaterEqual(self.accuracy(self.reference[beam]), MIN_REFERENCE_ACCURACY)

    def test_float32_equals_reference(self):
        for beam in (1, 5):
            got = runtime_outputs(self.files["float32"], self.sources, beam)
            mismatches = [(s, g, r) for s, g, r in zip(self.sources, got, self.reference[beam]) if g != r]
            self.assertEqual(len(got), len(self.sources))
            self.assertEqual(mismatches, [], f"beam {beam}")

    def test_float32_nbest_and_scores_equal_reference(self):
        sources = self.sources[:200]
        model, src_vocab, tgt_vocab = load_checkpoint(CHECKPOINT)
        options = DecodeOptions(beam=5, nbest=5, **OPTIONS)
        flags = ["--beam", "5", "--nbest", "5"] + [f"--{k.replace('_', '-')}={v}" for k, v in OPTIONS.items()]
        lines = subprocess.run([CLI, "translate", "-m", self.files["float32"], *flags],
                               input="\n".join(sources) + "\n", capture_output=True, text=True,
                               check=True).stdout.splitlines()
        self.assertEqual(len(lines), 5 * len(sources))
        for i, source in enumerate(sources):
            ids = src_vocab.encode(tokenize_source(source, model.cfg.tokenizer))
            hyps = decode(model, ids, options)
            self.assertEqual(len(hyps), 5, source)
            for rank, hyp in enumerate(hyps):
                words, cli_rank, cli_score, cli_text = lines[5 * i + rank].split("\t")
                self.assertEqual((words, int(cli_rank)), (source, rank + 1))
                self.assertEqual(cli_text, " ".join(tgt_vocab.decode(hyp.tokens)), source)
                self.assertAlmostEqual(float(cli_score), hyp.score, delta=1e-4, msg=source)

    def test_int8_schemes_close_to_reference(self):
        for scheme in ("int8", "int8-full"):
            for beam in (1, 5):
                got = runtime_outputs(self.files[scheme], self.sources, beam)
                self.assertEqual(len(got), len(self.sources))
                agreement = sum(g == r for g, r in zip(got, self.reference[beam])) / len(got)
                print(f"{scheme} beam {beam}: {100 * agreement:.1f} % identical to the reference, "
                      f"exact match {100 * self.accuracy(got):.1f} % "
                      f"(reference {100 * self.accuracy(self.reference[beam]):.1f} %)", file=sys.stderr)
                self.assertGreaterEqual(agreement, MIN_INT8_AGREEMENT, f"{scheme} beam {beam}")
                self.assertLessEqual(abs(self.accuracy(got) - self.accuracy(self.reference[beam])), 0.01,
                                     f"{scheme} beam {beam}")


if __name__ == "__main__":
    unittest.main()
