#!/usr/bin/env bash
# The whole model through an optimized kernel backend decodes like the portable reference: the
# first N sources of a data split, greedy and beam 5, translated by the same CLI with
# --backend reference and --backend BACKEND. MIN_PERCENT of the outputs must be identical: 100
# for int8-full (integer kernels are bit-exact, so every output is), less for float32 and the
# hybrid scheme, whose vectorised sigmoid/tanh and float sums differ from libm and from the
# reference's summation order by rounding (tolerance in tests/kernels_simd_test.cc).
# The reference's outputs come from reference_outputs.sh: the folder EDGENMT_REFERENCE_OUTPUTS
# names (a ctest fixture wrote it once for every test of the model), else one written here.
# usage: backends_agree.sh CLI MODEL DATA_TSV N BACKEND MIN_PERCENT [EMULATOR...]
set -euo pipefail
cli=$1 model=$2 data=$3 count=$4 backend=$5 min_percent=$6
shift 6
[[ -f "$model" ]] || { echo "backends_agree: $model is missing (make models)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk -F'\t' -v n="$count" 'NR <= n { print $1 }' "$data" > "$work/sources"
saved=${EDGENMT_REFERENCE_OUTPUTS:-}
if [[ -z "$saved" ]]; then
  saved=$work/reference_outputs
  "$(dirname "$0")/reference_outputs.sh" "$cli" "$model" "$data" "$count" "$saved" "$@" > /dev/null
fi
# The outputs must be for this model and these sources, and complete (model is written last).
[[ -f "$saved/model" && $(cat "$saved/model") == "$model" ]] &&
  cmp -s "$saved/sources" "$work/sources" || {
  echo "backends_agree: $saved holds no reference outputs for $model and these $count sources" \
       "(its fixture test failed or did not run)" >&2
  exit 1
}
for beam in 1 5; do
  cp "$saved/beam$beam" "$work/reference"
  "$@" "$cli" translate -m "$model" --beam "$beam" --backend "$backend" < "$work/sources" > "$work/other"
  total=$(wc -l < "$work/reference")
  same=$(paste -d '\n' "$work/reference" "$work/other" | awk 'NR % 2 { a = $0; next } a == $0 { n++ } END { print n + 0 }')
  [[ $(wc -l < "$work/other") -eq $total && $total -eq $count ]] || {
    echo "backends_agree: expected $count outputs, got $total (reference) and $(wc -l < "$work/other") ($backend)" >&2
    exit 1
  }
  echo "backends_agree: $backend beam $beam: $same of $total outputs identical to the reference ($(basename "$model"))"
  if (( same * 100 < min_percent * total )); then
    echo "backends_agree: below $min_percent %:" >&2
    diff "$work/reference" "$work/other" | head -n 20 >&2
    exit 1
  fi
done
