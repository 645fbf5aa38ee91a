#!/bin/bash
# Issue 14 point 5 before and after, one machine: builds the tree at .device/old (put there by `git archive <commit> |
# tar -x -C .device/old`) into build-old and this tree into build-gpu, then times set-up + fit of the bam check's fit
# (paper data, seed 1, 1e5 training rows, p = 100, nu 1, mstop 2875, float) with each, alternating, REPS times, and
# prints each run's timing and scheme; with SCALE=1 also point 2b's fit at n = 1e7 with each (and the copy of cached
# blocks turned off). Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
(cmake -S .device/old -B build-old -G Ninja -DGB_BUILD_GUI=OFF -DGB_BUILD_TESTS=OFF -DGB_VENDOR_INCLUDE=$PWD/.device/include \
   > $R/cfg-old.log 2>&1 && cmake --build build-old -j16 --target gamboost > $R/build-old.log 2>&1) || { tail -40 $R/*old.log; exit 1; }
W=/tmp/ba; mkdir -p $W
$G generate --rows 200000 --covariates 100 --informative 20 --seed 1 --out $W/all.csv > /dev/null 2>&1
head -n 100001 $W/all.csv > $W/train.csv
for rep in $(seq ${REPS:-5}); do
  for build in old gpu; do
    rm -f $W/t.json
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
if [ "${SCALE:-0}" = 1 ]; then
  echo "-- point 2b: n = 1e7, p = 100, knots 60, mstop 1000, float; the old build, this one with GAMBOOST_CACHE_COPY=0, this one"
  F="bench fit --rows 10000000 --covariates 100 --knots 60 --mstop 1000 --configs opencl:compact_x:float"
  for v in "old" "gpu GAMBOOST_CACHE_COPY=0" "gpu"; do
    set -- $v
    echo "-- $v"
    env ${2:-} ./build-$1/app/gamboost $F --reps 3 --out $R/ba-1e7-$1${2:+-copy0} 2>&1 | grep -E "^10000000"
  done
  echo "-- this build, --profile"
  $G $F --reps 1 --profile --out $R/ba-1e7-profile 2>&1 | grep -v "^\[\|bench fit:" | tail -26
fi
