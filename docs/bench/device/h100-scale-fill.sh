#!/bin/bash
# Issue 14 point 2b, one machine: the Gaussian fit at n = 1e7, p = 100, knots 60, mstop 1000, float, in memory
# (`bench fit --reps 3`), with the tree at .device/old (built into build-old, as h100-before-after.sh does) and with
# this tree, plain and with each VARIANTS entry (environment settings); then one --profile run of this tree. First a
# check: this tree's sorted fill (forced) in double against the CPU backend at n = 1e5, knots 60, mstop 1000.
# Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
(cmake -S .device/old -B build-old -G Ninja -DGB_BUILD_GUI=OFF -DGB_BUILD_TESTS=OFF -DGB_VENDOR_INCLUDE=$PWD/.device/include \
   > $R/cfg-old.log 2>&1 && cmake --build build-old -j16 --target gamboost > $R/build-old.log 2>&1) || { tail -40 $R/*old.log; exit 1; }
W=/tmp/sf; mkdir -p $W
$G generate --rows 100000 --covariates 100 --seed 1 --out $W/p.csv > /dev/null 2>&1
$G fit --data $W/p.csv --knots 60 --mstop 1000 --backend cpu --quiet --out $W/cpu.json > /dev/null 2>&1
for p in double float; do
  GAMBOOST_CROSS_FILL=sorted $G fit --data $W/p.csv --knots 60 --mstop 1000 --backend opencl --precision $p --quiet \
    --out $W/sorted-$p.json > /dev/null 2>&1
  python3 "$(dirname "$0")/compare_fits.py" $W/cpu.json $W/sorted-$p.json
  python3 -c "import json; print('scheme:', json.load(open('$W/sorted-$p.json'))['timing']['scheme'])"
done
F="bench fit --rows 10000000 --covariates 100 --knots 60 --mstop 1000 --configs opencl:compact_x:float"
echo "-- old build"
./build-old/app/gamboost $F --reps 3 --out $R/sf-old 2>&1 | grep -E "^10000000"
echo "-- this build"
$G $F --reps 3 --out $R/sf-new 2>&1 | grep -E "^10000000"
for v in ${VARIANTS:-}; do
  echo "-- this build, $v"
  env $v $G $F --reps 3 --out $R/sf-variant 2>&1 | grep -E "^10000000"
done
echo "-- this build, --profile"
$G $F --reps 1 --profile --out $R/sf-profile 2>&1 | grep -v "^\[\|bench fit:" | tail -16
