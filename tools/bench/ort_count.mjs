// The ONNX Runtime peer of make bench-arm (tools/bench/bench_arm.py): greedy outputs of every
// source, nothing else (no warm-up, no timing, no thread check: QEMU's TCG plugin counts the
// instructions, and the run on no sources is subtracted as start-up).
//
//   node tools/bench/ort_count.mjs NODE_DIR MODEL_DIR SOURCES_JSON OUT_JSON [MAX_LEN]
import fs from 'node:fs';
import { openG2p } from './ort_g2p.mjs';

const [nodeDir, modelDir, sourcesPath, outPath, maxLenArg] = process.argv.slice(2);
if (!outPath) {
  console.error('usage: node ort_count.mjs NODE_DIR MODEL_DIR SOURCES_JSON OUT_JSON [MAX_LEN]');
  process.exit(2);
}
const { ort, translate } = await openG2p(nodeDir, modelDir, Number(maxLenArg || 64));
const hyps = [];
for (const ids of JSON.parse(fs.readFileSync(sourcesPath, 'utf8'))) hyps.push((await translate(ids))[0]);
fs.writeFileSync(outPath, JSON.stringify({ ort_version: ort.env.versions, hyps }));
