"""seq_kd_targets.py: Seq-Inter picks the n-best hypothesis closest to each line's gold (the
better-ranked among equals), Seq-KD the teacher's best once per word, union the gold lines plus
the teacher's best where it is none of the word's golds; dev and test are copied."""
import os
import subprocess
import sys
import tempfile
import unittest

import _path  # noqa: F401

from seq_kd_targets import interpolate  # noqa: E402

SCRIPT = os.path.join(_path.REFERENCE_DIR, "seq_kd_targets.py")


class SeqKdTargetsTest(unittest.TestCase):
    def test_interpolate_prefers_closest_then_rank(self):
        hyps = [(1, ["K", "AA", "T"]), (2, ["K", "AE", "T"]), (3, ["K", "AE", "T", "S"])]
        self.assertEqual(interpolate(["K", "AE", "T"], hyps), (["K", "AE", "T"], 0))
        # Two at distance 1: the better-ranked one.
        self.assertEqual(interpolate(["K", "IH", "T"], hyps), (["K", "AA", "T"], 1))

    def run_script(self, mode, nbest_lines):
        with tempfile.TemporaryDirectory() as tmp:
            data, out = os.path.join(tmp, "data"), os.path.join(tmp, "out")
            os.makedirs(data)
            with open(os.path.join(data, "train.tsv"), "w") as f:
                f.write("cat\tK AE T\nread\tR IY D\nread\tR EH D\n")
            for name in ("dev.tsv", "test.tsv"):
                with open(os.path.join(data, name), "w") as f:
                    f.write(f"{name}\tX\n")
            nbest = os.path.join(tmp, "nbest.tsv")
            with open(nbest, "w") as f:
                f.writelines(nbest_lines)
            r = subprocess.run([sys.executable, SCRIPT, "--data", data, "--nbest", nbest,
                                "--out", out, "--mode", mode], capture_output=True, text=True)
            if r.returncode != 0:
                return r.returncode, r.stderr, None
            files = {n: open(os.path.join(out, n)).read() for n in sorted(os.listdir(out))}
            return 0, r.stdout, files

    NBEST = ["cat\t2\t-2.0\tK AE T\n", "cat\t1\t-1.0\tK AA T\n",
             "read\t1\t-0.5\tR IY D\n", "read\t2\t-0.9\tR EH D\n"]

    def test_inter_keeps_every_line(self):
        rc, _, files = self.run_script("inter", self.NBEST)
        self.assertEqual(rc, 0)
        self.assertEqual(files["train.tsv"], "cat\tK AE T\nread\tR IY D\nread\tR EH D\n")
        self.assertEqual(files["dev.tsv"], "dev.tsv\tX\n")
        self.assertEqual(sorted(files), ["dev.tsv", "test.tsv", "train.tsv"])  # no temporaries

    def test_kd_one_line_per_word_with_the_teachers_best(self):
        rc, _, files = self.run_script("kd", self.NBEST)
        self.assertEqual(rc, 0)
        self.assertEqual(files["train.tsv"], "cat\tK AA T\nread\tR IY D\n")

    def test_union_adds_only_the_teachers_disagreements(self):
        # cat: the teacher's best (K AA T) is not its gold, so it joins; read: its best (R IY D)
        # is one of its two golds, so nothing joins.
        rc, out, files = self.run_script("union", self.NBEST)
        self.assertEqual(rc, 0)
        self.assertEqual(files["train.tsv"],
                         "cat\tK AE T\nread\tR IY D\nread\tR EH D\ncat\tK AA T\n")
        self.assertIn("4 lines: the 3 of train.tsv, then 1 teacher outputs", out)

    def test_missing_word_is_an_error(self):
        rc, err, _ = self.run_script("kd", self.NBEST[:2])
        self.assertNotEqual(rc, 0)
        self.assertIn("no hypotheses for 'read'", err)

    def test_malformed_line_is_an_error(self):
        rc, err, _ = self.run_script("inter", ["cat\tK AE T\n"])
        self.assertNotEqual(rc, 0)
        self.assertIn("expected word<TAB>rank<TAB>score<TAB>output", err)


if __name__ == "__main__":
    unittest.main()
