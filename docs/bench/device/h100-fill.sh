#!/bin/bash
# Issue 14, 2b: the sorted cross-product fill (kernels/cross_sorted.cl) against the atomics fill
# (kernels/compact_cross.cl) on one build. First a check at n = 1e5 (fits of the same CSV on the CPU backend and on
# the GPU with each fill, in float and double: same selection path, risks and fitted values; result.json's
# timing.scheme names the fill that ran), then the Gaussian fit at n = 1e7, p = 100, knots 60, mstop 1000 with
# --profile for each fill (the profile lists every kernel's total time by name: compact_x_cross_fill for the atomics
# fill; cross_sort_count, cross_sort_scan, cross_sort_gather and cross_sorted_fill for the sorted one).
# About 3-4 minutes. Run from the repository root on the GPU machine with .device carried
# (scripts/pack-device-headers.sh).
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
L=$OUT/h100-fill-log.txt
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv | tee -a $L
echo "== check, n = 1e5, p = 100, knots 60, mstop 1000: each GPU fit against the CPU backend" | tee -a $L
$G generate --rows 100000 --covariates 100 --seed 3 --out /tmp/check.csv > /dev/null 2>&1
fit() {
  name=$1; shift
  timeout 100 $G fit --data /tmp/check.csv --knots 60 --mstop 1000 --quiet --out /tmp/fit-$name.json "$@" 2>&1 | tail -2
  python3 -c "import json; t = json.load(open('/tmp/fit-$name.json'))['timing']; print('$name:', t['scheme'], '|', t['tuning'])" \
    2>&1 | tee -a $L
}
fit cpu --backend cpu
fit sorted-float --backend opencl --precision float
fit sorted-double --backend opencl --precision double
GAMBOOST_CROSS_FILL=atomics fit atomics-float --backend opencl --precision float
for name in sorted-float sorted-double atomics-float; do
  python3 docs/bench/device/compare_fits.py /tmp/fit-cpu.json /tmp/fit-$name.json; done 2>&1 | tee -a $L
python3 docs/bench/device/compare_fits.py /tmp/fit-atomics-float.json /tmp/fit-sorted-float.json 2>&1 | tee -a $L
F="bench fit --rows 10000000 --covariates 100 --knots 60 --mstop 1000 --configs opencl:compact_x:float --reps 2 --profile"
quiet() { grep -v "^\[\|bench fit:"; }
for fill in sorted atomics; do
  echo "== gaussian 1e7, GAMBOOST_CROSS_FILL=$fill" | tee -a $L
  GAMBOOST_CROSS_FILL=$fill timeout 170 $G $F --out $OUT/h100-fill-1e7-$fill 2>&1 | quiet | tail -30 | tee -a $L
done
echo "== summary (fill kernels and the fit)" | tee -a $L
grep -E "cross_sort|cross_fill|sorted_fill|^10000000|scheme" $L | tail -14
