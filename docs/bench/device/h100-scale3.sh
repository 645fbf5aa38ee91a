#!/bin/bash
# Issue 14 after the fused update and fill launches (2026-11-26, late): points 2a and 2c at n = 1e7 in memory (the
# binomial fit beside 1000 batched compact B'g of the same shape in the same run) and point 1 (the 1e6-row CSV to
# result.json under /usr/bin/time, three passes). Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
F="bench fit --rows 10000000 --covariates 100 --knots 60 --mstop 1000 --configs opencl:compact_x:float"
quiet() { grep -v "^\[\|bench fit:"; }
echo "== binomial 1e7 (best of 2), and the batched compact B'g of the same shape"
timeout 150 $G $F --family binomial --reps 2 --out $R/h100-scale3-binomial 2>&1 | quiet | tail -3
timeout 100 $G bench kernels --rows 10000000 --k 64 --covariates 100 --kernels compact_x --reps 20 \
  --out $R/h100-scale3-kernels 2>&1 | tail -5
echo "== CSV n = 1e6, p = 100 to result.json (knots 60, mstop 1000, float)"
$G generate --rows 1000000 --covariates 100 --seed 1 --out /tmp/big.csv > /dev/null 2>&1
ls -la /tmp/big.csv
for pass in 1 2 3; do
  /usr/bin/time -f "pass $pass: wall %e s, user %U s, sys %S s, max RSS %M KB" $G fit --data /tmp/big.csv --knots 60 \
    --mstop 1000 --backend opencl --precision float --quiet --out /tmp/r.json 2>&1 | tail -1
done
