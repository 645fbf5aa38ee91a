#!/bin/bash
# The time budget on the GPU (issue 14, points 1 and 5): `fit --profile` of a CSV of n = 1e6, p = 100 (knots 60,
# mstop 1000, float) under /usr/bin/time, twice (the second run finds the program binaries cached), and
# `bench e2e` at n = 1e6 for the CPU backend and OpenCL.
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
set -u
. "$(dirname "$0")/prelude.sh"
L=$OUT/h100-profile-log.txt
$G devices | tee -a $L
nproc | tee -a $L
$G generate --rows 1000000 --covariates 100 --seed 3 --out /tmp/p1e6.csv 2>/dev/null
for run in 1 2; do
  echo "== fit --profile, run $run" | tee -a $L
  /usr/bin/time -f "wall %e s, max RSS %M KB" $G fit --data /tmp/p1e6.csv --knots 60 --mstop 1000 --backend opencl \
    --precision float --profile --quiet --out /tmp/r1e6.json 2>&1 | tee -a $L
done
cp /tmp/r1e6.json $OUT/h100-profile-result.json 2>/dev/null
python3 -c "import json; r = json.load(open('/tmp/r1e6.json')); print(json.dumps(r['profile'], indent=1))" \
  > $OUT/h100-profile.json
echo "== bench e2e 1e6" | tee -a $L
timeout 300 $G bench e2e --rows 1000000 --covariates 100 --knots 60 --mstop 1000 --configs cpu,opencl::float \
  --scratch-dir /tmp --out $OUT/h100-e2e-1e6 2>/dev/null | tee -a $L
