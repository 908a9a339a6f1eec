#!/usr/bin/env bash
# Runs a Cortex-M firmware (targets/cortex-m-common/harness.cc) under qemu-system-arm with
# semihosting, decoding the first N sources of a data split, and checks that its output is
# byte-identical to the host CLI's with the same model file (int8-full is integer-only, so
# identical on every target). Prints the firmware's figures (arena, stack, instructions/word).
#   run_firmware.sh QEMU MACHINE CPU FIRMWARE HOST_CLI MODEL DATA_TSV N BEAM|default
# QEMU runs with -icount shift=0 (one instruction = 1 ns of virtual time), so the firmware's
# clock counts instructions. EDGENMT_QEMU_TIMEOUT (seconds, default 600) bounds the run.
set -euo pipefail
qemu=$1 machine=$2 cpu=$3 firmware=$4 host_cli=$5 model=$6 data=$7 count=$8 beam=$9
for f in "$host_cli" "$model" "$firmware" "$data"; do
  [[ -f "$f" ]] || { echo "run_firmware: $f is missing (make build models first)" >&2; exit 1; }
done
[[ -x "$qemu" ]] || { echo "run_firmware: qemu-system-arm not found (make deps)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -n "$count" "$data" | cut -f1 > "$work/sources"
beam_flag=() fw_beam=()
if [[ "$beam" != default ]]; then beam_flag=(--beam "$beam"); fw_beam=(",arg=$beam"); fi
"$host_cli" translate -m "$model" "${beam_flag[@]}" < "$work/sources" > "$work/host"

start=$(date +%s%N)
rc=0
timeout "${EDGENMT_QEMU_TIMEOUT:-600}" "$qemu" -M "$machine" -cpu "$cpu" -nographic \
  -monitor none -serial null -icount shift=0 \
  -semihosting-config "enable=on,target=native,arg=$(basename "$firmware"),arg=$work/sources,arg=$work/target${fw_beam[*]}" \
  -kernel "$firmware" < /dev/null > "$work/console" 2>&1 || rc=$?
seconds=$(( ($(date +%s%N) - start) / 1000000 ))
sed 's/^/  /' "$work/console"
if [[ $rc -ne 0 ]]; then
  echo "run_firmware: FAILED: $(basename "$firmware") on $machine exited with status $rc" \
       "(124: timed out)" >&2
  exit 1
fi
if ! cmp -s "$work/host" "$work/target"; then
  echo "run_firmware: FAILED: $(basename "$firmware") output differs from the host CLI's" \
       "(beam $beam):" >&2
  diff "$work/host" "$work/target" | head -n 20 >&2 || true
  exit 1
fi
echo "run_firmware: $(basename "$firmware") on $machine: $(wc -l < "$work/target") outputs" \
     "identical to the host CLI's (beam $beam), ${seconds} ms under QEMU"
