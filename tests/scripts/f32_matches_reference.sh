#!/usr/bin/env bash
# The runtime's `edgenmt eval` on a whole split must give the float reference's WER and PER
# (models/g2p-en/metrics.json, written by converter/reference/train.py) to 0.01.
# usage: eval_matches_metrics.sh CLI MODEL_FILE DATA_TSV METRICS_JSON SPLIT SEARCH BEAM
set -euo pipefail
cli=$1 model=$2 data=$3 metrics=$4 split=$5 search=$6 beam=$7

line=$("$cli" eval -m "$model" --data "$data" --beam "$beam" | tail -n 1)
echo "runtime:   $line"
expected=$(/usr/bin/python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]]
print("words=%d WER=%.2f PER=%.2f" % (m["words"], m["wer"], m["per"]))' "$metrics" "$split" "$search")
echo "reference: $expected ($metrics $split $search)"
/usr/bin/python3 - "$line" "$expected" <<'PY'
import re, sys
def parse(s):
    m = re.fullmatch(r"words=(\d+) WER=([0-9.]+) PER=([0-9.]+)", s.strip())
    if not m:
        sys.exit(f"unparseable line: {s!r}")
    return int(m[1]), float(m[2]), float(m[3])
got, want = parse(sys.argv[1]), parse(sys.argv[2])
if got[0] != want[0]:
    sys.exit(f"word count differs: {got[0]} vs {want[0]}")
for name, g, w in (("WER", got[1], want[1]), ("PER", got[2], want[2])):
    if abs(g - w) > 0.01 + 1e-9:
        sys.exit(f"{name} {g:.2f} differs from the reference's {w:.2f} by more than 0.01")
print("OK: runtime matches the float reference")
PY
