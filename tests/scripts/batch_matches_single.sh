#!/usr/bin/env bash
# `translate --batch N` / `--threads N` (issue 24) give byte for byte what one source at a time
# gives: the first N words of a data split with bad lines among them (too long, empty, invalid
# UTF-8, an unknown character), through the CLI with --batch 1 (the reference), --batch 32,
# --threads 2, --batch 7 --threads 2. stdout, stderr (the bad lines' errors and warnings, in
# input order) and the exit code (4: some lines failed) must be identical; at beam > 1 also
# --nbest 2 and the --alignments JSON. Then `eval --batch 32 --threads 2` against `eval`: the
# same scores (stdout) and the same --outputs file.
# usage: batch_matches_single.sh CLI MODEL DATA_TSV N BEAM
set -euo pipefail
cli=$1 model=$2 data=$3 count=$4 beam=$5
[[ -f "$model" ]] || { echo "batch_matches_single: $model is missing (make models)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
half=$((count / 2))
{
  awk -F'\t' -v n="$half" 'NR <= n { print $1 }' "$data"
  printf '%0300d\n' 0 | tr 0 a          # longer than the model's max_src_len
  echo ""                               # empty
  printf 'ab\xffcd\n'                   # invalid UTF-8
  echo "h€llo"                          # a character outside the source vocabulary
  awk -F'\t' -v n="$half" -v m="$count" 'NR > n && NR <= m { print $1 }' "$data"
} > "$work/sources"
lines=$(wc -l < "$work/sources")

flags=(--beam "$beam")
(( beam > 1 )) && flags+=(--nbest 2)
run() {  # run NAME EXTRA_FLAGS...: outputs in $work/NAME.{out,err,code,json}
  local name=$1
  shift
  local extra=()
  (( beam > 1 )) && extra=(--alignments "$work/$name.json")
  set +e
  "$cli" translate -m "$model" "${flags[@]}" "${extra[@]}" "$@" < "$work/sources" \
    > "$work/$name.out" 2> "$work/$name.err"
  echo $? > "$work/$name.code"
  set -e
}
run single --batch 1
[[ $(cat "$work/single.code") == 4 ]] || {
  echo "batch_matches_single: --batch 1 exited $(cat "$work/single.code"), expected 4 (bad lines)" >&2
  cat "$work/single.err" >&2
  exit 1
}
per_line=$(( beam > 1 ? 2 : 1 ))
[[ $(wc -l < "$work/single.out") -eq $((lines * per_line)) ]] || {
  echo "batch_matches_single: $(wc -l < "$work/single.out") output lines for $lines sources" >&2
  exit 1
}
grep -q "SourceTooLong" "$work/single.err" && grep -q "SourceEmpty" "$work/single.err" &&
  grep -q "SourceInvalidUtf8" "$work/single.err" || {
  echo "batch_matches_single: the bad lines were not reported:" >&2; cat "$work/single.err" >&2; exit 1; }
status=0
for variant in "batch32:--batch 32" "threads2:--threads 2" "batch7threads2:--batch 7 --threads 2"; do
  name=${variant%%:*}
  read -r -a extra <<< "${variant#*:}"
  run "$name" "${extra[@]}"
  for part in out err code $( (( beam > 1 )) && echo json); do
    if ! cmp -s "$work/single.$part" "$work/$name.$part"; then
      echo "batch_matches_single: ${extra[*]}: $part differs from --batch 1:" >&2
      diff "$work/single.$part" "$work/$name.$part" | head -n 20 >&2 || true
      status=1
    fi
  done
  (( status == 0 )) && echo "batch_matches_single: ${extra[*]}: identical to --batch 1 ($lines lines, beam $beam, $(basename "$model"))"
done

# eval: the same scores and per-word outputs batched and threaded.
"$cli" eval -m "$model" --data "$data" --limit "$count" --beam "$beam" \
  --outputs "$work/eval1.tsv" > "$work/eval1.out" 2> /dev/null
"$cli" eval -m "$model" --data "$data" --limit "$count" --beam "$beam" --batch 32 --threads 2 \
  --outputs "$work/eval2.tsv" > "$work/eval2.out" 2> /dev/null
for part in out tsv; do
  [[ $part == out ]] && a=$work/eval1.out b=$work/eval2.out || a=$work/eval1.tsv b=$work/eval2.tsv
  if ! cmp -s "$a" "$b"; then
    echo "batch_matches_single: eval --batch 32 --threads 2: $part differs:" >&2
    diff "$a" "$b" | head -n 20 >&2 || true
    status=1
  fi
done
(( status == 0 )) && echo "batch_matches_single: eval --batch 32 --threads 2: $(tail -n 1 "$work/eval1.out")"
exit $status
