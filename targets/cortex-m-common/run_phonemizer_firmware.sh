#!/usr/bin/env bash
# Runs the Cortex-M phonemizer firmware (targets/cortex-m-common/phonemizer_harness.cc) under
# qemu-system-arm with semihosting on the text column of the sentence test set, and checks that
# its output is byte-identical to the host CLI's (`edgenmt phonemize -m FILE --format F`) with
# the same phonemizer file (an int8-full model: integer-only, so identical on every target).
# Prints the firmware's figures (file bytes, arena, stack, instructions per input word).
#   run_phonemizer_firmware.sh QEMU MACHINE CPU FIRMWARE HOST_CLI FILE SENTENCES_TSV FORMAT
# QEMU runs with -icount shift=0, so the firmware's clock counts instructions.
# EDGENMT_QEMU_TIMEOUT (seconds, default 600) bounds the run.
set -euo pipefail
qemu=$1 machine=$2 cpu=$3 firmware=$4 host_cli=$5 file=$6 sentences=$7 format=$8
for f in "$host_cli" "$file" "$firmware" "$sentences"; do
  [[ -f "$f" ]] || { echo "run_phonemizer_firmware: $f is missing (make build models first)" >&2; exit 1; }
done
[[ -x "$qemu" ]] || { echo "run_phonemizer_firmware: qemu-system-arm not found (make deps)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cut -f2 "$sentences" > "$work/text"
"$host_cli" phonemize -m "$file" --format "$format" < "$work/text" > "$work/host" 2> "$work/host.err"

rc=0
timeout "${EDGENMT_QEMU_TIMEOUT:-600}" "$qemu" -M "$machine" -cpu "$cpu" -nographic \
  -monitor none -serial null -icount shift=0 \
  -semihosting-config "enable=on,target=native,arg=$(basename "$firmware"),arg=$work/text,arg=$work/target,arg=$format" \
  -kernel "$firmware" < /dev/null > "$work/console" 2>&1 || rc=$?
grep -v ': warning: line ' "$work/console" | sed 's/^/  /'
if [[ $rc -ne 0 ]]; then
  echo "run_phonemizer_firmware: FAILED: $(basename "$firmware") on $machine exited with" \
       "status $rc (124: timed out)" >&2
  exit 1
fi
# The same warnings, in the same order, as the host's (the firmware prefixes the board name).
host_warnings=$(sed -n 's/^edgenmt phonemize: line \([0-9]*\): /\1 /p' "$work/host.err")
target_warnings=$(sed -n 's/^.*: warning: line \([0-9]*\): /\1 /p' "$work/console")
if [[ "$host_warnings" != "$target_warnings" ]]; then
  echo "run_phonemizer_firmware: FAILED: warnings differ from the host CLI's" >&2
  diff <(echo "$host_warnings") <(echo "$target_warnings") | head -n 20 >&2 || true
  exit 1
fi
if ! cmp -s "$work/host" "$work/target"; then
  echo "run_phonemizer_firmware: FAILED: $(basename "$firmware") output differs from the host" \
       "CLI's (--format $format):" >&2
  diff "$work/host" "$work/target" | head -n 20 >&2 || true
  exit 1
fi
echo "run_phonemizer_firmware: $(basename "$firmware") on $machine: $(wc -l < "$work/target")" \
     "lines identical to the host CLI's (--format $format)"
