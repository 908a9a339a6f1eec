#!/usr/bin/env bash
# Trains models/g2p-en-stress and models/g2p-en-stress-mcu (recipes.py "g2p-en-stress*"):
# data/g2p-stress must exist (converter/reference/prepare_g2p_stress.py); each model starts from
# its stressless parent widened to the stressed phonemes (stress_warm_start.py).
#   scripts/train-stress-models.sh [full|mcu|both]
set -euo pipefail
PY=/usr/bin/python3
REF=converter/reference
which=${1:-both}
if [[ $which == full || $which == both ]]; then
  $PY $REF/stress_warm_start.py --from models/g2p-en-transformer --out build/g2p-en-stress-init
  $PY $REF/train.py --recipe g2p-en-stress
fi
if [[ $which == mcu || $which == both ]]; then
  $PY $REF/stress_warm_start.py --from models/g2p-en-transformer-mcu --out build/g2p-en-stress-mcu-init
  $PY $REF/train.py --recipe g2p-en-stress-mcu
fi
