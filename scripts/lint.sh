#!/usr/bin/env bash
# make lint: the house rules that a tool can check (issue 60 §4).
#  - C and C++ sources formatted by .clang-format (clang-format 14, Debian's clang-format-14):
#    Google style at 100 columns. `scripts/lint.sh --fix` rewrites them in place.
#  - Internal runtime headers only under edgenmt/internal/ (runtime/internal/edgenmt/internal).
set -euo pipefail
cd "$(dirname "$0")/.."
fix=0
[[ ${1:-} == --fix ]] && fix=1
format=$(command -v clang-format-14 || command -v clang-format || true)
[[ -n "$format" ]] || { echo "lint: clang-format not found (make deps)" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.cc' '*.h' '*.c' ':!tests/fuzz/corpus')
if (( fix )); then
  "$format" -i --style=file "${files[@]}"
  echo "lint: formatted ${#files[@]} files"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$format" --style=file "$f" | cmp -s - "$f" || bad+=("$f")
done
if (( ${#bad[@]} )); then
  echo "lint: ${#bad[@]} file(s) not formatted as .clang-format says (scripts/lint.sh --fix):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  "$format" --style=file "${bad[0]}" | diff "${bad[0]}" - | head -n 20 >&2 || true
  exit 1
fi
stray=$(git ls-files 'runtime/internal/*.h' | grep -v '^runtime/internal/edgenmt/internal/' || true)
if [[ -n "$stray" ]]; then
  echo "lint: internal headers outside runtime/internal/edgenmt/internal/:" >&2
  echo "$stray" >&2
  exit 1
fi
echo "lint: ${#files[@]} C/C++ files formatted; internal headers under edgenmt/internal/"
