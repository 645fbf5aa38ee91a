#!/bin/bash
# Issue 12 acceptance 2's set-up: 25 bootstrap folds at n = 1e6, p = 100, knots 20 on the GPU, binomial and gaussian,
# float, mstop 2 (so the job is the set-up), with the tree at .device/old (build-old) and this tree (build-gpu),
# alternating, REPS rounds; `bench fit` reports the one fit and the folds' set-up and iterations.
# Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
[ -x build-old/app/gamboost ] || (cmake -S .device/old -B build-old -G Ninja -DGB_BUILD_GUI=OFF -DGB_BUILD_TESTS=OFF \
   -DGB_VENDOR_INCLUDE=$PWD/.device/include > $R/cfg-old.log 2>&1 && cmake --build build-old -j16 --target gamboost \
   > $R/build-old.log 2>&1) || { tail -40 $R/*old.log; exit 1; }
for family in binomial gaussian; do
  for round in $(seq ${REPS:-2}); do
    for b in old gpu; do
      echo "== $family $b round $round"
      ./build-$b/app/gamboost bench fit --family $family --rows 1000000 --covariates 100 --knots 20 --mstop ${MSTOP:-2} \
        --bootstrap 25 --configs opencl:compact_x:float --out $R/folds-$family-$b-$round 2>&1 | grep -E "^1000000|rows +backend"
    done
  done
done
