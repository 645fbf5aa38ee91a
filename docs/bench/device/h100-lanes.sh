#!/bin/bash
# compact_x with lane-private columns (compact_x_partial_columns): the n = 1e7 B'g against the atomics kernel in the
# same run, the kernels' own checks on the small grid, fits against the CPU backend, and the whole-fit timings.
set -u
. "$(dirname "$0")/prelude.sh"
$G devices | tee $R/devices.txt
for variant in columns atomics; do
  [ $variant = atomics ] && export GAMBOOST_COMPACT_LANES=0
  timeout 200 $G bench kernels --rows 10000000 --k 64 --covariates 100 --reps 20 \
    --kernels compact_x --out $R/h100-$variant 2>&1 | grep -v "^bench kernels:" | tail -6
  unset GAMBOOST_COMPACT_LANES
done
timeout 120 $G bench kernels --rows 1000,100000 --k 5,16,64 --covariates 100 --reps 10 --kernels compact_x \
  --out $R/h100-lanes-grid 2>&1 | tail -3
$G generate --rows 100000 --covariates 100 --seed 3 --out /tmp/check.csv 2>/dev/null
for cfg in "cpu cpu" "opencl-double opencl --precision double" "opencl-float opencl --precision float"; do
  set -- $cfg; name=$1; shift
  timeout 100 $G fit --data /tmp/check.csv --knots 60 --mstop 1000 --quiet --backend "$@" --out /tmp/fit-$name.json 2>&1 | tail -2
done
for name in opencl-double opencl-float; do python3 docs/bench/device/compare_fits.py /tmp/fit-cpu.json /tmp/fit-$name.json; done 2>&1 | tee $R/h100-lanes-fit-compare.txt
timeout 100 $G bench fit --rows 100000 --covariates 100 --knots 60 --mstop 1000 \
  --configs opencl:compact_x:float,opencl:compact_x:double --out $R/h100-lanes-fit-1e5 2>&1 | tail -4
timeout 150 $G bench fit --rows 10000000 --covariates 100 --knots 60 --mstop 1000 --configs opencl:compact_x:float \
  --out $R/h100-lanes-fit-1e7 2>&1 | tail -4
tar czf $OUT/results.tgz -C $R . && rm -rf $R
