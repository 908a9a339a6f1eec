// The ONNX Runtime G2P peer's sessions and greedy loop, shared by ort_greedy.mjs (make bench:
// timed, on this machine) and ort_count.mjs (make bench-arm: instructions under qemu-aarch64).
//
// Sessions as ONNX Runtime's docs advise for CPU inference: all graph optimizations, the CPU
// provider, sequential execution, one intra-op and one inter-op thread. The greedy loop is
// MODEL.md's: argmax with ties to the lowest id, stop at </s> (id 3) or after maxLen tokens.
import { createRequire } from 'node:module';
import path from 'node:path';

export const BOS = 2n;
const EOS = 3;

// NODE_DIR holds node_modules/onnxruntime-node (tools/bench/setup_node.sh); MODEL_DIR holds
// encoder.onnx, decoder.onnx and trivial.onnx (export_onnx.py, or quantize_onnx.py's int8 pair).
export async function openG2p(nodeDir, modelDir, maxLen) {
  const require = createRequire(path.join(path.resolve(nodeDir), 'package.json'));
  const ort = require('onnxruntime-node');
  const options = {
    intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all', executionProviders: ['cpu'],
  };
  const open = (name) => ort.InferenceSession.create(path.join(modelDir, name), options);
  const encoder = await open('encoder.onnx');
  const decoder = await open('decoder.onnx');
  const trivial = await open('trivial.onnx');

  // Output ids of one source (a list of ids) and the decoder steps it took.
  async function translate(ids) {
    const src = new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]);
    const enc = await encoder.run({ src });
    const H = enc.h0.dims[1];
    let h = enc.h0, c = enc.c0;
    let feed = new ort.Tensor('float32', new Float32Array(H), [1, H]);   // h̃_{-1} = 0
    let prev = new ort.Tensor('int64', BigInt64Array.of(BOS), [1]);
    const out = [];
    let steps = 0;
    for (let t = 0; t < maxLen; t++) {
      const r = await decoder.run({ prev, h, c, feed, memory: enc.memory });
      steps++;
      const lp = r.logprobs.data;
      let best = 0;
      for (let v = 1; v < lp.length; v++) if (lp[v] > lp[best]) best = v;   // first max wins
      if (best === EOS) break;
      out.push(best);
      h = r.h_out; c = r.c_out; feed = r.feed_out;
      prev = new ort.Tensor('int64', BigInt64Array.of(BigInt(best)), [1]);
    }
    return [out, steps];
  }
  return { ort, encoder, decoder, trivial, translate };
}
