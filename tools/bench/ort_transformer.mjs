// The ONNX Runtime Transformer peer's sessions and greedy loop (ort_g2p.mjs is the LSTM's twin),
// used by ort_greedy.mjs when its last argument is "transformer".
//
// Sessions as ort_g2p.mjs opens them (all graph optimizations, the CPU provider, sequential
// execution, one intra-op and one inter-op thread). MODEL_DIR holds encoder.onnx, decoder.onnx
// and trivial.onnx from export_onnx_transformer.py (or quantize_onnx.py's int8 pair):
//   encoder: src [1, S] -> cross_k_l, cross_v_l [1, heads, S, d_head] per decoder layer l;
//   decoder: prev [1], pos [1], past_k_l, past_v_l [1, heads, t, d_head], cross_k_l, cross_v_l
//            -> logprobs [1, V], new_k_l, new_v_l [1, heads, t + 1, d_head].
// The greedy loop is MODEL.md's: argmax with ties to the lowest id, stop at </s> (id 3) or after
// maxLen tokens; the self-attention cache each step returns is the next step's input (t = 0:
// empty tensors).
import { createRequire } from 'node:module';
import path from 'node:path';

export const BOS = 2n;
const EOS = 3;

export async function openTransformer(nodeDir, modelDir, maxLen) {
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
  const layers = encoder.outputNames.filter((n) => n.startsWith('cross_k_')).length;

  const int64 = (v) => new ort.Tensor('int64', BigInt64Array.of(v), [1]);

  // The decoder's feeds for step 0 of a source: its cross K/V and an empty cache.
  async function start(ids) {
    const src = new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]);
    const enc = await encoder.run({ src });
    const [, heads, , dHead] = enc.cross_k_0.dims;
    const empty = new ort.Tensor('float32', new Float32Array(0), [1, heads, 0, dHead]);
    const feeds = { prev: int64(BOS), pos: int64(0n) };
    for (let l = 0; l < layers; l++) {
      feeds[`cross_k_${l}`] = enc[`cross_k_${l}`];
      feeds[`cross_v_${l}`] = enc[`cross_v_${l}`];
      feeds[`past_k_${l}`] = empty;
      feeds[`past_v_${l}`] = empty;
    }
    return feeds;
  }

  // Output ids of one source (a list of ids) and the decoder steps it took.
  async function translate(ids) {
    const feeds = await start(ids);
    const out = [];
    let steps = 0;
    for (let t = 0; t < maxLen; t++) {
      feeds.pos = int64(BigInt(t));
      const r = await decoder.run(feeds);
      steps++;
      const lp = r.logprobs.data;
      let best = 0;
      for (let v = 1; v < lp.length; v++) if (lp[v] > lp[best]) best = v;   // first max wins
      if (best === EOS) break;
      out.push(best);
      for (let l = 0; l < layers; l++) {
        feeds[`past_k_${l}`] = r[`new_k_${l}`];
        feeds[`past_v_${l}`] = r[`new_v_${l}`];
      }
      feeds.prev = int64(BigInt(best));
    }
    return [out, steps];
  }

  // ort_greedy.mjs's overhead figure: the first decoder step (empty cache) on a one-character
  // source, the step's smallest input.
  const feeds1 = await start([5]);
  const stepS1 = () => decoder.run(feeds1);
  return { ort, encoder, decoder, trivial, translate, stepS1 };
}
