#!/bin/bash
# Issue 14 points 2a and 1 before and after the set-up change of 7fa310a/b59d64b (the model frame's missing-value pass
# also gives the learners their ranges; the Gram pass prefetches), one machine: builds the tree at .device/old (`git
# archive <commit> | tar -x -C .device/old`) into build-old and this tree into build-gpu, then alternates
#  - point 2a: `bench fit` at n = 1e7, p = 100, knots 60, mstop 1 (set-up), REPS rounds, and each build's --profile;
#  - point 1: the 1e6-row CSV (1.95 GB) to result.json (knots 60, mstop 1000, float) under /usr/bin/time, after a
#    warm-up each (page cache, program binaries).
# Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
(cmake -S .device/old -B build-old -G Ninja -DGB_BUILD_GUI=OFF -DGB_BUILD_TESTS=OFF -DGB_VENDOR_INCLUDE=$PWD/.device/include \
   > $R/cfg-old.log 2>&1 && cmake --build build-old -j16 --target gamboost > $R/build-old.log 2>&1) || { tail -40 $R/*old.log; exit 1; }
nvidia-smi --query-gpu=name --format=csv,noheader; nproc
F="bench fit --rows 10000000 --covariates 100 --knots 60 --mstop 1 --configs opencl:compact_x:float --reps 3"
for round in $(seq ${REPS:-2}); do
  for b in old gpu; do
    echo "2a $b round $round: $(./build-$b/app/gamboost $F --out $R/2a-$b-$round 2>&1 | grep -E '^10000000')"
  done
done
for b in old gpu; do
  echo "-- 2a $b --profile"
  ./build-$b/app/gamboost $F --reps 1 --profile --out $R/2a-$b-profile 2>&1 | grep -E "model frame|offset|learners|basis|lambda|backend|upload|program|copy"
done
# Point 1: the CSV before and after (that script builds nothing new: both builds are there).
REBUILD=0 bash "$(dirname "$0")/h100-csv-before-after.sh"
python3 -c "
import json; a = json.load(open('/tmp/r-old.json')); b = json.load(open('/tmp/r-gpu.json'))
print('same path:', a['path']['learner'] == b['path']['learner'], 'max |fitted diff|:', max(abs(x - y) for x, y in zip(a['fitted'], b['fitted'])))"
