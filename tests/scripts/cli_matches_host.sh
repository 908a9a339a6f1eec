#!/usr/bin/env bash
# A cross-built CLI decodes like the host's: the first N sources of a data split, translated by
# the target's `edgenmt` under its emulator and by the host build's, with the same model file,
# must give byte-identical output (int8-full is integer-only, so identical on every target).
# usage: cli_matches_host.sh HOST_BUILD_DIR MODEL_NAME DATA_TSV N TARGET_CLI EMULATOR...
set -euo pipefail
host_build=$1 model_name=$2 data=$3 count=$4 target_cli=$5
shift 5
host_cli="$host_build/edgenmt"
model="$host_build/models/$model_name"
for f in "$host_cli" "$model"; do
  [[ -f "$f" ]] || { echo "cli_matches_host: $f is missing (build the host first: make build models)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -n "$count" "$data" | cut -f1 > "$work/sources"
"$host_cli" translate -m "$model" < "$work/sources" > "$work/host"
"$@" "$target_cli" translate -m "$model" < "$work/sources" > "$work/target"
if ! cmp -s "$work/host" "$work/target"; then
  echo "cli_matches_host: the target's output differs from the host's:" >&2
  diff "$work/host" "$work/target" | head -n 20 >&2
  exit 1
fi
echo "cli_matches_host: $(wc -l < "$work/target") outputs identical to the host's ($model_name)"
