#!/usr/bin/env bash
# The portable reference's outputs for the first N sources of a data split, greedy and beam 5,
# written into OUT_DIR (sources, model, beam1, beam5) for backends_agree.sh to compare against:
# once for every agreement test of a model (ctest fixture: tests/backend_agreement.cmake), since
# under QEMU the reference is the slowest decode of all, or by backends_agree.sh run on its own.
# usage: reference_outputs.sh CLI MODEL DATA_TSV N OUT_DIR [EMULATOR...]
set -euo pipefail
cli=$1 model=$2 data=$3 count=$4 out=$5
shift 5
[[ -f "$model" ]] || { echo "reference_outputs: $model is missing (make models)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
awk -F'\t' -v n="$count" 'NR <= n { print $1 }' "$data" > "$out/sources"
for beam in 1 5; do
  "$@" "$cli" translate -m "$model" --beam "$beam" --backend reference < "$out/sources" \
    > "$out/beam$beam.partial"
  lines=$(wc -l < "$out/beam$beam.partial")
  [[ $lines -eq $count ]] || {
    echo "reference_outputs: expected $count outputs for beam $beam, got $lines" >&2
    exit 1
  }
  mv "$out/beam$beam.partial" "$out/beam$beam"
done
# Written last: its presence says the outputs are complete, for this model file.
echo "$model" > "$out/model"
echo "reference_outputs: $count sources, greedy and beam 5, of $(basename "$model") in $out"
