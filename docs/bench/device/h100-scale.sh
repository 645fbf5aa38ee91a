#!/bin/bash
# Issue "Time to model at scale" on the H100 (or H200: the same script): where a fit's time goes at n = 1e7
# (bench fit --profile: stages against the host copy bandwidth, every kernel's event time), the compact B'g's lane
# shapes searched by bench tune (written to $OUT/tuning-<gpu>.json, not the user's file), the fits again with that
# entry, and a CSV of n = 1e6 to result.json under /usr/bin/time.
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
GPU=${GPU:-h100}
L=$OUT/$GPU-scale-log.txt
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv | tee -a $L
$G devices | tee -a $L
F="bench fit --rows 10000000 --covariates 100 --knots 60 --mstop 1000 --configs opencl:compact_x:float --profile"
echo "== gaussian 1e7, default shape" | tee -a $L
timeout 200 $G $F --out $OUT/$GPU-scale-fit-1e7 2>&1 | grep -v "^\[" | tail -45 | tee -a $L
echo "== binomial 1e7, default shape" | tee -a $L
timeout 200 $G $F --family binomial --out $OUT/$GPU-scale-fit-1e7-binomial 2>&1 | grep -v "^\[" | tail -45 | tee -a $L
echo "== bench tune" | tee -a $L
timeout 240 $G bench tune --rows 10000000 --k 64 --covariates 100 --reps 10 --file $OUT/tuning-$GPU.json \
  --out $OUT/$GPU-tune.json 2>&1 | grep -v "^\[" | tail -45 | tee -a $L
if [ "${FITS_TUNED:-1}" = 1 ] && [ -f $OUT/tuning-$GPU.json ]; then
  echo "== gaussian 1e7, tuned shape" | tee -a $L
  GAMBOOST_TUNING_FILE=$OUT/tuning-$GPU.json timeout 200 $G ${F% --profile} --out $OUT/$GPU-scale-fit-1e7-tuned 2>&1 \
    | grep -v "^\[" | tail -6 | tee -a $L
fi
echo "== CSV n = 1e6, p = 100 to result.json (knots 60, mstop 1000, float)" | tee -a $L
$G generate --rows 1000000 --covariates 100 --seed 1 --out /tmp/big.csv 2>&1 | tail -1
ls -la /tmp/big.csv | tee -a $L
for pass in 1 2; do
  /usr/bin/time -f "wall %e s, user %U s, sys %S s, max RSS %M KB" $G fit --data /tmp/big.csv --knots 60 --mstop 1000 \
    --backend opencl --precision float --profile --quiet --out /tmp/r.json 2>&1 | tail -40 | tee -a $L
done
