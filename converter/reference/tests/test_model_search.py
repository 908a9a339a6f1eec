"""Model + search integration: names, teacher forcing vs stepping, batched greedy."""
import os
import tempfile
import unittest

import torch

import _path  # noqa: F401
from checkpoint import Vocab, load_checkpoint, save_checkpoint
from g2p_metrics import closest_reference, score
from model import BOS, ModelConfig, Seq2Seq
from search import DecodeOptions, batched_greedy, decode, greedy

SRC = Vocab.build("abcdefghij'")
TGT = Vocab.build(["AA", "B", "K", "D", "EH", "F", "G"])


def small_config(**kw):
    base = dict(cell="lstm", src_vocab_size=len(SRC), tgt_vocab_size=len(TGT), src_embed=6,
                tgt_embed=5, enc_hidden=4, enc_layers=2, bidirectional=True, reverse_source=False,
                dec_hidden=8, dec_layers=2, bridge=True, input_feeding=True, attention="local_p",
                score="general", attn_hidden=6, window=2, max_src_len=16, tokenizer="char",
                dropout=0.0)
    base.update(kw)
    return ModelConfig.from_dict(base)


def random_model(cfg, seed):
    torch.manual_seed(seed)
    model = Seq2Seq(cfg)
    with torch.no_grad():
        for p in model.parameters():
            p.uniform_(-0.6, 0.6)
    return model.eval()


def sources(n, seed):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        length = int(torch.randint(1, 12, (1,), generator=g))
        out.append(torch.randint(4, len(SRC), (length,), generator=g).tolist())
    return out


class NamesTest(unittest.TestCase):
    def test_state_dict_names_follow_model_md(self):
        names = set(random_model(small_config(), 0).state_dict())
        expected = {"src_embed.weight", "tgt_embed.weight", "attn_out.weight", "generator.weight",
                    "generator.bias", "attn.linear_in.weight", "attn.predict_w.weight",
                    "attn.predict_v.weight"}
        for l in range(2):
            for d in ("", "_reverse"):
                expected |= {f"encoder.rnn.{k}_l{l}{d}" for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")}
            expected |= {f"decoder.layers.{l}.{k}" for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")}
            expected |= {f"bridge.{l}.{a}.{b}" for a in ("h", "c") for b in ("weight", "bias")}
        self.assertEqual(names, expected)
        bah = set(random_model(small_config(attention="bahdanau", score="concat", cell="gru",
                                            bridge=False), 0).state_dict())
        self.assertTrue({"attn.query.weight", "attn.key.weight", "attn.key.bias", "attn.v.weight"} <= bah)
        self.assertFalse(any(n.startswith("bridge.") for n in bah))
        m = random_model(small_config(attention="bahdanau", score="concat"), 0)
        self.assertEqual(tuple(m.decoder.layers[0].weight_ih.shape), (32, 5 + 8 + 8))   # embed+E+H

    def test_config_validation(self):
        small_config(attention="global", score="dot")   # E = 2 * 4 == H = 8: allowed
        with self.assertRaises(ValueError):
            small_config(attention="global", score="dot", dec_hidden=6)
        with self.assertRaises(ValueError):
            small_config(attention="none", input_feeding=True)


class TeacherForcingTest(unittest.TestCase):
    def test_forward_equals_stepping(self):
        model = random_model(small_config(cell="gru", reverse_source=True), 1)
        src = [4, 7, 9, 5]
        tgt = [BOS, 5, 6, 7]
        with torch.no_grad():
            lp, at = model(torch.tensor([src]), torch.tensor([4]), torch.tensor([tgt]))
            ctx, state = model.encode(torch.tensor([src]), torch.tensor([4]))
            for t, y in enumerate(tgt):
                lp_t, a_t, state = model.step(torch.tensor([y]), state, ctx)
                self.assertTrue(torch.allclose(lp_t[0], lp[0, t], atol=1e-6))
                self.assertTrue(torch.allclose(a_t[0], at[0, t], atol=1e-6))


class BatchedGreedyTest(unittest.TestCase):
    def test_identical_to_unbatched(self):
        configs = [small_config(),
                   small_config(cell="gru", attention="local_m", score="concat", reverse_source=True,
                                bidirectional=False, bridge=False, input_feeding=False),
                   small_config(attention="bahdanau", score="concat", dec_layers=1),
                   small_config(attention="none", input_feeding=False, enc_layers=1)]
        opts = [DecodeOptions(max_len=10), DecodeOptions(max_len=15, max_len_ratio=1.2, min_len=1)]
        for i, cfg in enumerate(configs):
            model = random_model(cfg, 10 + i)
            srcs = sources(24, i)
            o = opts[i % 2]
            batched = batched_greedy(model, srcs, o, batch_size=10)
            for s, b in zip(srcs, batched):
                u = greedy(model, s, o)
                self.assertEqual(b.tokens, u.tokens, f"config {i}")
                self.assertEqual(b.ended, u.ended)
                self.assertAlmostEqual(b.logprob, u.logprob, places=4)

    def test_beam_one_is_greedy_and_beam_is_not_worse(self):
        model = random_model(small_config(), 3)
        for s in sources(8, 5):
            g = greedy(model, s, DecodeOptions(max_len=10))
            b = decode(model, s, DecodeOptions(beam=4, nbest=2, max_len=10))
            self.assertGreaterEqual(b[0].score, g.logprob - 1e-5)
            self.assertGreaterEqual(b[0].score, b[1].score)


class CheckpointTest(unittest.TestCase):
    def test_save_load_round_trip(self):
        model = random_model(small_config(cell="gru"), 4)
        with tempfile.TemporaryDirectory() as d:
            save_checkpoint(model, SRC, TGT, d)
            self.assertEqual(open(os.path.join(d, "src.vocab")).read().split("\n")[:4],
                             ["<pad>", "<unk>", "<s>", "</s>"])
            loaded, sv, tv = load_checkpoint(d)
            self.assertEqual(sv.tokens, SRC.tokens)
            for k, v in model.state_dict().items():
                self.assertTrue(torch.equal(v, loaded.state_dict()[k]), k)


class MetricsTest(unittest.TestCase):
    def test_closest_reference_and_rates(self):
        self.assertEqual(closest_reference(["A", "B"], [["A", "C"], ["A", "D"], ["A", "B"]]), (2, 0))
        self.assertEqual(closest_reference(["A"], [["B"], ["C"]]), (0, 1))        # tie -> first
        refs = {"w1": [["A", "B", "C"], ["A", "B"]], "w2": [["X", "Y", "Z", "W"]]}
        hyps = {"w1": ["A", "B"], "w2": ["X", "Y"]}
        r = score(hyps, refs)
        self.assertEqual(r["words"], 2)
        self.assertAlmostEqual(r["wer"], 50.0)
        self.assertAlmostEqual(r["per"], 100.0 * 2 / (2 + 4))   # denominator: chosen refs


if __name__ == "__main__":
    unittest.main()
