// Greedy decoding of the exported G2P model with ONNX Runtime (onnxruntime-node), one word per
// call, single-threaded: the ONNX Runtime peer of `make bench` (tools/bench/bench.py runs it).
//
//   node tools/bench/ort_greedy.mjs NODE_DIR MODEL_DIR SOURCES_JSON OUT_JSON [MAX_LEN [REPEAT]]
//
// NODE_DIR holds node_modules/onnxruntime-node (tools/bench/setup_node.sh installs it);
// MODEL_DIR holds encoder.onnx, decoder.onnx and trivial.onnx (export_onnx.py writes them, or
// the int8 pair from quantize_onnx.py). SOURCES_JSON is a list of source id lists. The greedy
// loop is MODEL.md's: argmax with ties to the lowest id, stop at </s> (id 3) or after max_len
// tokens (default 64). OUT_JSON gets the output ids per word, the timing of the loop over all
// words (sessions created and warmed up before; the fastest of REPEAT passes, default 1), and
// ONNX Runtime's per-call overhead measured on a trivial graph and on the decoder step with a
// one-character source.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const [nodeDir, modelDir, sourcesPath, outPath, maxLenArg, repeatArg] = process.argv.slice(2);
if (!outPath) {
  console.error('usage: node ort_greedy.mjs NODE_DIR MODEL_DIR SOURCES_JSON OUT_JSON [MAX_LEN [REPEAT]]');
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(nodeDir), 'package.json'));
const ort = require('onnxruntime-node');
const MAX_LEN = Number(maxLenArg || 64);
const REPEAT = Math.max(1, Number(repeatArg || 1));
const BOS = 2n, EOS = 3;

// One intra-op and one inter-op thread: the same single core every other row of the table uses.
const options = {
  intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential',
  graphOptimizationLevel: 'all', executionProviders: ['cpu'],
};
const encoder = await ort.InferenceSession.create(path.join(modelDir, 'encoder.onnx'), options);
const decoder = await ort.InferenceSession.create(path.join(modelDir, 'decoder.onnx'), options);
const trivial = await ort.InferenceSession.create(path.join(modelDir, 'trivial.onnx'), options);
async function translate(ids) {
  const src = new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]);
  const enc = await encoder.run({ src });
  const H = enc.h0.dims[1];
  let h = enc.h0, c = enc.c0;
  let feed = new ort.Tensor('float32', new Float32Array(H), [1, H]);   // h̃_{-1} = 0
  let prev = new ort.Tensor('int64', BigInt64Array.of(BOS), [1]);
  const out = [];
  let steps = 0;
  for (let t = 0; t < MAX_LEN; t++) {
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

// Median of `reps` timings of `calls` back-to-back calls, in µs per call.
async function perCall(fn, calls, reps = 5) {
  const t = [];
  for (let r = 0; r < reps; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await fn();
    t.push(Number(process.hrtime.bigint() - t0) / 1e3 / calls);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(reps / 2)];
}

const sources = JSON.parse(fs.readFileSync(sourcesPath, 'utf8'));
for (const ids of sources.slice(0, 10)) await translate(ids);   // warm-up: first-run allocations

let hyps = [], steps = 0, seconds = Infinity;
for (let pass = 0; pass < REPEAT; pass++) {
  hyps = [];
  steps = 0;
  const t0 = process.hrtime.bigint();
  for (const ids of sources) {
    const [out, n] = await translate(ids);
    hyps.push(out);
    steps += n;
  }
  seconds = Math.min(seconds, Number(process.hrtime.bigint() - t0) / 1e9);
}

// Overhead: a graph with one Identity on one float (nothing to compute: what remains is the
// binding, the session's bookkeeping and the promise round trip), and the real decoder step on
// a one-character source (its smallest input).
const one = new ort.Tensor('float32', Float32Array.of(1), [1]);
const trivialUs = await perCall(() => trivial.run({ x: one }), 2000);
const enc1 = await encoder.run({ src: new ort.Tensor('int64', BigInt64Array.of(5n), [1, 1]) });
const H1 = enc1.h0.dims[1];
const zeros = new ort.Tensor('float32', new Float32Array(H1), [1, H1]);
const bos = new ort.Tensor('int64', BigInt64Array.of(BOS), [1]);
const stepUs = await perCall(
  () => decoder.run({ prev: bos, h: enc1.h0, c: enc1.c0, feed: zeros, memory: enc1.memory }), 500);

fs.writeFileSync(outPath, JSON.stringify({
  words: sources.length, seconds, words_per_s: sources.length / seconds,
  us_per_word: seconds * 1e6 / sources.length, decoder_calls: steps, encoder_calls: sources.length,
  trivial_call_us: trivialUs, decoder_step_s1_us: stepUs, ort_version: ort.env.versions,
  hyps,
}));
