#!/bin/bash
# Sequence-level knowledge distillation data (Kim and Rush 2016): a teacher checkpoint's beam
# output for every word of DATA/train.tsv, as a new training split beside DATA's dev and test.
#
# Usage (from the repository root, after `make build`):
#   scripts/seq-kd-data.sh TEACHER_DIR OUT_DIR [inter|kd|union]
# e.g. scripts/seq-kd-data.sh models/g2p-en-transformer build/g2p-seq-kd kd
#
# The teacher is converted to float32 (which decodes as the PyTorch reference does, word for
# word: ctest f32_matches_reference_*) and decodes the distinct training words with beam 5 and
# its 5-best, no length or coverage penalty, max length 64: about two minutes for 108 k words
# on two cores. converter/reference/seq_kd_targets.py then writes OUT_DIR/train.tsv (kd: the
# teacher's best hypothesis per word; inter: the hypothesis closest to each line's gold) and
# copies dev.tsv and test.tsv unchanged. DATA defaults to data/g2p; BUILD to build/host.
set -euo pipefail
teacher=${1:?TEACHER_DIR}; out=${2:?OUT_DIR}; mode=${3:-kd}
data=${DATA:-data/g2p}
build=${BUILD:-build/host}
py=${PYTHON:-/usr/bin/python3}
for tool in "$build/edgenmt" "$build/converter/edgenmt-convert"; do
  [[ -x $tool ]] || { echo "seq-kd-data.sh: $tool is missing (make build)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/converter/edgenmt-convert" --checkpoint "$teacher" --out "$work/teacher.f32.enmt" \
  --dtype float32 >/dev/null
cut -f1 "$data/train.tsv" | awk '!seen[$0]++' >"$work/words.txt"
"$build/edgenmt" translate -m "$work/teacher.f32.enmt" --beam 5 --nbest 5 --alpha 0 --beta 0 \
  --max-len 64 --threads "$(nproc)" <"$work/words.txt" >"$work/nbest.tsv"
"$py" converter/reference/seq_kd_targets.py --data "$data" --nbest "$work/nbest.tsv" \
  --out "$out" --mode "$mode"
