#!/bin/bash
# Issue 14 point 1 before and after, one machine: the 1e6-row CSV (p = 100, 1.95 GB) to result.json (knots 60,
# mstop 1000, float) under /usr/bin/time, with the tree at .device/old (build-old) and this tree (build-gpu),
# alternating, after one warm-up pass each (page cache, program binaries); then the --profile stages of each.
# Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
(cmake -S .device/old -B build-old -G Ninja -DGB_BUILD_GUI=OFF -DGB_BUILD_TESTS=OFF -DGB_VENDOR_INCLUDE=$PWD/.device/include \
   > $R/cfg-old.log 2>&1 && cmake --build build-old -j16 --target gamboost > $R/build-old.log 2>&1) || { tail -40 $R/*old.log; exit 1; }
$G generate --rows 1000000 --covariates 100 --seed 1 --out /tmp/big.csv > /dev/null 2>&1
fit() { ./build-$1/app/gamboost fit --data /tmp/big.csv --knots 60 --mstop 1000 --backend opencl --precision float \
  --quiet --out /tmp/r-$1.json "${@:2}"; }
for b in old gpu; do fit $b > /dev/null 2>&1; done
for pass in 1 2 3; do
  for b in old gpu; do
    /usr/bin/time -f "$b pass $pass: wall %e s, user %U s, max RSS %M KB" bash -c "$(declare -f fit); fit $b" 2>&1 | tail -1
  done
done
for b in old gpu; do
  echo "-- $b --profile"
  fit $b --profile 2>&1 | grep -E "read|parse|model frame|learners|basis|lambda|backend|upload|program|iterations|download|result"
done
