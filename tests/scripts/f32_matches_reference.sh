#!/usr/bin/env bash
# The float32 runtime against the PyTorch reference on a whole split, word by word: `edgenmt
# eval --outputs` (default backend) must give the reference's WER and PER (metrics.json, to
# 0.01) and the reference's output for every word (models/<name>/outputs/<split>.<search>.tsv,
# written by converter/reference/golden_outputs.py), or a difference that is a near-tie under
# the reference (golden_outputs.py compare lists each one with both scores).
# KEEP_DIR, if given, keeps the runtime's outputs (outputs.tsv, its eval line in `eval`, and
# last `decode`: "MODEL_FILE DATA_TSV BEAM") for int8_accuracy.sh to compare the int8 files with.
# usage: f32_matches_reference.sh CLI MODEL_FILE DATA_TSV CHECKPOINT_DIR SPLIT SEARCH BEAM [KEEP_DIR]
set -euo pipefail
cli=$1 model=$2 data=$3 checkpoint=$4 split=$5 search=$6 beam=$7 keep=${8:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
golden=$checkpoint/outputs/$split.$search.tsv
metrics=$checkpoint/metrics.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

line=$("$cli" eval -m "$model" --data "$data" --beam "$beam" --outputs "$work/outputs.tsv" | tail -n 1)
echo "runtime:   $line"
if [[ -n "$keep" ]]; then
  rm -rf "$keep"
  mkdir -p "$keep"
  cp "$work/outputs.tsv" "$keep/outputs.tsv"
  echo "$line" > "$keep/eval"
  echo "$model $data $beam" > "$keep/decode"
fi
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
print("OK: runtime's WER and PER are the float reference's")
PY
/usr/bin/python3 "$here/../../converter/reference/golden_outputs.py" compare --model "$checkpoint" \
  --golden "$golden" --outputs "$work/outputs.tsv" --beam "$beam" \
  --metrics "$metrics" --data "$data" --split "$split" --search "$search"
