#!/bin/bash
# Issue "Time to model at scale", after the staged upload, the warp-spread cross-product fill, the CPU set-up work
# and the chunked CSV reader: n = 1e7 in memory (Gaussian with --profile, the FILL_FIXED experiment, Binomial beside
# the batched compact B'g of the same shape) and the 1e6-row CSV to result.json under /usr/bin/time.
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
L=$OUT/h100-scale2-log.txt
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv | tee -a $L
F="bench fit --rows 10000000 --covariates 100 --knots 60 --mstop 1000 --configs opencl:compact_x:float"
quiet() { grep -v "^\[\|bench fit:"; }
echo "== gaussian 1e7 --profile" | tee -a $L
timeout 150 $G $F --profile --out $OUT/h100-scale2-fit-1e7 2>&1 | quiet | tail -28 | tee -a $L
echo "== gaussian 1e7, GAMBOOST_KERNEL_DEFINES=-DFILL_FIXED=1" | tee -a $L
GAMBOOST_KERNEL_DEFINES=-DFILL_FIXED=1 timeout 100 $G $F --profile --out $OUT/h100-scale2-fit-1e7-fixed 2>&1 | quiet \
  | grep -E "cross_fill|^10000000" | tee -a $L
echo "== binomial 1e7, and the batched compact B'g of the same shape in the same run" | tee -a $L
timeout 100 $G $F --family binomial --out $OUT/h100-scale2-fit-1e7-binomial 2>&1 | quiet | tail -3 | tee -a $L
timeout 100 $G bench kernels --rows 10000000 --k 64 --covariates 100 --kernels compact_x --reps 20 \
  --out $OUT/h100-scale2-kernels 2>&1 | tail -5 | tee -a $L
echo "== CSV n = 1e6, p = 100 to result.json (knots 60, mstop 1000, float)" | tee -a $L
$G generate --rows 1000000 --covariates 100 --seed 1 --out /tmp/big.csv > /dev/null 2>&1
ls -la /tmp/big.csv | tee -a $L
for pass in 1 2 3; do
  prof=""; [ $pass = 3 ] && prof=--profile
  /usr/bin/time -f "pass $pass: wall %e s, user %U s, sys %S s, max RSS %M KB" $G fit --data /tmp/big.csv --knots 60 \
    --mstop 1000 --backend opencl --precision float $prof --quiet --out /tmp/r.json 2>&1 | tail -32 | tee -a $L
done
