"""export.export_checkpoint: writes a directory load_checkpoint reads back identically, and
refuses what edgenmt-convert would refuse (wrong vocabulary size, NaN, extra tensors)."""
import os
import tempfile
import unittest

import _path  # noqa: F401

import torch

from checkpoint import SPECIALS, load_checkpoint
from export import export_checkpoint, with_specials
from model import ModelConfig, Seq2Seq

CONFIG = dict(cell="gru", src_vocab_size=9, tgt_vocab_size=7, src_embed=4, tgt_embed=5,
              enc_hidden=6, enc_layers=1, bidirectional=True, reverse_source=False, dec_hidden=12,
              dec_layers=1, bridge=True, input_feeding=True, attention="global", score="dot",
              attn_hidden=1, window=1, max_src_len=8, tokenizer="word", dropout=0.0)
SRC = ["a", "b", "c", "d", "e"]
TGT = ["x", "y", "z"]


class ExportTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.model = Seq2Seq(ModelConfig.from_dict(CONFIG))
        self.tmp = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.tmp.name, "ckpt")

    def tearDown(self):
        self.tmp.cleanup()

    def test_round_trip(self):
        export_checkpoint(self.model, SRC, TGT, self.out)
        self.assertEqual(sorted(os.listdir(self.out)),
                         ["config.json", "model.safetensors", "src.vocab", "tgt.vocab"])
        loaded, src_vocab, tgt_vocab = load_checkpoint(self.out)
        self.assertEqual(src_vocab.tokens, SPECIALS + SRC)
        self.assertEqual(tgt_vocab.tokens, SPECIALS + TGT)
        for name, tensor in self.model.state_dict().items():
            self.assertTrue(torch.equal(tensor, loaded.state_dict()[name]), name)

    def test_specials_are_not_repeated(self):
        self.assertEqual(with_specials(["<unk>", "a", "<pad>"]), SPECIALS + ["a"])

    def test_refusals(self):
        with self.assertRaisesRegex(ValueError, "vocabularies"):
            export_checkpoint(self.model, SRC[:-1], TGT, self.out)
        with torch.no_grad():
            self.model.generator.bias[0] = float("nan")
        with self.assertRaisesRegex(ValueError, "generator.bias: holds NaN"):
            export_checkpoint(self.model, SRC, TGT, self.out)
        self.assertFalse(os.path.exists(self.out))


if __name__ == "__main__":
    unittest.main()
