#!/usr/bin/env bash
# Runs every libFuzzer target of a fuzz build tree for SECONDS each, all targets at once (one
# process per target), and fails if any of them finds a crash, a sanitizer report, a leak, a
# timeout or an out-of-memory. Used by `make fuzz` (FUZZ_SECONDS, default 600) and `make test`
# (60 s).
#   tests/fuzz/run_fuzzers.sh BUILD_DIR SECONDS
# New interesting inputs go to BUILD_DIR/fuzz-corpus/<target>/ (kept between runs, never in the
# source tree); findings to BUILD_DIR/fuzz-artifacts/. To keep a finding as a regression test,
# fix it and copy the input into tests/fuzz/corpus/{model_load,translate}/ (replayed by ctest).
set -euo pipefail

build_dir=${1:?usage: run_fuzzers.sh BUILD_DIR SECONDS}
seconds=${2:?usage: run_fuzzers.sh BUILD_DIR SECONDS}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fuzzers="$build_dir/fuzzers"
mkdir -p "$build_dir/fuzz-artifacts"

# target name, max input length, seed directories
declare -A max_len=([model_load_fuzzer]=24576 [translate_fuzzer]=512 [phonemize_text_fuzzer]=4096
                   [user_lexicon_fuzzer]=4096)
declare -A seeds=(
  [model_load_fuzzer]="$src/tests/fuzz/models $src/tests/data/models $src/tests/fuzz/corpus/model_load"
  [translate_fuzzer]="$src/tests/fuzz/corpus/translate"
  [phonemize_text_fuzzer]="$src/tests/fuzz/corpus/phonemize_text"
  [user_lexicon_fuzzer]="$src/tests/fuzz/corpus/user_lexicon"
)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

pids=()
targets=(model_load_fuzzer translate_fuzzer phonemize_text_fuzzer user_lexicon_fuzzer)
for target in "${targets[@]}"; do
  [[ -x "$fuzzers/$target" ]] || { echo "run_fuzzers: $fuzzers/$target is not built" >&2; exit 2; }
  corpus="$build_dir/fuzz-corpus/$target"
  mkdir -p "$corpus"
  # shellcheck disable=SC2086  # seed directories are separate arguments
  "$fuzzers/$target" -max_total_time="$seconds" -max_len="${max_len[$target]}" -timeout=30 \
      -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build_dir/fuzz-artifacts/$target-" \
      "$corpus" ${seeds[$target]} >"$build_dir/fuzz-$target.log" 2>&1 &
  pids+=($!)
done

failed=0
for i in "${!targets[@]}"; do
  target=${targets[$i]}
  log="$build_dir/fuzz-$target.log"
  if wait "${pids[$i]}"; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n1 || true)
    echo "fuzz: $target: ${runs:-?} runs in ${seconds} s (${speed:-?} exec/s, ${cov:-cov ?}), no finding"
  else
    failed=1
    echo "fuzz: $target FAILED (log: $log); last lines:" >&2
    tail -n 60 "$log" >&2
    ls "$build_dir"/fuzz-artifacts/"$target"-* 2>/dev/null | sed 's/^/fuzz: artifact: /' >&2 || true
  fi
done
exit "$failed"
