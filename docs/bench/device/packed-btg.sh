#!/bin/bash
# Issue 14 point 4 (compact B'g >= 85% of copy): the device's default (its tuning entry: packed on the H200), the
# packed B'g (kernels/compact_packed.cl, GAMBOOST_PACKED_BTG=1) and the lane-private columns kernel
# (GAMBOOST_PACKED_BTG=0) at n = 1e7, p = 100, k = 64, float, one `bench kernels` run each, in turn, ROUNDS times
# (each run checks its B'g against the double CPU reference and measures the copy bandwidth itself); with FITS=1
# then the Gaussian and Binomial fits of points 2b and 2c with each; with TUNE=1 `bench tune --dry-run` (REPS
# repetitions a candidate). Run from the repository root on the GPU machine with .device carried; works on an H100
# or an H200.
set -u
. "$(dirname "$0")/prelude.sh"
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,memory.total --format=csv,noheader
bk() {  # label, environment...
  local label=$1; shift
  echo "== $label $*"
  env "$@" timeout 150 $G bench kernels --rows 10000000 --k 64 --covariates 100 --reps ${REPS:-20} \
    --kernels compact_x --out "$R/$label" 2>&1 | grep -E "copy bandwidth|Btg|note|error|Error"
}
for round in $(seq ${ROUNDS:-2}); do
  bk default$round
  bk columns$round GAMBOOST_PACKED_BTG=0
  bk packed$round GAMBOOST_PACKED_BTG=1
done
if [ "${FITS:-0}" = 1 ]; then
  for family in gaussian binomial; do
    for v in 0 1; do
      echo "== fit $family GAMBOOST_PACKED_BTG=$v"
      GAMBOOST_PACKED_BTG=$v timeout 200 $G bench fit --family $family --rows 10000000 --covariates 100 --knots 60 \
        --mstop 1000 --configs opencl:compact_x:float --reps 2 --out $R/fit-$family-$v 2>&1 | grep -E "^10000000"
    done
  done
fi
if [ "${TUNE:-0}" = 1 ]; then
  echo "== bench tune --dry-run"
  timeout 400 $G bench tune --dry-run --reps ${REPS:-20} --out $R/tune.json 2>&1 | grep -vE "^\s*$" | tail -42
fi
for shape in ${SHAPES:-}; do  # GAMBOOST_PACK_SHAPE=W,L,S: warps, learners and slots of the packed kernel's groups
  bk packed-$shape GAMBOOST_PACKED_BTG=1 GAMBOOST_PACK_SHAPE=$shape
done
