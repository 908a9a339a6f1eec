#!/usr/bin/env python3
"""Smoke test of the ONNX Runtime peer of `make bench` (ctest bench_ort_matches_torch):

    /usr/bin/python3 tools/bench/check_ort.py [--words 20]

Exports the shipped model to ONNX and its int8 version (into a temporary directory), decodes
the first N test words greedily with ONNX Runtime (ort_greedy.mjs) and with the PyTorch
reference (torch_peer.py), and requires every float output to equal PyTorch's and the int8
outputs to agree on at least 80 % of the words. That is what makes the bench's ONNX Runtime
rows a fair peer: the same model and the same decoding.

Exit 77 (ctest: skipped) when node, npm or python3-onnx are missing or onnxruntime-node cannot
be installed (tools/bench/setup_node.sh needs the npm registry once).
"""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PY = "/usr/bin/python3"
SKIP = 77


def skip(why):
    print(f"check_ort: SKIPPED: {why}")
    sys.exit(SKIP)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--words", type=int, default=20)
    ap.add_argument("--node-dir", default=os.path.join(ROOT, "build/bench-node"))
    args = ap.parse_args()
    for tool in ("node", "npm"):
        if not shutil.which(tool):
            skip(f"{tool} not installed (make deps)")
    if importlib.util.find_spec("onnx") is None:
        skip("python3-onnx not installed (make deps)")
    setup = subprocess.run([os.path.join(HERE, "setup_node.sh"), args.node_dir],
                           capture_output=True, text=True)
    if setup.returncode != 0:
        skip(f"onnxruntime-node could not be installed:\n{setup.stdout}{setup.stderr}")

    with tempfile.TemporaryDirectory() as tmp:
        def run(*cmd):
            subprocess.run(list(cmd), check=True, stdout=subprocess.DEVNULL)
        f32, int8 = os.path.join(tmp, "f32"), os.path.join(tmp, "int8")
        sources, torch_out = os.path.join(tmp, "sources.json"), os.path.join(tmp, "torch.json")
        run(PY, os.path.join(HERE, "export_onnx.py"), "--out", f32)
        run(PY, os.path.join(HERE, "quantize_onnx.py"), "--src", f32, "--out", int8)
        run(PY, os.path.join(HERE, "torch_peer.py"), "--words", str(args.words), "--out", torch_out,
            "--sources-out", sources)
        with open(torch_out) as f:
            want = json.load(f)["hyps"]
        with open(os.path.join(ROOT, "models/g2p-en/tgt.vocab"), encoding="utf-8") as f:
            tgt = [line.rstrip("\n") for line in f]
        same = {}
        for name, d in (("float", f32), ("int8", int8)):
            out = os.path.join(tmp, f"ort-{name}.json")
            run("node", "--single-threaded-gc", os.path.join(HERE, "ort_greedy.mjs"), args.node_dir, d,
                sources, out)   # GC on the main thread: see ort_greedy.mjs
            with open(out) as f:
                got = [" ".join(tgt[i] for i in ids) for ids in json.load(f)["hyps"]]
            same[name] = sum(a == b for a, b in zip(got, want))
            if name == "float":
                for i, (a, b) in enumerate(zip(got, want)):
                    if a != b:
                        print(f"check_ort: word {i}: ONNX Runtime '{a}' != PyTorch '{b}'")
    n = len(want)
    print(f"check_ort: {n} words: ONNX Runtime float {same['float']}/{n}, int8 {same['int8']}/{n} "
          "identical to PyTorch float greedy")
    if same["float"] != n or same["int8"] < 0.8 * n:
        sys.exit(1)


if __name__ == "__main__":
    main()
