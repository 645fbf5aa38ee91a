#!/bin/bash
# Final H100 batch, part A: build, correctness (fit opencl vs cpu), cuBLAS reference, kernel grid.
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee $R/gpu.txt
$G devices | tee $R/devices.txt
python3 docs/bench/device/cublas_ref.py 2>&1 | tee $R/cublas.txt
# Correctness on the same CSV: CPU (double) vs OpenCL double and float.
$G generate --rows 100000 --covariates 100 --seed 3 --out /tmp/check.csv 2>/dev/null
for cfg in "cpu cpu" "opencl-double opencl --precision double" "opencl-float opencl --precision float"; do
  set -- $cfg; name=$1; shift
  timeout 100 $G fit --data /tmp/check.csv --knots 60 --mstop 1000 --backend "$@" --out /tmp/fit-$name.json 2>&1 | tail -2
done
for name in opencl-double opencl-float; do python3 docs/bench/device/compare_fits.py /tmp/fit-cpu.json /tmp/fit-$name.json; done 2>&1 | tee $R/fit-compare.txt
# One double case (the float grid is part B).
timeout 120 $G bench kernels --rows 100000 --k 64 --covariates 100 --reps 50 --precision double --out $R/h100-double 2>&1 | grep -v "^bench kernels:" > $R/h100-double.txt
tail -3 $R/h100-double.txt
tar czf $OUT/h100-a.tgz -C $OUT r && rm -rf $R
