#!/usr/bin/env bash
# docs/INT8.md "Accuracy contract": an int8 file of the shipped model against its float32 file
# on a data split (both on the default backend): WER(int8) - WER(f32) <= 0.15 absolute, PER
# delta <= 0.15, outputs identical on >= 99.2 % of words (greedy and beam search alike), and the
# int8 file at most 30 % of the float32 file's bytes. The bounds are what the shipped models
# measure (docs/INT8.md) with a margin.
# The float32 side: the folder EDGENMT_F32_OUTPUTS names, where f32_matches_reference.sh kept
# the float32 file's outputs on the same split and beam (a ctest fixture: the float32 decode of
# the whole split runs once, not once per int8 scheme), else `edgenmt eval --reference`, which
# decodes both files here.
# MIN_AGREEMENT (percent, default 99.2) lowers the agreement bound for a model whose contract
# says so (the int8-full Transformer: 98.5); MAX_PERCENT (default 30) raises the size bound
# for one (the width-96 Transformer's int8-full file: its int32 position tables).
# usage: int8_accuracy.sh CLI INT8_FILE F32_FILE DATA_TSV BEAM [LIMIT] [MIN_AGREEMENT] [MAX_PERCENT]
set -euo pipefail
cli=$1 model=$2 reference=$3 data=$4 beam=$5 limit=${6:-0} min_agreement=${7:-99.2}
max_percent=${8:-30}

args=(eval -m "$model" --data "$data" --beam "$beam")
if [ "$limit" != "0" ]; then args+=(--limit "$limit"); fi
saved=${EDGENMT_F32_OUTPUTS:-}
if [[ -z "$saved" ]]; then
  out=$("$cli" "${args[@]}" --reference "$reference")
else
  # The kept outputs must be this float32 file's on this split and beam, and complete (the
  # folder's `decode` file is written last).
  [[ "$limit" == "0" && -f "$saved/decode" &&
     $(cat "$saved/decode") == "$reference $data $beam" ]] || {
    echo "int8_accuracy: $saved holds no float32 outputs of $reference on $data, beam $beam" \
         "(its fixture test failed or did not run; LIMIT must be 0)" >&2
    exit 1
  }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  line=$("$cli" "${args[@]}" --outputs "$work/outputs.tsv" | tail -n 1)
  # eval --reference's lines, from the two outputs files: a word counts as identical when both
  # decoded it (a failure is written with score -inf) to the same output.
  out=$(printf 'reference: %s\n%s\n%s\n' "$(cat "$saved/eval")" "$(awk -F'\t' '
      NR == FNR { ref[FNR] = $2; ok[FNR] = ($3 != "-inf"); n = FNR; next }
      { if (ok[FNR]) { compared++; if ($3 != "-inf" && $2 == ref[FNR]) same++ } rows = FNR }
      END {
        if (rows != n) { print "agreement: " rows " outputs against " n; exit }
        printf "agreement=%.2f%% (%d/%d identical outputs)\n", compared ? 100 * same / compared : 0, same, compared
      }' "$saved/outputs.tsv" "$work/outputs.tsv")" "$line")
fi
echo "$out"
/usr/bin/python3 - "$out" "$model" "$reference" "$beam" "$min_agreement" "$max_percent" <<'PY'
import os, re, sys
out, model, reference, beam = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
min_agreement, max_ratio = float(sys.argv[5]), float(sys.argv[6]) / 100
def find(pattern):
    m = re.search(pattern, out, re.M)
    if not m:
        sys.exit(f"no match for {pattern!r} in the eval output")
    return m
ref = find(r"^reference: words=(\d+) WER=([0-9.]+) PER=([0-9.]+)")
got = find(r"^words=(\d+) WER=([0-9.]+) PER=([0-9.]+)\s*\Z")
agreement = float(find(r"^agreement=([0-9.]+)%")[1])
failures = []
wer_delta = float(got[2]) - float(ref[2])
per_delta = float(got[3]) - float(ref[3])
if wer_delta > 0.15 + 1e-9:
    failures.append(f"WER delta {wer_delta:+.2f} > 0.15")
if per_delta > 0.15 + 1e-9:
    failures.append(f"PER delta {per_delta:+.2f} > 0.15")
if agreement < min_agreement:
    failures.append(f"agreement {agreement:.2f} % < {min_agreement} % (beam {beam})")
ratio = os.path.getsize(model) / os.path.getsize(reference)
if ratio > max_ratio:
    failures.append(f"file is {100 * ratio:.1f} % of float32 (> {100 * max_ratio:g} %)")
print(f"WER delta {wer_delta:+.2f}, PER delta {per_delta:+.2f}, agreement {agreement:.2f} %, "
      f"size {100 * ratio:.1f} % of float32")
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
print("OK: within the int8 accuracy contract")
PY
