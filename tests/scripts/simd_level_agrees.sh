#!/usr/bin/env bash
# One SIMD level end to end: the whole model through the simd backend forced to LEVEL
# (EDGENMT_FORCE_ISA) decodes like the portable reference (backends_agree.sh: greedy and
# beam 5, MIN_PERCENT identical). A level this CPU (or emulated CPU) lacks is reported and
# the test is skipped (exit 77, ctest's SKIP_RETURN_CODE), never passed silently.
# usage: simd_level_agrees.sh LEVEL CLI MODEL DATA_TSV N MIN_PERCENT [EMULATOR...]
set -euo pipefail
level=$1 cli=$2 model=$3 data=$4 count=$5 min_percent=$6
shift 6
here=$(dirname "$0")
export EDGENMT_FORCE_ISA=$level
if ! timing=$(echo hello | "$@" "$cli" translate -m "$model" --backend simd --timing 2>&1 >/dev/null); then
  echo "simd_level_agrees: SIMD level $level is not available on this CPU: not run (skipped)"
  exit 77
fi
if [[ $timing != *"simd ($level)"* ]]; then
  echo "simd_level_agrees: forced $level but the CLI reports: $timing" >&2
  exit 1
fi
exec "$here/backends_agree.sh" "$cli" "$model" "$data" "$count" simd "$min_percent" "$@"
