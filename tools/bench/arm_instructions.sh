#!/usr/bin/env bash
# Instructions per word of the ARM builds under QEMU (which gives no timings): the first WORDS
# distinct test words through the target CLI, per scheme and backend, counted by a TCG plugin
# (qemu_insn_count.c), minus the same command on no input (process start and model load).
#   tools/bench/arm_instructions.sh [WORDS]      (needs make build models test-arm)
# Rows: aarch64 reference / simd at the QEMU CPU's best level (neon-dotprod) / simd on a
# Cortex-A72 (no dot product: neon); armv7 reference / simd (neon).
set -euo pipefail
cd "$(dirname "$0")/../.."
words=${1:-200}
plugin=build/bench-qemu/libinsn.so
mkdir -p build/bench-qemu
cc -shared -fPIC -O2 -Wall -o "$plugin" tools/bench/qemu_insn_count.c
awk -F'\t' -v n="$words" '!seen[$1]++ { print $1; if (++c == n) exit }' data/g2p/test.tsv \
  > build/bench-qemu/words.txt
: > build/bench-qemu/empty.txt

count() {  # qemu, sysroot, cpu, cli, model, backend, input -> instructions
  local cpu_args=()
  [[ -n "$3" ]] && cpu_args=(-cpu "$3")
  "$1" -L "$2" "${cpu_args[@]}" -plugin "$plugin" -d plugin "$4" translate -m "$5" \
    --backend "$6" --beam 1 < "$7" 2>&1 >/dev/null | sed -n 's/^insns: //p'
}

printf '%-8s %-10s %-22s %16s\n' target scheme backend "instructions/word"
for target in aarch64 armv7; do
  if [[ $target == aarch64 ]]; then
    qemu=qemu-aarch64; sysroot=/usr/aarch64-linux-gnu
    runs=("reference|" "simd|" "simd|cortex-a72")
  else
    qemu=qemu-arm; sysroot=/usr/arm-linux-gnueabihf
    runs=("reference|" "simd|")
  fi
  cli=build/$target/edgenmt
  [[ -x $cli ]] || { echo "arm_instructions: $cli missing (make test-arm)" >&2; exit 2; }
  for scheme in f32 int8 int8-full; do
    model=build/models/g2p-en.$scheme.enmt
    for run in "${runs[@]}"; do
      backend=${run%%|*}; cpu=${run#*|}
      base=$(count $qemu $sysroot "$cpu" "$cli" "$model" "$backend" build/bench-qemu/empty.txt)
      total=$(count $qemu $sysroot "$cpu" "$cli" "$model" "$backend" build/bench-qemu/words.txt)
      label=$backend
      [[ $backend == simd ]] && label="simd (${cpu:-qemu max})"
      printf '%-8s %-10s %-22s %16d\n' "$target" "$scheme" "$label" $(( (total - base) / words ))
    done
  done
done
