"""edgenmt.Phonemizer and `edgenmt phonemize` (issue 59): the Python module and the CLI give the
same bytes for every line of the sentence test set in every format; bad text, bad user
lexicons and bad files give clear errors and never lose a line.

Environment: PYTHONPATH (the build's python/), EDGENMT_CLI, EDGENMT_PHONEMIZER (the packed file),
EDGENMT_REPO.
"""
import json
import os
import subprocess
import tempfile
import unittest

import edgenmt

CLI = os.environ["EDGENMT_CLI"]
FILE = os.environ["EDGENMT_PHONEMIZER"]
REPO = os.environ["EDGENMT_REPO"]


def sentences():
    with open(os.path.join(REPO, "tests/data/phonemizer/sentences.tsv"), encoding="utf-8") as f:
        return [line.split("\t")[1] for line in f if line.strip()]


def cli(lines, *flags, check=True):
    data = "".join(line + "\n" for line in lines).encode("utf-8", errors="surrogateescape")
    run = subprocess.run([CLI, "phonemize", "-m", FILE, *flags], input=data,
                         capture_output=True, check=False)
    if check:
        assert run.returncode == 0, run.stderr.decode()
    return run


class PhonemizerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.phonemizer = edgenmt.Phonemizer(FILE)

    def test_python_equals_cli_in_every_format(self):
        lines = sentences()
        for fmt in ("arpabet", "ipa", "json"):
            with self.subTest(format=fmt):
                expected = cli(lines, "--format", fmt).stdout.decode("utf-8").split("\n")[:-1]
                self.assertEqual(self.phonemizer.phonemize(lines, format=fmt), expected)

    def test_json_names_origins_and_spans(self):
        line = "Dr. Smith paid $3.50 for NASA's book."
        (out,) = self.phonemizer.phonemize([line], format="json")
        tokens = json.loads(out)["tokens"]
        self.assertEqual(tokens[0]["text"], "Dr.")
        self.assertEqual(tokens[0]["words"][0]["origin"], "normalizer")
        for token in tokens:
            begin, end = token["span"]
            self.assertEqual(line.encode()[begin:end].decode(), token["text"])
        smith = tokens[1]["words"][0]
        self.assertEqual((smith["word"], smith["origin"]), ("smith", "lexicon"))

    def test_no_lexicon_uses_the_model(self):
        phonemizer = edgenmt.Phonemizer(FILE, lexicon=False)
        (out,) = phonemizer.phonemize(["hello"], format="json")
        self.assertEqual(json.loads(out)["tokens"][0]["words"][0]["origin"], "model")
        self.assertEqual(cli(["hello"], "--no-lexicon", "--format", "json").stdout.decode(),
                         out + "\n")

    def test_bad_text_keeps_every_line(self):
        lines = ["ok \udcff\udcfe done", "\x01\x07", "", "a" * 6400, "emoji \U0001F600 end",
                 "the 42 cats, " * 8000]
        run = cli(lines)
        self.assertEqual(run.stdout.count(b"\n"), len(lines))
        self.assertIn(b"line 1: skipped", run.stderr)
        self.assertIn(b"U+1F600", run.stderr)
        self.assertEqual(len(self.phonemizer.phonemize(lines)), len(lines))

    def test_user_lexicon(self):
        with tempfile.TemporaryDirectory() as tmp:
            good = os.path.join(tmp, "good.dict")
            with open(good, "w") as f:
                f.write(";;; mine\nTOMATO  T AH0 M AA1 T OW2\nedgenmt  EH1 JH EH2 N EH1 M T IY1\n")
            run = cli(["tomato edgenmt"], "--user-lexicon", good)
            self.assertEqual(run.stdout.decode(), "T AH0 M AA1 T OW2 | EH1 JH EH2 N EH1 M T IY1\n")
            p = edgenmt.Phonemizer(FILE, user_lexicon=good)
            self.assertEqual(p.phonemize(["tomato edgenmt"]), [run.stdout.decode().rstrip("\n")])
            bad = os.path.join(tmp, "bad.dict")
            with open(bad, "w") as f:
                f.write("good  G UH1 D\nbad  B XX D\nworse\n")
            run = cli(["x"], "--user-lexicon", bad, check=False)
            self.assertEqual(run.returncode, 3)
            self.assertIn(b"bad.dict:2: unknown phoneme", run.stderr)
            self.assertIn(b"bad.dict:3: no phonemes", run.stderr)
            with self.assertRaises(edgenmt.Error) as raised:
                edgenmt.Phonemizer(FILE, user_lexicon=bad)
            self.assertEqual(raised.exception.status, "UserLexiconInvalid")

    def test_bad_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            truncated = os.path.join(tmp, "cut.enmt")
            with open(FILE, "rb") as f, open(truncated, "wb") as g:
                g.write(f.read()[:5000])
            run = subprocess.run([CLI, "phonemize", "-m", truncated], input=b"x\n",
                                 capture_output=True, check=False)
            self.assertEqual(run.returncode, 2)
            self.assertIn(b"ModelMalformed", run.stderr)
            with self.assertRaises(edgenmt.Error):
                edgenmt.Phonemizer(truncated)
        run = subprocess.run([CLI, "phonemize", "-m", FILE, "--format", "xml"], input=b"",
                             capture_output=True, check=False)
        self.assertEqual(run.returncode, 1)


if __name__ == "__main__":
    unittest.main()
