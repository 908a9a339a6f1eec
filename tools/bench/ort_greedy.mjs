// Greedy decoding of the exported G2P model with ONNX Runtime (onnxruntime-node), one word per
// call, single-threaded: the ONNX Runtime peer of `make bench` (tools/bench/bench.py runs it).
//
//   node tools/bench/ort_greedy.mjs NODE_DIR MODEL_DIR SOURCES_JSON OUT_JSON [MAX_LEN [KIND]]
//
// NODE_DIR holds node_modules/onnxruntime-node (tools/bench/setup_node.sh installs it);
// MODEL_DIR holds encoder.onnx, decoder.onnx and trivial.onnx (export_onnx.py writes them, or
// the int8 pair from quantize_onnx.py). SOURCES_JSON is a list of source id lists. KIND is
// "rnn" (the default: the LSTM; sessions and greedy loop in ort_g2p.mjs, shared with make
// bench-arm) or "transformer" (export_onnx_transformer.py's graphs; ort_transformer.mjs).
// MAX_LEN: the most tokens per word (default 64).
//
// One timed pass over all words per process, after a warm-up on the first 10 (bench.py runs
// the passes, interleaved with every other row's). OUT_JSON gets the output ids per word, the
// pass's timing, ONNX Runtime's per-call overhead measured on a trivial graph and on the
// decoder step with a one-character source, and the one-thread check: over the timed pass, the
// process's CPU time (process.cpuUsage(), all threads) may exceed the wall time by 10 % at
// most (+ 20 ms: a 20-word pass of ctest's check lasts about that long, and 0.023 s of CPU in
// 0.021 s of wall time once failed it with no other thread computing), and the CPU time of
// all threads but the main one (/proc/self/task/*/stat, in clock ticks) may be 10 % of the
// main thread's at most (+ 2 ticks of rounding); else it exits 3 rather than report a
// multi-threaded figure. The second check also holds on a loaded machine, where wall time
// alone would hide a second thread; it counts V8's helper threads (garbage collection) too,
// which a one-thread figure should not lean on either: bench.py and check_ort.py run node with
// --single-threaded-gc, so the collector runs on the main thread and is paid for there.
import fs from 'node:fs';
import { openG2p, BOS } from './ort_g2p.mjs';
import { openTransformer } from './ort_transformer.mjs';

const [nodeDir, modelDir, sourcesPath, outPath, maxLenArg, kindArg] = process.argv.slice(2);
const kind = kindArg || 'rnn';
if (!outPath || !['rnn', 'transformer'].includes(kind)) {
  console.error('usage: node ort_greedy.mjs NODE_DIR MODEL_DIR SOURCES_JSON OUT_JSON ' +
                '[MAX_LEN [rnn|transformer]]');
  process.exit(2);
}
const { ort, encoder, decoder, trivial, translate, stepS1 } =
    await (kind === 'transformer' ? openTransformer : openG2p)(
        nodeDir, modelDir, Number(maxLenArg || 64));

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

// CPU clock ticks (utime + stime) of each thread of this process, by thread id.
function threadTicks() {
  const ticks = new Map();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');   // fields from 3 (state) on
      ticks.set(tid, Number(f[11]) + Number(f[12]));                 // 14 utime, 15 stime
    } catch { /* the thread ended */ }
  }
  return ticks;
}

const hyps = [];
let steps = 0;
const ticks0 = threadTicks();
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
for (const ids of sources) {
  const [out, n] = await translate(ids);
  hyps.push(out);
  steps += n;
}
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu1 = process.cpuUsage(cpu0);
const cpuSeconds = (cpu1.user + cpu1.system) / 1e6;
let mainTicks = 0, otherTicks = 0;
for (const [tid, t] of threadTicks()) {
  const d = t - (ticks0.get(tid) || 0);
  if (tid === String(process.pid)) mainTicks = d; else otherTicks += d;
}
if (cpuSeconds > 1.1 * seconds + 0.02 || otherTicks > 0.1 * mainTicks + 2) {
  console.error(`ort_greedy: more than one thread computed: process CPU ${cpuSeconds.toFixed(3)} ` +
                `s, wall ${seconds.toFixed(3)} s, main thread ${mainTicks} ticks, other ` +
                `threads ${otherTicks} ticks`);
  process.exit(3);
}

// Overhead: a graph with one Identity on one float (nothing to compute: what remains is the
// binding, the session's bookkeeping and the promise round trip), and the real decoder step on
// a one-character source (its smallest input).
const one = new ort.Tensor('float32', Float32Array.of(1), [1]);
const trivialUs = await perCall(() => trivial.run({ x: one }), 2000);
let stepUs;
if (stepS1) {   // the Transformer: its first step (empty cache)
  stepUs = await perCall(stepS1, 500);
} else {
  const enc1 = await encoder.run({ src: new ort.Tensor('int64', BigInt64Array.of(5n), [1, 1]) });
  const H1 = enc1.h0.dims[1];
  const zeros = new ort.Tensor('float32', new Float32Array(H1), [1, H1]);
  const bos = new ort.Tensor('int64', BigInt64Array.of(BOS), [1]);
  stepUs = await perCall(
    () => decoder.run({ prev: bos, h: enc1.h0, c: enc1.c0, feed: zeros, memory: enc1.memory }),
    500);
}

fs.writeFileSync(outPath, JSON.stringify({
  words: sources.length, seconds, words_per_s: sources.length / seconds,
  us_per_word: seconds * 1e6 / sources.length, decoder_calls: steps, encoder_calls: sources.length,
  trivial_call_us: trivialUs, decoder_step_s1_us: stepUs, ort_version: ort.env.versions,
  cpu_s: cpuSeconds, main_thread_ticks: mainTicks, other_thread_ticks: otherTicks, hyps,
}));
