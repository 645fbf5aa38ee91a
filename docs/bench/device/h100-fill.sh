#!/bin/bash
# Issue 14, 2b: the sorted cross-product fill (kernels/cross_sorted.cl) against the atomics fill
# (kernels/compact_cross.cl) on one build. First a check at n = 1e5 (fits of the same CSV on the CPU backend and on
# the GPU with each fill, in float and double: same selection path, risks and fitted values; result.json's
# timing.scheme names the fill that ran), then the Gaussian fit at n = 1e7, p = 100, knots 60, mstop 1000 with
# --profile for each fill (the profile lists every kernel's total time by name: compact_x_cross_fill for the atomics
# fill; cross_sort_count, cross_sort_scan, cross_sort_gather and cross_sorted_fill for the sorted one).
# Last, the sorted fill with 16 positions per lane and block (STRIP_ROWS). About 4 minutes. Run from the repository root on the GPU machine with .device carried
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
# The verdict, with the tests' tolerances: double the whole path and fitted values within 1e-9 normwise; float the
# first 50 selections and the risks within 1e-4 relative.
python3 - <<'PY' 2>&1 | tee -a $L
import json, math
cpu = json.load(open("/tmp/fit-cpu.json"))
for name, double in (("sorted-double", True), ("sorted-float", False), ("atomics-float", False)):
    r = json.load(open(f"/tmp/fit-{name}.json"))
    a, b = r["path"]["learner"], cpu["path"]["learner"]
    same = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), len(b))
    risk = max(abs(x - y) / y for x, y in zip(r["path"]["risk"], cpu["path"]["risk"]))
    fa, fb = r["fitted"], cpu["fitted"]
    fit = math.sqrt(sum((x - y) ** 2 for x, y in zip(fa, fb)) / sum(y * y for y in fb))
    ok = same == len(b) and fit <= 1e-9 if double else same >= 50 and risk <= 1e-4
    print(f"{name}: {'CHECK OK' if ok else 'CHECK FAILED'} (same path for {same} of {len(b)}, risk {risk:.2e}, fitted {fit:.2e})")
PY
F="bench fit --rows 10000000 --covariates 100 --knots 60 --mstop 1000 --configs opencl:compact_x:float --reps 2 --profile"
quiet() { grep -v "^\[\|bench fit:"; }
for fill in sorted atomics; do
  echo "== gaussian 1e7, GAMBOOST_CROSS_FILL=$fill" | tee -a $L
  GAMBOOST_CROSS_FILL=$fill timeout 170 $G $F --out $OUT/h100-fill-1e7-$fill 2>&1 | quiet | tail -30 | tee -a $L
done
# More loads in flight per lane in cross_sorted_fill (16 positions a block instead of 8; 32 more registers).
echo "== gaussian 1e7, sorted, GAMBOOST_KERNEL_DEFINES=-DSTRIP_ROWS=16 (one rep)" | tee -a $L
GAMBOOST_KERNEL_DEFINES=-DSTRIP_ROWS=16 timeout 120 $G ${F/--reps 2/--reps 1} --out $OUT/h100-fill-1e7-rows16 2>&1 | quiet \
  | grep -E "cross_sort|sorted_fill|^10000000" | tee -a $L
echo "== summary (fill kernels and the fit)" | tee -a $L
grep -E "^== gauss|cross_sort|cross_fill|sorted_fill|^10000000" $L | tail -20
