"""safetensors writer/reader round trip and byte layout."""
import json
import os
import struct
import tempfile
import unittest

import numpy as np
import torch

import _path  # noqa: F401
from safetensors_io import load_file, save_file


class SafetensorsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "m.safetensors")

    def tearDown(self):
        self.tmp.cleanup()

    def test_round_trip(self):
        g = torch.Generator().manual_seed(0)
        tensors = {"b.weight": torch.randn(3, 5, generator=g), "a.bias": torch.randn(7, generator=g),
                   "c": torch.tensor([1.5, -0.0, float("inf")]), "s": torch.tensor(2.25)}
        save_file(tensors, self.path, {"note": "x"})
        loaded, meta = load_file(self.path)
        self.assertEqual(meta, {"note": "x"})
        self.assertEqual(set(loaded), set(tensors))
        for k, v in tensors.items():
            self.assertEqual(loaded[k].dtype, torch.float32)
            self.assertEqual(tuple(loaded[k].shape), tuple(v.shape))
            self.assertTrue(torch.equal(loaded[k], v), k)

    def test_byte_layout(self):
        save_file({"w": torch.tensor([[1.0, 2.0]]), "a": torch.tensor([3.0])}, self.path)
        blob = open(self.path, "rb").read()
        (n,) = struct.unpack("<Q", blob[:8])
        self.assertEqual(n % 8, 0)
        header = json.loads(blob[8:8 + n])
        self.assertEqual(header["a"], {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]})
        self.assertEqual(header["w"], {"dtype": "F32", "shape": [1, 2], "data_offsets": [4, 12]})
        self.assertEqual(blob[8 + n:], np.array([3.0, 1.0, 2.0], dtype="<f4").tobytes())

    def test_reads_unpadded_foreign_header(self):
        header = json.dumps({"x": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}).encode()
        with open(self.path, "wb") as f:
            f.write(struct.pack("<Q", len(header)) + header + np.array([0.5, -1], "<f4").tobytes())
        loaded, meta = load_file(self.path)
        self.assertEqual(loaded["x"].tolist(), [0.5, -1.0])
        self.assertEqual(meta, {})

    def test_rejects_bad_files(self):
        header = json.dumps({"x": {"dtype": "F16", "shape": [2], "data_offsets": [0, 4]}}).encode()
        with open(self.path, "wb") as f:
            f.write(struct.pack("<Q", len(header)) + header + b"\0" * 4)
        with self.assertRaises(ValueError):
            load_file(self.path)
        header = json.dumps({"x": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}).encode()
        with open(self.path, "wb") as f:
            f.write(struct.pack("<Q", len(header)) + header + b"\0" * 8)
        with self.assertRaises(ValueError):
            load_file(self.path)


if __name__ == "__main__":
    unittest.main()
