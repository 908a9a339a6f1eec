"""Minimal safetensors reader/writer (F32 only), no dependency on the safetensors package.

Layout: 8-byte little-endian unsigned header length N, N bytes of UTF-8 JSON
``{name: {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, "__metadata__": {...}}``
(offsets relative to the first byte after the header), then the raw little-endian data. The
header is padded with spaces to a multiple of 8 so the data is 8-byte aligned. Tensors are
written in sorted name order, contiguous, without gaps.
"""
import json
import struct
from typing import Dict, Optional, Tuple

import numpy as np
import torch


def save_file(tensors: Dict[str, torch.Tensor], path: str,
              metadata: Optional[Dict[str, str]] = None) -> None:
    header = {}
    blobs = []
    offset = 0
    for name in sorted(tensors):
        # astype keeps 0-d shapes (np.ascontiguousarray would make them 1-d); tobytes is C order.
        arr = tensors[name].detach().cpu().to(torch.float32).numpy().astype("<f4", copy=False)
        data = arr.tobytes(order="C")
        header[name] = {"dtype": "F32", "shape": list(arr.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    raw = json.dumps(header, separators=(",", ":")).encode("utf-8")
    raw += b" " * ((8 - len(raw) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(raw)))
        f.write(raw)
        for b in blobs:
            f.write(b)


def load_file(path: str) -> Tuple[Dict[str, torch.Tensor], Dict[str, str]]:
    """Returns (tensors, metadata). Validates dtype, sizes and that offsets tile the data."""
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 8:
        raise ValueError("safetensors: file too short")
    (n,) = struct.unpack("<Q", blob[:8])
    if 8 + n > len(blob):
        raise ValueError("safetensors: header length exceeds file")
    header = json.loads(blob[8:8 + n].decode("utf-8"))
    data = blob[8 + n:]
    metadata = header.pop("__metadata__", {}) or {}
    tensors = {}
    spans = []
    for name, info in header.items():
        if info.get("dtype") != "F32":
            raise ValueError(f"safetensors: {name}: unsupported dtype {info.get('dtype')}")
        shape = [int(s) for s in info["shape"]]
        begin, end = (int(x) for x in info["data_offsets"])
        count = int(np.prod(shape)) if shape else 1
        if end - begin != 4 * count or begin < 0 or end > len(data):
            raise ValueError(f"safetensors: {name}: bad data_offsets {begin}..{end}")
        spans.append((begin, end))
        arr = np.frombuffer(data, dtype="<f4", count=count, offset=begin).reshape(shape)
        tensors[name] = torch.from_numpy(arr.astype(np.float32))
    spans.sort()
    pos = 0
    for begin, end in spans:
        if begin != pos:
            raise ValueError("safetensors: data_offsets leave gaps or overlap")
        pos = end
    if pos != len(data):
        raise ValueError("safetensors: trailing bytes after the last tensor")
    return tensors, metadata
