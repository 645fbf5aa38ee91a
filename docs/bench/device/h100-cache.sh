#!/bin/bash
# The cross-product cache on the GPU: build, fits on the H100 vs the CPU backend (cache on = the new GPU default,
# and GAMBOOST_OPENCL_REFRESH=0 = no cache), then the acceptance fit timings with and without the cache.
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
L=$OUT/h100-cache-log.txt
$G devices | tee -a $L
$G generate --rows 100000 --covariates 100 --seed 3 --out /tmp/check.csv 2>/dev/null
fit() { name=$1; shift; timeout 100 $G fit --data /tmp/check.csv --knots 60 --mstop 1000 --quiet --out /tmp/fit-$name.json "$@" 2>&1 | tail -2; }
fit cpu --backend cpu
fit opencl-double --backend opencl --precision double
fit opencl-float --backend opencl --precision float
GAMBOOST_OPENCL_REFRESH=0 fit opencl-float-nocache --backend opencl --precision float
for name in opencl-double opencl-float opencl-float-nocache; do
  python3 docs/bench/device/compare_fits.py /tmp/fit-cpu.json /tmp/fit-$name.json; done 2>&1 | tee -a $L
B="bench fit --covariates 100 --knots 60 --mstop 1000"
echo "== 1e5 cache" | tee -a $L
timeout 90 $G $B --rows 100000 --configs opencl:compact_x:float,opencl:compact:float,opencl:compact_sorted:float \
  --out $OUT/h100-cache-fit-1e5 2>&1 | tail -5 | tee -a $L
echo "== 1e5 no cache (GAMBOOST_OPENCL_REFRESH=0)" | tee -a $L
GAMBOOST_OPENCL_REFRESH=0 timeout 90 $G $B --rows 100000 \
  --configs opencl:compact_x:float,opencl:compact:float,opencl:compact_sorted:float \
  --out $OUT/h100-nocache-fit-1e5 2>&1 | tail -5 | tee -a $L
echo "== 1e7 cache" | tee -a $L
timeout 200 $G $B --rows 10000000 --configs opencl:compact_x:float --out $OUT/h100-cache-fit-1e7 2>&1 | tail -5 | tee -a $L
