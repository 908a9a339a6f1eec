#!/usr/bin/env python3
"""int8 versions of the exported ONNX graphs, in the form ONNX Runtime's own dynamic
quantization (onnxruntime.quantization.quantize_dynamic, per_channel=True, QInt8 weights)
writes them, built with Debian's python3-onnx (onnxruntime's Python package, which holds that
quantizer, is not installable here):

    /usr/bin/python3 tools/bench/quantize_onnx.py --src build/bench/onnx-f32 --out build/bench/onnx-int8

Every weight matrix becomes int8 with one symmetric scale per output channel (zero point 0,
scale = max|w| / 127, values in [-127, 127]):
  * MatMul x·B (B constant [K, N])  ->  DynamicQuantizeLinear(x) -> (x_q uint8, x_scale, x_zp);
    MatMulInteger(x_q, B_q, x_zp, B_zp) -> int32; Cast to float; Mul(x_scale, B_scale[N]);
    Mul: ORT's MatMulInteger pattern, which its graph optimizer fuses into
    DynamicQuantizeMatMul at load time.
  * Gemm(x, W, b, transB=1) (torch's nn.Linear)  ->  the MatMul pattern on W^T, then Add(b).
    (ORT's dynamic quantizer leaves Gemm alone; torch writes Linear as Gemm, so without this
    the decoder's LSTM cell and the generator would stay float.)
  * LSTM (W [D, 4H, in], R [D, 4H, H] constant)  ->  com.microsoft DynamicQuantizeLSTM with
    W, R int8 transposed to [D, in, 4H] / [D, H, 4H], scales and zero points [D, 4H] (what
    ORT's LSTM quantizer emits).
Embedding tables (Gather) and biases stay float, as in ORT's quantizer with its defaults.
"""
import argparse
import os
import shutil

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

MS_DOMAIN = "com.microsoft"


def quantize_rows(w):
    """Symmetric int8 per row of a 2-D float array: (int8 array, float32 scales [rows])."""
    w = np.asarray(w, dtype=np.float32)
    rmax = np.abs(w).max(axis=1)
    scale = np.where(rmax > 0, rmax / 127.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(w / scale[:, None]), -127, 127).astype(np.int8)
    return q, scale


class Rewriter:
    def __init__(self, model):
        self.model = model
        self.inits = {t.name: t for t in model.graph.initializer}
        self.new_inits = []
        self.count = {"MatMul": 0, "Gemm": 0, "LSTM": 0}
        self.quantized_bytes = 0

    def const(self, name):
        t = self.inits.get(name)
        return None if t is None else numpy_helper.to_array(t)

    def add_init(self, name, array):
        self.new_inits.append(numpy_helper.from_array(array, name))
        return name

    def matmul(self, x, b_kn, out, tag):
        """The MatMulInteger pattern for out = x @ b_kn (b_kn constant [K, N])."""
        q, scale = quantize_rows(b_kn.T)                       # one scale per output column
        self.quantized_bytes += q.size
        bq = self.add_init(f"{tag}_W_quantized", np.ascontiguousarray(q.T))
        bs = self.add_init(f"{tag}_W_scale", scale)
        bz = self.add_init(f"{tag}_W_zero_point", np.zeros(scale.shape, np.int8))
        return [
            helper.make_node("DynamicQuantizeLinear", [x],
                             [f"{tag}_x_q", f"{tag}_x_scale", f"{tag}_x_zp"], f"{tag}_quant"),
            helper.make_node("MatMulInteger", [f"{tag}_x_q", bq, f"{tag}_x_zp", bz],
                             [f"{tag}_i32"], f"{tag}_MatMulInteger"),
            helper.make_node("Mul", [f"{tag}_x_scale", bs], [f"{tag}_scales"], f"{tag}_scales_mul"),
            helper.make_node("Cast", [f"{tag}_i32"], [f"{tag}_f32"], f"{tag}_cast",
                             to=TensorProto.FLOAT),
            helper.make_node("Mul", [f"{tag}_f32", f"{tag}_scales"], [out], f"{tag}_mul"),
        ]

    def rewrite(self, node, i):
        tag = f"q{i}_{node.op_type}"
        if node.op_type == "MatMul":
            b = self.const(node.input[1])
            if b is None or b.ndim != 2:
                return None
            self.count["MatMul"] += 1
            return self.matmul(node.input[0], b, node.output[0], tag)
        if node.op_type == "Gemm":
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            w = self.const(node.input[1])
            if (w is None or attrs.get("transA", 0) or attrs.get("alpha", 1.0) != 1.0
                    or attrs.get("beta", 1.0) != 1.0):
                return None
            b_kn = w.T if attrs.get("transB", 0) else w
            self.count["Gemm"] += 1
            if len(node.input) < 3 or not node.input[2]:
                return self.matmul(node.input[0], b_kn, node.output[0], tag)
            nodes = self.matmul(node.input[0], b_kn, f"{tag}_nobias", tag)
            return nodes + [helper.make_node("Add", [f"{tag}_nobias", node.input[2]],
                                             [node.output[0]], f"{tag}_bias")]
        if node.op_type == "LSTM":
            W, R = self.const(node.input[1]), self.const(node.input[2])
            if W is None or R is None:
                return None
            self.count["LSTM"] += 1
            ins = list(node.input) + [""] * (8 - len(node.input))
            quant = []
            for name, m in (("W", W), ("R", R)):
                D, G, K = m.shape                                  # [dirs, 4H, in]
                q, scale = quantize_rows(m.reshape(D * G, K))
                self.quantized_bytes += q.size
                quant += [self.add_init(f"{tag}_{name}_quantized",
                                        np.ascontiguousarray(q.reshape(D, G, K).transpose(0, 2, 1))),
                          self.add_init(f"{tag}_{name}_scale", scale.reshape(D, G)),
                          self.add_init(f"{tag}_{name}_zero_point", np.zeros((D, G), np.int8))]
            inputs = [ins[0], quant[0], quant[3]] + ins[3:8] + [quant[1], quant[2], quant[4], quant[5]]
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            return [helper.make_node("DynamicQuantizeLSTM", inputs, list(node.output),
                                     f"{tag}_DynamicQuantizeLSTM", domain=MS_DOMAIN, **attrs)]
        return None

    def run(self):
        g = self.model.graph
        out_nodes = []
        for i, node in enumerate(g.node):
            new = self.rewrite(node, i)
            out_nodes.extend([node] if new is None else new)
        del g.node[:]
        g.node.extend(out_nodes)
        used = {x for n in g.node for x in n.input}
        keep = [t for t in g.initializer if t.name in used]   # drop the float weights replaced
        del g.initializer[:]
        g.initializer.extend(keep + self.new_inits)
        if not any(o.domain == MS_DOMAIN for o in self.model.opset_import):
            self.model.opset_import.append(helper.make_opsetid(MS_DOMAIN, 1))
        return self.model


def quantize_file(src, dst):
    model = onnx.load(src)
    rw = Rewriter(model)
    onnx.save(rw.run(), dst)
    return rw.count, rw.quantized_bytes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--src", default=os.path.join(here, "build/bench/onnx-f32"))
    ap.add_argument("--out", default=os.path.join(here, "build/bench/onnx-int8"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in ("encoder", "decoder"):
        count, qbytes = quantize_file(os.path.join(args.src, f"{name}.onnx"),
                                      os.path.join(args.out, f"{name}.onnx"))
        print(f"quantize_onnx: {name}: {count} -> {qbytes} int8 weight bytes")
    shutil.copyfile(os.path.join(args.src, "trivial.onnx"), os.path.join(args.out, "trivial.onnx"))


if __name__ == "__main__":
    main()
