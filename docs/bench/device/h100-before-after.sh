#!/bin/bash
# Issue 14 point 5 before and after, one machine: builds the tree at .device/old (put there by `git archive <commit> |
# tar -x -C .device/old`) into build-old and this tree into build-gpu, then times set-up + fit of the bam check's fit
# (paper data, seed 1, 1e5 training rows, p = 100, nu 1, mstop 2875, float) with each, alternating, REPS times, and
# prints each run's timing and scheme. Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
(cmake -S .device/old -B build-old -G Ninja -DGB_BUILD_GUI=OFF -DGB_BUILD_TESTS=OFF -DGB_VENDOR_INCLUDE=$PWD/.device/include \
   > $R/cfg-old.log 2>&1 && cmake --build build-old -j16 --target gamboost > $R/build-old.log 2>&1) || { tail -40 $R/*old.log; exit 1; }
W=/tmp/ba; mkdir -p $W
$G generate --rows 200000 --covariates 100 --informative 20 --seed 1 --out $W/all.csv > /dev/null 2>&1
head -n 100001 $W/all.csv > $W/train.csv
for rep in $(seq ${REPS:-5}); do
  for build in old gpu; do
    ./build-$build/app/gamboost fit --data $W/train.csv --nu 1 --mstop ${MSTOP:-2875} --backend opencl --precision float \
      --quiet --out $W/t.json > /dev/null 2>&1
    python3 -c "import json; t = json.load(open('$W/t.json'))['timing']; print('$build rep $rep: setup %.4f fit %.4f total %.4f s  (%s)' % (t['setup_s'], t['fit_s'], t['setup_s'] + t['fit_s'], t['scheme']))"
  done
done
echo "-- set-up profile, each build"
for build in old gpu; do
  echo "-- $build"
  ./build-$build/app/gamboost fit --data $W/train.csv --nu 1 --mstop ${MSTOP:-2875} --backend opencl --precision float \
    --profile --out $W/p.json 2>&1 | grep -E "model frame|learners|basis|lambda|backend|upload|program|iterations"
done
