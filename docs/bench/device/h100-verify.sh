#!/bin/bash
# Re-check after the cross-product cache merge (CPU devices only; the GPU path must be unchanged): build, the
# kernels' own checks, fits on the H100 vs the CPU backend, and the fit timings of the acceptance shapes.
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
$G devices | tee $R/devices.txt
$G generate --rows 100000 --covariates 100 --seed 3 --out /tmp/check.csv 2>/dev/null
for cfg in "cpu cpu" "opencl-double opencl --precision double" "opencl-float opencl --precision float"; do
  set -- $cfg; name=$1; shift
  timeout 100 $G fit --data /tmp/check.csv --knots 60 --mstop 1000 --quiet --backend "$@" --out /tmp/fit-$name.json 2>&1 | tail -2
done
for name in opencl-double opencl-float; do python3 docs/bench/device/compare_fits.py /tmp/fit-cpu.json /tmp/fit-$name.json; done 2>&1 | tee $R/fit-compare.txt
timeout 200 $G bench fit --rows 100000 --covariates 100 --knots 60 --mstop 1000 \
  --configs opencl:compact:float,opencl:compact_sorted:float,opencl:compact_x:float --out $R/h100-verify-fit-1e5 2>&1 | tail -6
timeout 150 $G bench kernels --rows 1000,100000 --k 5,64 --covariates 100 --reps 10 --out $R/h100-verify-kernels 2>&1 | tail -3
tar czf $OUT/h100-verify.tgz -C $OUT r && rm -rf $R
