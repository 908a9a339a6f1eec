#!/usr/bin/env bash
# Runs a Cortex-M firmware (targets/cortex-m-common/harness.cc) whose model this build must
# refuse, and checks that Translator::Init refused it cleanly: exit status 5 (the harness's
# kExitRuntime) and an error line matching PATTERN (grep -E), not a crash or a hang.
#   expect_init_refusal.sh QEMU MACHINE CPU FIRMWARE PATTERN
set -euo pipefail
qemu=$1 machine=$2 cpu=$3 firmware=$4 pattern=$5
[[ -f "$firmware" ]] || { echo "expect_init_refusal: $firmware is missing" >&2; exit 1; }
[[ -x "$qemu" ]] || { echo "expect_init_refusal: qemu-system-arm not found (make deps)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: > "$work/sources"
rc=0
timeout 120 "$qemu" -M "$machine" -cpu "$cpu" -nographic -monitor none -serial null \
  -semihosting-config "enable=on,target=native,arg=$(basename "$firmware"),arg=$work/sources,arg=$work/out" \
  -kernel "$firmware" < /dev/null > "$work/console" 2>&1 || rc=$?
sed 's/^/  /' "$work/console"
if [[ $rc -ne 5 ]]; then
  echo "expect_init_refusal: FAILED: $(basename "$firmware") exited with status $rc, not 5" >&2
  exit 1
fi
if ! grep -Eq -- "$pattern" "$work/console"; then
  echo "expect_init_refusal: FAILED: no line matches: $pattern" >&2
  exit 1
fi
echo "expect_init_refusal: $(basename "$firmware") refused its model at Init as expected"
