#!/bin/bash
# Seeded tails of a recipe, in parallel on one GPU, ranked by dev WER.
#
# A lent GPU runs a small Transformer's training launch-bound (0.05 s a batch, the chip mostly
# idle), so several runs side by side cost little more wall time than one. Each run is
#   train.py --recipe RECIPE --seed S --device cuda --workers 1 --skip-final-eval
# (plus the run's own flags below), bounded by --deadline-min so that all of them end before
# the lease does (train.py shortens a cosine that would end later). Afterwards every run's
# kept weights (its best validation or an average, train_final.py) are decoded greedily on dev
# and test, and the table is printed sorted by dev WER: dev chooses, test is only reported.
#
# Usage (from the repository root, on the GPU machine):
#   scripts/tail-sweep.sh OUTDIR TRAIN_MINUTES RUN...
# where each RUN is NAME:SEED[:extra train.py flags, comma-separated], e.g.
#   scripts/tail-sweep.sh /tmp/sweep 6.5 s101:101 s102:102 \
#       c201:201:--init-from=models/g2p-en-transformer,--first-epoch=113,--lr=1.5e-4
# RECIPE defaults to g2p-en-transformer-4x4-tail (environment variable RECIPE).
# Writes OUTDIR/NAME/ (weights, config, vocabularies, train_log.json, train.out) and
# OUTDIR/ranking.json; exit status 1 if the one-process smoke test fails.
set -u -o pipefail
out=${1:?OUTDIR}; minutes=${2:?TRAIN_MINUTES}; shift 2
recipe=${RECIPE:-g2p-en-transformer-4x4-tail}
py=${PYTHON:-python3}
device=${DEVICE:-cuda}        # DEVICE=cpu: a local dry run of this script
here=$(cd "$(dirname "$0")/.." && pwd)
data=${DATA:-$here/data/g2p}
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
mkdir -p "$out"

# CUDA MPS lets the runs' small kernels share the chip instead of taking turns; without it
# (the daemon absent or refused) they still run, time-sliced.
if [ "$device" = cuda ] && command -v nvidia-cuda-mps-control >/dev/null; then
    export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    nvidia-cuda-mps-control -d 2>/dev/null   # fails harmlessly when a daemon already runs
    if timeout 60 "$py" -c \
            'import torch; print("MPS: cuda ok", float(torch.ones(4, device="cuda").sum()))'; then
        echo "CUDA works with the MPS daemon's variables set (the runs share the chip if it runs)"
    else
        echo quit | timeout 10 nvidia-cuda-mps-control; echo "MPS off"
        unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
    fi
fi

# Fail fast: one process times a few batches before any run starts.
"$py" "$here/converter/reference/train.py" --recipe "$recipe" --device "$device" --workers 1 \
    --data "$data" --time-batches 20 || { echo "smoke test failed" >&2; exit 1; }

pids=()
for spec in "$@"; do
    IFS=: read -r name seed extra <<<"$spec"
    flags=()
    [ -n "${extra:-}" ] && IFS=, read -r -a flags <<<"$extra"
    mkdir -p "$out/$name"
    # The deadline ends training; the hard limit (90 s more) covers the end-of-run averaging.
    timeout "$(awk -v m="$minutes" 'BEGIN { print int(m * 60 + 90) }')" \
        "$py" "$here/converter/reference/train.py" --recipe "$recipe" --seed "$seed" \
        --device "$device" --workers 1 --data "$data" --skip-final-eval --deadline-min "$minutes" \
        --out "$out/$name" "${flags[@]}" >"$out/$name/train.out" 2>&1 &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done

"$py" - "$here" "$out" "$device" "$data" "$@" <<'EOF'
import json, os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "converter/reference"))
from checkpoint import load_checkpoint
from evaluate import evaluate
from g2p_metrics import read_tsv
from search import DecodeOptions

out, device, data, specs = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
opts = DecodeOptions(beam=1, nbest=1, max_len=64)
refs = {s: read_tsv(f"{data}/{s}.tsv") for s in ("dev", "test")}
rows = []
for spec in specs:
    name = spec.split(":")[0]
    d = os.path.join(out, name)
    if not os.path.exists(os.path.join(d, "model.safetensors")):
        rows.append({"name": name, "spec": spec, "error": "no weights written"})
        continue
    log = json.load(open(os.path.join(d, "train_log.json")))
    model, sv, tv = load_checkpoint(d)
    model.to(device).eval()
    row = {"name": name, "spec": spec, "kept": log.get("best"),
           "updates": log["evals"][-1]["update"] if log.get("evals") else 0,
           "complete": "best" in log}
    for split, r in refs.items():
        res = evaluate(model, sv, tv, r, opts)
        row[split] = {"wer": round(res["wer"], 2), "per": round(res["per"], 2)}
    rows.append(row)
rows.sort(key=lambda r: (("dev" not in r), r.get("dev", {}).get("wer", 1e9)))
json.dump(rows, open(os.path.join(out, "ranking.json"), "w"), indent=2)
print(f"{'run':8} {'updates':>7} {'dev WER':>8} {'test WER':>8}  kept")
for r in rows:
    if "dev" in r:
        print(f"{r['name']:8} {r['updates']:7} {r['dev']['wer']:8.2f} {r['test']['wer']:8.2f}  "
              f"{r['kept']}{'' if r['complete'] else ' (cut off)'}")
    else:
        print(f"{r['name']:8} {r['error']}")
EOF
