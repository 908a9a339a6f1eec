#!/bin/bash
# Ensemble distillation data (Freitag et al. 2017; Kim and Rush 2016's Seq-KD): the greedy output
# of an ensemble of checkpoints for every distinct word of DATA/train.tsv, as a new training
# split beside DATA's dev and test.
#
# Usage (from the repository root):
#   scripts/ensemble-kd-data.sh OUT_DIR MODEL_DIR[:WEIGHT] MODEL_DIR[:WEIGHT] ...
# e.g. (models/g2p-en-transformer's teacher; its README):
#   scripts/ensemble-kd-data.sh build/g2p-ens-kd \
#     models/g2p-en-transformer/run-4x4-tail:2 models/g2p-en:1
#
# converter/reference/ensemble.py decodes the words greedily with the members' probabilities
# mixed (weights normalised; RNN and Transformer members may be mixed, their vocabularies must
# be the same), about 6 minutes for 108 k words and two members on two cores;
# converter/reference/seq_kd_targets.py --mode kd then writes OUT_DIR/train.tsv (one line per
# distinct word, the ensemble's output as its target) and copies dev.tsv and test.tsv unchanged.
# DATA defaults to data/g2p.
set -euo pipefail
out=${1:?OUT_DIR}
shift
(( $# >= 1 )) || { echo "ensemble-kd-data.sh: name at least one MODEL_DIR[:WEIGHT]" >&2; exit 2; }
data=${DATA:-data/g2p}
py=${PYTHON:-/usr/bin/python3}
models=()
for m in "$@"; do models+=(--model "$m"); done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$py" converter/reference/ensemble.py "${models[@]}" --data "$data/train.tsv" \
  --out "$work/nbest.tsv" --threads "$(nproc)"
"$py" converter/reference/seq_kd_targets.py --data "$data" --nbest "$work/nbest.tsv" \
  --out "$out" --mode kd
