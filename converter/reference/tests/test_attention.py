"""Hand-computed attention cases (docs/MODEL.md "attend(q)")."""
import math
import unittest

import torch

import _path  # noqa: F401
from model import EncoderContext, ModelConfig, Seq2Seq


def config(**kw):
    base = dict(cell="lstm", src_vocab_size=8, tgt_vocab_size=8, src_embed=2, tgt_embed=2,
                enc_hidden=2, enc_layers=1, bidirectional=False, reverse_source=False,
                dec_hidden=2, dec_layers=1, bridge=False, input_feeding=False,
                attention="global", score="dot", attn_hidden=2, window=1, max_src_len=8,
                tokenizer="char", dropout=0.0)
    base.update(kw)
    return ModelConfig.from_dict(base)


def context(memory, lengths):
    lengths = torch.tensor(lengths)
    S = memory.size(1)
    mask = torch.arange(S).unsqueeze(0) < lengths.unsqueeze(1)
    return EncoderContext(memory, None, mask, lengths)


def set_predictor(attn, k):
    """local-p with q = [20, 0]: tanh(W_p q) = [1, 0] exactly, so p_t = S * sigmoid(k)."""
    with torch.no_grad():
        attn.predict_w.weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 0.0]]))
        attn.predict_v.weight.copy_(torch.tensor([[k, 0.0]]))


class LocalPTest(unittest.TestCase):
    def test_gaussian_not_renormalised(self):
        # predict_w = 0 -> p = S * sigmoid(0) = 2.5 for S = 5; D = 1 -> window {2, 3}.
        attn = Seq2Seq(config(attention="local_p", window=1)).attn
        with torch.no_grad():
            attn.predict_w.weight.zero_()
        memory = torch.tensor([[[5.0, 5.0], [5.0, 5.0], [1.0, 0.0], [0.0, 0.0], [5.0, 5.0]]])
        q = torch.tensor([[math.log(3.0), 0.0]])   # dot scores: ln 3 at s=2, 0 at s=3
        a, c = attn(q, context(memory, [5]), t=0)
        g = math.exp(-0.5)                          # exp(-(0.5)^2 / (2 * 0.5^2))
        expected = [0.0, 0.0, 0.75 * g, 0.25 * g, 0.0]
        for got, want in zip(a[0].tolist(), expected):
            self.assertAlmostEqual(got, want, places=6)
        self.assertAlmostEqual(float(a.sum()), g, places=6)   # sums to e^-0.5, not 1
        self.assertAlmostEqual(float(c[0, 0]), 0.75 * g, places=6)
        self.assertAlmostEqual(float(c[0, 1]), 0.0, places=6)

    def test_window_clipped_at_left_edge(self):
        # S = 4, p = 4 * sigmoid(ln(1/15)) = 0.25, D = 2 -> window [max(0, ceil(-1.75)), floor(2.25)] = [0, 2].
        attn = Seq2Seq(config(attention="local_p", window=2)).attn
        set_predictor(attn, math.log(1.0 / 15.0))
        a, _ = attn(torch.tensor([[20.0, 0.0]]), context(torch.zeros(1, 4, 2), [4]), t=0)
        # zero memory -> uniform softmax (1/3) over the window; sigma = 1.
        expected = [math.exp(-(s - 0.25) ** 2 / 2.0) / 3.0 for s in range(3)] + [0.0]
        for got, want in zip(a[0].tolist(), expected):
            self.assertAlmostEqual(got, want, places=5)

    def test_window_clipped_at_right_edge(self):
        # p = 4 * sigmoid(ln 15) = 3.75, D = 2 -> window [ceil(1.75), min(3, floor(5.75))] = [2, 3].
        attn = Seq2Seq(config(attention="local_p", window=2)).attn
        set_predictor(attn, math.log(15.0))
        a, _ = attn(torch.tensor([[20.0, 0.0]]), context(torch.zeros(1, 4, 2), [4]), t=0)
        expected = [0.0, 0.0, math.exp(-1.75 ** 2 / 2.0) / 2.0, math.exp(-0.75 ** 2 / 2.0) / 2.0]
        for got, want in zip(a[0].tolist(), expected):
            self.assertAlmostEqual(got, want, places=5)

    def test_padding_in_batch_uses_each_length(self):
        # Same predictor, lengths 4 and 2: p = 3.75 and 1.875; the short row's window [0, 1].
        attn = Seq2Seq(config(attention="local_p", window=2)).attn
        set_predictor(attn, math.log(15.0))
        q = torch.tensor([[20.0, 0.0], [20.0, 0.0]])
        a, _ = attn(q, context(torch.zeros(2, 4, 2), [4, 2]), t=0)
        p = 1.875
        expected = [math.exp(-(s - p) ** 2 / 2.0) / 2.0 for s in range(2)] + [0.0, 0.0]
        for got, want in zip(a[1].tolist(), expected):
            self.assertAlmostEqual(got, want, places=5)


class LocalMTest(unittest.TestCase):
    def test_window_follows_t_and_clips(self):
        attn = Seq2Seq(config(attention="local_m", window=1)).attn
        ctx = context(torch.zeros(2, 4, 2), [4, 2])   # zero memory: uniform over the window
        q = torch.zeros(2, 2)
        cases = {0: ([0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0]),
                 2: ([0, 1 / 3, 1 / 3, 1 / 3], [0.5, 0.5, 0, 0]),      # row 2: p = min(2, 1) = 1
                 7: ([0, 0, 0.5, 0.5], [0.5, 0.5, 0, 0])}               # p = min(7, S-1)
        for t, rows in cases.items():
            a, _ = attn(q, ctx, t=t)
            for r, want_row in enumerate(rows):
                for got, want in zip(a[r].tolist(), want_row):
                    self.assertAlmostEqual(got, want, places=6, msg=f"t={t} row={r}")


class GlobalMaskTest(unittest.TestCase):
    def test_padding_masked(self):
        attn = Seq2Seq(config(attention="global", score="dot")).attn
        memory = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
                               [[2.0, 0.0], [9.0, 9.0], [9.0, 9.0]]])   # row 1: length 1
        q = torch.tensor([[1.0, 2.0], [1.0, 1.0]])
        a, c = attn(q, context(memory, [3, 1]), t=0)
        self.assertEqual(a[1].tolist(), [1.0, 0.0, 0.0])
        self.assertEqual(c[1].tolist(), [2.0, 0.0])
        e = [math.exp(1), math.exp(2), math.exp(3)]
        for got, want in zip(a[0].tolist(), [x / sum(e) for x in e]):
            self.assertAlmostEqual(got, want, places=6)

    def test_location_and_general_scores(self):
        attn = Seq2Seq(config(attention="global", score="location", max_src_len=4)).attn
        with torch.no_grad():
            attn.location.weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0], [5.0, 5.0]]))
        a, _ = attn(torch.tensor([[math.log(2.0), 0.0]]), context(torch.zeros(1, 3, 2), [3]), t=0)
        for got, want in zip(a[0].tolist(), [0.5, 0.25, 0.25]):   # scores ln2, 0, 0; s=3 absent
            self.assertAlmostEqual(got, want, places=6)
        attn = Seq2Seq(config(attention="global", score="general", enc_hidden=1, bidirectional=True)).attn
        with torch.no_grad():
            attn.linear_in.weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 0.0]]))   # W_a q = [q0, 0]
        memory = torch.tensor([[[1.0, 7.0], [0.0, 7.0]]])
        a, _ = attn(torch.tensor([[math.log(3.0), 4.0]]), context(memory, [2]), t=0)
        for got, want in zip(a[0].tolist(), [0.75, 0.25]):
            self.assertAlmostEqual(got, want, places=6)


class EncoderPaddingTest(unittest.TestCase):
    def test_batched_equals_single(self):
        """Packed sequences: padding changes neither encoder states nor decoder outputs."""
        torch.manual_seed(0)
        cfg = config(cell="gru", bidirectional=True, reverse_source=True, enc_layers=2,
                     dec_hidden=4, bridge=True, attention="local_p", score="general", window=2,
                     attn_hidden=3, input_feeding=True)
        model = Seq2Seq(cfg).eval()
        srcs = [[4, 5, 6, 7, 5], [6, 4], [7, 7, 5]]
        batch = torch.zeros(3, 5, dtype=torch.long)
        for r, s in enumerate(srcs):
            batch[r, :len(s)] = torch.tensor(s)
        tgt = torch.tensor([[2, 4, 5], [2, 6, 4], [2, 5, 5]])
        with torch.no_grad():
            lp_b, at_b = model(batch, torch.tensor([5, 2, 3]), tgt)
            for r, s in enumerate(srcs):
                lp_1, at_1 = model(torch.tensor([s]), torch.tensor([len(s)]), tgt[r:r + 1])
                self.assertTrue(torch.allclose(lp_b[r], lp_1[0], atol=1e-6))
                self.assertTrue(torch.allclose(at_b[r, :, :len(s)], at_1[0], atol=1e-6))
                self.assertEqual(float(at_b[r, :, len(s):].abs().sum()), 0.0)

    def test_reverse_padded(self):
        src = torch.tensor([[4, 5, 6], [7, 8, 0]])
        out = Seq2Seq.reverse_padded(src, torch.tensor([3, 2]))
        self.assertEqual(out.tolist(), [[6, 5, 4], [8, 7, 0]])


if __name__ == "__main__":
    unittest.main()
