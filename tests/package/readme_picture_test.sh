#!/usr/bin/env bash
# The attention picture of docs/USAGE.md (docs/alignment-translation.png) is what
# tools/plot_alignments.py draws for the shipped model today: regenerate it with the command
# docs/USAGE.md gives and compare pixels (not bytes: PNG metadata may differ). Also a second line and n-best rank of another
# file, so the script's options are exercised.
# usage: readme_picture_test.sh CLI MODEL_F32 REPO
set -euo pipefail
cli=$1 model=$2 repo=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'translation\n' | "$cli" translate -m "$model" --alignments "$work/a.json" > /dev/null
/usr/bin/python3 "$repo/tools/plot_alignments.py" "$work/a.json" --out "$work/readme.png" \
    --checkpoint "$repo/models/g2p-en"
printf 'translation\nedge\n' | "$cli" translate -m "$model" --nbest 2 --alignments "$work/b.json" > /dev/null
/usr/bin/python3 "$repo/tools/plot_alignments.py" "$work/b.json" --line 2 --hypothesis 1 \
    --out "$work/b.png" --checkpoint "$repo/models/g2p-en"
/usr/bin/python3 - "$work/readme.png" "$repo/docs/alignment-translation.png" "$work/b.png" <<'PY'
import sys
import matplotlib.image as image
fresh, committed, other = (image.imread(p) for p in sys.argv[1:4])
if fresh.shape != committed.shape:
    sys.exit(f"README picture differs in size: {fresh.shape} vs {committed.shape}; regenerate it "
             "with the command docs/USAGE.md gives")
difference = abs(fresh - committed).mean()
if difference > 1e-3:
    sys.exit(f"README picture differs (mean pixel difference {difference:.4f}); regenerate it")
if other.shape[0] < 100 or other.shape[1] < 100:
    sys.exit(f"second picture too small: {other.shape}")
print(f"OK: the README picture is the script's output (mean pixel difference {difference:.2g})")
PY
