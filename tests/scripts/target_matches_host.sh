#!/usr/bin/env bash
# A cross-built CLI decodes like the host's: the first N distinct words of a data split, greedy
# and beam 5, through `edgenmt eval --outputs` (word, output, score) on the target under its
# emulator and on the host, same model file, each on its default backend. The integer scheme
# (MIN_PERCENT 100, SCORE_TOL 0) must give byte-identical files, scores included; a float scheme
# gives at least MIN_PERCENT identical outputs, and those have scores within SCORE_TOL nats
# (the targets' vector float kernels round sums and activations differently from the host's).
# usage: target_matches_host.sh HOST_CLI MODEL DATA_TSV N MIN_PERCENT SCORE_TOL TARGET_CLI EMULATOR...
set -euo pipefail
host_cli=$1 model=$2 data=$3 count=$4 min_percent=$5 score_tol=$6 target_cli=$7
shift 7
for f in "$host_cli" "$model" "$data"; do
  [[ -f "$f" ]] || { echo "target_matches_host: $f is missing (make build models)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for beam in 1 5; do
  "$host_cli" eval -m "$model" --data "$data" --limit "$count" --beam "$beam" \
    --outputs "$work/host" > /dev/null
  "$@" "$target_cli" eval -m "$model" --data "$data" --limit "$count" --beam "$beam" \
    --outputs "$work/target" > /dev/null
  total=$(wc -l < "$work/host")
  [[ $total -eq $count && $(wc -l < "$work/target") -eq $count ]] || {
    echo "target_matches_host: expected $count outputs, got $total (host), $(wc -l < "$work/target") (target)" >&2
    exit 1
  }
  read -r same worst < <(paste "$work/host" "$work/target" | awk -F'\t' '
    $1 != $4 { print "word order differs: " $1 " / " $4 > "/dev/stderr"; exit 2 }
    $2 == $5 { n++; d = $3 - $6; if (d < 0) d = -d; if (d > m) m = d }
    END { printf "%d %.6g\n", n, m + 0 }')
  echo "target_matches_host: beam $beam: $same of $total outputs identical to the host's," \
       "their scores within $worst nats ($(basename "$model"))"
  if awk -v s="$same" -v n="$total" -v p="$min_percent" -v w="$worst" -v t="$score_tol" \
       'BEGIN { exit !(s * 100 < p * n || w > t) }'; then
    echo "target_matches_host: below $min_percent % identical or scores apart by more than $score_tol:" >&2
    diff "$work/host" "$work/target" | head -n 20 >&2
    exit 1
  fi
  if [[ $min_percent == 100 && $score_tol == 0 ]] && ! cmp -s "$work/host" "$work/target"; then
    echo "target_matches_host: the files differ:" >&2
    diff "$work/host" "$work/target" | head -n 20 >&2
    exit 1
  fi
done
