"""The Python module against the CLI and the PyTorch reference (issue 17, part 2).

Environment (set by ctest, tests/package/CMakeLists.txt): PYTHONPATH holds the build tree's
python/ directory; EDGENMT_CLI is the CLI of the same build; EDGENMT_MODEL the shipped model
converted to float32; EDGENMT_REPO the source tree.

- the module's translations equal the CLI's on the whole test split (greedy) and on its first
  2,000 words with the model's stored defaults (beam 5, alpha 0.6), n-best 3 with scores;
- attention from translate_nbest equals the CLI's --alignments JSON;
- on the first 300 test words, greedy and beam 5 outputs equal the PyTorch reference's
  (converter/reference, evaluate.py's options), as the CLI's do (f32_matches_reference_*).
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import edgenmt

CLI = os.environ["EDGENMT_CLI"]
MODEL = os.environ["EDGENMT_MODEL"]
REPO = os.environ["EDGENMT_REPO"]
TEST_TSV = os.path.join(REPO, "data", "g2p", "test.tsv")
# evaluate.py's decoding (models/g2p-en/metrics.json "decode").
EVAL_OPTIONS = dict(alpha=0.0, beta=0.0, min_len=0, max_len=64, max_len_ratio=0.0)
REFERENCE_WORDS = 300


def test_words():
    """The distinct words of the test split in file order (as `edgenmt eval` and evaluate.py)."""
    with open(TEST_TSV, encoding="utf-8") as f:
        return list(dict.fromkeys(line.split("\t", 1)[0] for line in f if line.strip()))


def run_cli(words, *flags):
    result = subprocess.run([CLI, "translate", "-m", MODEL, *flags], input="\n".join(words) + "\n",
                            capture_output=True, text=True, check=True)
    return result.stdout.splitlines()


def cli_flags(beam, options):
    flags = ["--beam", str(beam)]
    for name, value in options.items():
        flags += ["--" + name.replace("_", "-"), str(value)]
    return flags


class ModuleMatchesCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.words = test_words()

    def test_whole_test_split_greedy(self):
        translator = edgenmt.Translator(MODEL, beam=1, **EVAL_OPTIONS)
        got = translator.translate(self.words)
        want = run_cli(self.words, *cli_flags(1, EVAL_OPTIONS))
        self.assertEqual(len(got), len(self.words))
        mismatches = [(w, g, c) for w, g, c in zip(self.words, got, want) if g != c]
        self.assertEqual(mismatches, [], f"{len(mismatches)} of {len(self.words)} differ")

    def test_model_defaults_nbest_with_scores(self):
        words = self.words[:2000]
        translator = edgenmt.Translator(MODEL, nbest=3)  # beam 5 and the stored alpha 0.6
        results = translator.translate_nbest(words)
        lines = run_cli(words, "--nbest", "3")
        self.assertEqual(len(lines), 3 * len(words))
        for i, (word, hypotheses) in enumerate(zip(words, results)):
            for rank in range(3):
                _, cli_rank, cli_score, cli_text = lines[3 * i + rank].split("\t")
                self.assertEqual(int(cli_rank), rank + 1)
                if rank >= len(hypotheses):
                    self.assertEqual(cli_text, "", word)
                    continue
                self.assertEqual(hypotheses[rank].text, cli_text, word)
                self.assertEqual(f"{hypotheses[rank].score:.6f}", cli_score, word)
        # translate() is the first of translate_nbest().
        self.assertEqual(translator.translate(words[:50]), [h[0].text for h in results[:50]])

    def test_attention_equals_cli_alignments(self):
        words = self.words[:20]
        translator = edgenmt.Translator(MODEL, beam=5, nbest=2)
        results = translator.translate_nbest(words, attention=True)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "a.json")
            run_cli(words, "--nbest", "2", "--alignments", path)
            with open(path, encoding="utf-8") as f:
                alignments = json.load(f)
        for word, hypotheses, entry in zip(words, results, alignments):
            self.assertEqual(entry["source"], word)
            self.assertEqual(hypotheses[0].source_tokens, entry["source_tokens"])
            self.assertEqual(len(hypotheses), len(entry["hypotheses"]))
            for hyp, cli in zip(hypotheses, entry["hypotheses"]):
                self.assertEqual(hyp.text, cli["output"])
                self.assertEqual(len(hyp.attention), len(cli["attention"]))
                self.assertEqual(len(hyp.attention), len(hyp.ids) + (1 if hyp.ended_with_eos else 0))
                for row, cli_row in zip(hyp.attention, cli["attention"]):
                    # local-p scales the softmax by a Gaussian: sums are at most 1, not 1.
                    self.assertLessEqual(sum(row), 1.0 + 1e-5)
                    for a, b in zip(row, cli_row):
                        self.assertAlmostEqual(a, b, delta=1e-6 * max(1.0, abs(b)))

    def test_default_backend_is_the_fast_one(self):
        # No backend named: the SIMD backend wherever the CPU has it (every x86-64 with AVX2 and
        # every ARM with NEON this project tests on), as the CLI's default.
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            flags = f.read().split()
        simd = ("avx2" in flags and "fma" in flags) or "asimd" in flags or "neon" in flags
        translator = edgenmt.Translator(MODEL, beam=1, **EVAL_OPTIONS)
        self.assertEqual(translator.backend, "simd" if simd else "reference")
        self.assertIn(f"backend='{translator.backend}' ({translator.backend_variant})",
                      repr(translator))
        reference = edgenmt.Translator(MODEL, beam=1, backend="reference", **EVAL_OPTIONS)
        self.assertEqual((reference.backend, reference.backend_variant), ("reference", "portable"))
        words = self.words[:300]
        self.assertEqual(translator.translate(words), run_cli(words, *cli_flags(1, EVAL_OPTIONS)))

    def test_bad_sources(self):
        translator = edgenmt.Translator(MODEL, beam=1)
        with self.assertRaises(edgenmt.Error) as caught:
            translator.translate(["hello", ""])
        self.assertEqual(caught.exception.status, "SourceEmpty")
        self.assertEqual(translator.translate(["", "a" * 500, "hello"], errors="empty")[:2], ["", ""])
        with self.assertRaises(edgenmt.Error) as caught:
            translator.translate(["a\udcffb"])  # the byte 0xff: invalid UTF-8
        self.assertEqual(caught.exception.status, "SourceInvalidUtf8")
        with self.assertRaises(edgenmt.Error) as caught:
            edgenmt.Translator(os.path.join(REPO, "README.md"))
        self.assertEqual(caught.exception.status, "ModelMalformed")


class ModuleMatchesReference(unittest.TestCase):
    """Outputs equal the float reference's on a fixed prefix of the test split."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(REPO, "converter", "reference"))
        import torch
        from checkpoint import load_checkpoint
        from evaluate import decode_words
        from search import DecodeOptions
        torch.set_num_threads(1)
        cls.words = test_words()[:REFERENCE_WORDS]
        model, src_vocab, tgt_vocab = load_checkpoint(os.path.join(REPO, "models", "g2p-en"))
        cls.reference = {}
        for beam in (1, 5):
            options = DecodeOptions(beam=beam, nbest=1, **EVAL_OPTIONS)
            outputs = decode_words(model, src_vocab, tgt_vocab, cls.words, options)
            cls.reference[beam] = [" ".join(outputs[w]) for w in cls.words]

    def check(self, beam):
        got = edgenmt.Translator(MODEL, beam=beam, **EVAL_OPTIONS).translate(self.words)
        mismatches = [(w, g, r) for w, g, r in zip(self.words, got, self.reference[beam]) if g != r]
        self.assertEqual(mismatches, [])

    def test_greedy(self):
        self.check(1)

    def test_beam5(self):
        self.check(5)


if __name__ == "__main__":
    unittest.main()
