#!/usr/bin/env bash
# `edgenmt translate --profile` (stage table on stderr, stdout unchanged) on the float32 and
# int8-full files of the shipped model, and edgenmt-convert's int8-full calibration progress.
# usage: profile_and_progress_test.sh CLI CONVERT CHECKPOINT_DIR MODEL_F32 MODEL_INT8_FULL DEV_TSV
set -euo pipefail
cli=$1 convert=$2 checkpoint=$3 f32=$4 int8_full=$5 dev=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -n 30 "$dev" | cut -f1 > "$work/words.txt"
# No --backend: the default is the SIMD backend wherever the CPU has its baseline level (AVX2+FMA
# on x86-64, NEON on ARM), and the profile names it and its level.
if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo || grep -qwE 'asimd|neon' /proc/cpuinfo; then
  default="simd \((avx512-vnni|avx2-fma|neon-dotprod|neon)\)"
  kernel="(avx512-vnni|avx2-fma|neon-dotprod|neon)"
else
  default="reference \(portable\)" kernel=reference
fi

for model in "$f32" "$int8_full"; do
  "$cli" translate -m "$model" < "$work/words.txt" > "$work/plain.txt"
  "$cli" translate -m "$model" --profile < "$work/words.txt" > "$work/profiled.txt" 2> "$work/profile.txt"
  cat "$work/profile.txt"
  cmp "$work/plain.txt" "$work/profiled.txt" || { echo "--profile changed the translations" >&2; exit 1; }
  grep -Eq "profile of 30 line\(s\), beam 5, backend $default, arena [0-9]* bytes" "$work/profile.txt"
  grep -Eq "^  encoder +30 " "$work/profile.txt"          # one encoder pass per line
  grep -Eq "^  search \(beam bookkeeping\) +30 " "$work/profile.txt"
  grep -Eq "^  translate \(total\) +30 " "$work/profile.txt"
  grep -Eq "kernel operations: fully_connected_f32 $kernel" "$work/profile.txt"
  "$cli" translate -m "$model" --profile --backend reference < "$work/words.txt" > /dev/null 2> "$work/reference.txt"
  grep -q "backend reference (portable), " "$work/reference.txt" || { echo "--backend reference not in the profile" >&2; exit 1; }
  # Both schemes run the same layers (runtime/src/rnn/), so int8-full is split into stages too.
  for stage in "recurrent cell \\(decoder\\)" "attention" "output projection" \
               "decoder step, rest \\(embed, reorder\\)"; do
    grep -Eq "^  $stage +[1-9][0-9]* +[0-9.]+ " "$work/profile.txt" || { echo "no $stage row" >&2; exit 1; }
  done
  # Each stage is charged its own time only: the stages never add up to more than the
  # translation (a nested stage counted twice would make the remainder negative).
  awk '/^  other \(tokenize, detokenize\)/ { found = 1; if ($(NF-2) < -0.001) { print "stages exceed the total: " $0 > "/dev/stderr"; exit 1 } }
       END { if (!found) exit 1 }' "$work/profile.txt"
done

# Calibration progress: 450 sources, a line every 200 and one at the end.
head -n 450 "$dev" > "$work/calibration.tsv"
"$convert" --checkpoint "$checkpoint" --out "$work/m.enmt" --dtype int8-full \
           --calibration "$work/calibration.tsv" > /dev/null 2> "$work/progress.txt"
cat "$work/progress.txt"
diff <(grep -o "[0-9]*/450 sources ([0-9]*%)" "$work/progress.txt") - <<'EXPECTED' || { echo "progress lines differ" >&2; exit 1; }
200/450 sources (44%)
400/450 sources (88%)
450/450 sources (100%)
EXPECTED
echo "OK: --profile and calibration progress"
