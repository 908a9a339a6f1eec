"""transformer.Transformer: incremental decoding (one token at a time, with key/value caches)
is the teacher-forced pass, for every option; beam reordering keeps each hypothesis' cache;
configs are validated; checkpoints export and load back through the model_type dispatch."""
import itertools
import os
import tempfile
import unittest

import _path  # noqa: F401

import torch

from checkpoint import config_from_dict, load_checkpoint
from export import export_checkpoint
from search import DecodeOptions, batched_greedy, decode
from transformer import Transformer, TransformerConfig, sinusoid_table

BASE = dict(src_vocab_size=12, tgt_vocab_size=9, d_model=16, heads=2, ffn=24, enc_layers=2,
            dec_layers=2, activation="relu", norm="pre", positions="sinusoidal", tie_output=True,
            max_src_len=8, max_tgt_len=10, tokenizer="char")


def random_model(seed, **options):
    torch.manual_seed(seed)
    model = Transformer(TransformerConfig.from_dict(dict(BASE, **options)))
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn_like(p) * 0.3)
    return model.eval()


class TransformerTest(unittest.TestCase):
    def test_steps_equal_teacher_forcing_for_every_option(self):
        options = itertools.product(("pre", "post"), ("sinusoidal", "learned"), ("relu", "gelu"),
                                    (True, False))
        for i, (norm, positions, activation, tie) in enumerate(options):
            model = random_model(i, norm=norm, positions=positions, activation=activation,
                                 tie_output=tie)
            src = torch.randint(4, 12, (3, 6))
            lengths = torch.tensor([6, 3, 5])
            tgt = torch.randint(4, 9, (3, 5))
            tgt[:, 0] = 2
            with torch.no_grad():
                logprobs, attention = model(src, lengths, tgt)
                ctx, state = model.encode(src, lengths)
                for t in range(tgt.size(1)):
                    lp, a, state = model.step(tgt[:, t], state, ctx)
                    torch.testing.assert_close(lp, logprobs[:, t], atol=1e-5, rtol=0)
                    torch.testing.assert_close(a, attention[:, t], atol=1e-6, rtol=0)
            # Padding never leaks into attention: weights beyond a source's length are 0.
            self.assertEqual(float(attention[1, :, 3:].abs().sum()), 0.0)

    def test_state_dict_names(self):
        tied = random_model(0).state_dict()
        self.assertIn("src_pos", tied)
        self.assertIn("decoder.1.cross_attn.out_proj.bias", tied)
        self.assertIn("encoder_norm.weight", tied)
        self.assertNotIn("generator.weight", tied)
        untied = random_model(0, tie_output=False, norm="post").state_dict()
        self.assertIn("generator.weight", untied)
        self.assertNotIn("encoder_norm.weight", untied)
        torch.testing.assert_close(tied["src_pos"], sinusoid_table(8, 16))

    def test_beam_search_matches_greedy_and_batched_greedy(self):
        model = random_model(3, norm="post")
        opts = DecodeOptions(beam=1, max_len=10)
        sources = [[5, 6, 7], [4, 4], [9, 8, 7, 6, 5]]
        batched = batched_greedy(model, sources, opts)
        for src, b in zip(sources, batched):
            single = decode(model, src, opts)[0]
            self.assertEqual(single.tokens, b.tokens)
            self.assertAlmostEqual(single.logprob, b.logprob, places=4)
        hyps = decode(model, sources[2], DecodeOptions(beam=4, nbest=4, max_len=10))
        self.assertEqual(len(hyps), 4)
        self.assertTrue(all(hyps[i].score >= hyps[i + 1].score for i in range(3)))

    def test_invalid_configs(self):
        for bad in (dict(heads=3), dict(norm="sandwich"), dict(activation="swish"),
                    dict(positions="rotary"), dict(max_tgt_len=0), dict(model_type="rnn")):
            with self.assertRaises(ValueError, msg=str(bad)):
                TransformerConfig.from_dict(dict(BASE, **bad))
        with self.assertRaises(ValueError):
            config_from_dict(dict(BASE, model_type="mamba"))

    def test_too_long_inputs_are_refused(self):
        model = random_model(0)
        with self.assertRaises(ValueError):
            model.encode(torch.randint(4, 12, (1, 9)), torch.tensor([9]))
        tgt = torch.full((1, 11), 4)
        with self.assertRaises(ValueError):
            model(torch.randint(4, 12, (1, 3)), torch.tensor([3]), tgt)

    def test_export_round_trip(self):
        model = random_model(5, positions="learned", tie_output=False)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "ckpt")
            export_checkpoint(model, list("abcdefgh"), list("uvwxy"), out)
            loaded, _, _ = load_checkpoint(out)
            self.assertIsInstance(loaded, Transformer)
            for name, tensor in model.state_dict().items():
                self.assertTrue(torch.equal(tensor, loaded.state_dict()[name]), name)


if __name__ == "__main__":
    unittest.main()
