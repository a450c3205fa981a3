#!/usr/bin/env bash
# The one command a session with a lent GPU runs (issue 23 item 9; tests/data/gpu_measured/README.md says how and
# where the files go). At most 8 minutes (the two timeouts below); expected about 5, from the 11-30 s each step case
# took on the H200 (tests/data/gpu_measured/h200_batch*.json wall_seconds) and gpu_kernels.py --plan's estimate:
#   1. validation/gpu_kernels.py: GEMM / attention / bandwidth / host micro-benchmarks (no new group after 150 s,
#      killed at 210 s; the JSON is rewritten after every case, so a kill keeps what ran);
#   2. validation/gpu_measure.py --batch device-check: 12 training-step cases, 5 steps each, with per-phase CUDA-event
#      times (no new case after 200 s, each case at most 60 s, killed at 270 s; rewritten after every case).
# Everything goes to $OUT (5 files: kernels.json, kernels.log, steps.json, steps.log, nvidia-smi.txt).
#
#   validation/device_check.sh                                   # on the GPU machine
#   OUT=/tmp/dc PYTHON=/path/to/python validation/device_check.sh --dry-run   # any CPU with torch: code path only
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
DRY=()
if [ "${1:-}" = "--dry-run" ]; then DRY=(--dry-run); fi
OUT="${OUT:-$PWD/device_check_out}"
PY="${PYTHON:-python3}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1

smi() {  # read-only queries: the card's clocks, power and throttle reasons as found (never set anything)
  echo "== $1: $(date -u +%FT%TZ) kernel $(uname -r)"
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version,pstate,temperature.gpu,power.draw,power.limit,clocks.sm,clocks.mem,clocks.max.sm,memory.used,memory.total --format=csv
    nvidia-smi -q -d CLOCK,POWER,PERFORMANCE
  else
    echo "nvidia-smi not found"
  fi
}

smi before >"$OUT/nvidia-smi.txt" 2>&1
timeout 210 "$PY" -m validation.gpu_kernels "${DRY[@]}" --budget-s 150 --out "$OUT/kernels.json" 2>&1 | tee "$OUT/kernels.log"
kernels_rc=$?
smi "after kernels" >>"$OUT/nvidia-smi.txt" 2>&1
timeout 270 "$PY" -m validation.gpu_measure "${DRY[@]}" --batch device-check --steps 5 --budget-s 200 --timeout-s 60 \
  --out "$OUT/steps.json" 2>&1 | tee "$OUT/steps.log"
steps_rc=$?
smi "after steps" >>"$OUT/nvidia-smi.txt" 2>&1
ls -l "$OUT"
echo "gpu_kernels exit $kernels_rc, gpu_measure exit $steps_rc (124: stopped by its timeout; the JSON holds what ran)"
[ "$kernels_rc" = 0 ] && [ "$steps_rc" = 0 ]
