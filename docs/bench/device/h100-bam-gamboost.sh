#!/bin/bash
# Issue 14 acceptance 5 on the GPU machine: the gamboost half of docs/bench/bam-compare.sh (the GPU machine has no R).
# The same data (paper data, seed 1, 1e5 training + 1e5 test rows, p = 100, split as bam-compare.sh splits it), fits
# with --nu 1 on the GPU (OpenCL, float) at rising mstop until the test MSE reaches bam's, BAM_MSE, measured by
# bam-compare.sh on the 2-core machine (docs/bench/bam-compare-2core-idle.txt: 0.00601338 in 12.773 s).
# Run from the repository root on the GPU machine with .device carried. FIT_OPTS adds fit options (e.g. "--edf 8");
# REPS=N fits the mstop that reached bam's MSE N more times (warm), to show the spread.
set -u
. "$(dirname "$0")/prelude.sh"
BAM_MSE=${BAM_MSE:-0.00601338}
W=/tmp/bamgpu; mkdir -p $W
$G generate --rows 200000 --covariates 100 --informative 20 --seed 1 --out $W/all.csv > /dev/null 2>&1
head -n 100001 $W/all.csv > $W/train.csv
{ head -n 1 $W/all.csv; tail -n +100002 $W/all.csv; } > $W/test.csv
printf '%-8s %-10s %-10s %s\n' mstop fit_s wall_s test_mse
for M in ${GRID:-1000 2000 2500 2750 2875 3000 3250 3500 4000 5000}; do
  start=$(date +%s%N)
  $G fit --data $W/train.csv --nu 1 --mstop $M --backend opencl --precision ${PRECISION:-float} --quiet ${FIT_OPTS:-} \
    --out $W/result.json --model $W/model.json 2>&1 | tail -2
  wall=$(python3 -c "print(($(date +%s%N) - $start) / 1e9)")
  fit=$(python3 -c "import json; t = json.load(open('$W/result.json'))['timing']; print(round(t['setup_s'] + t['fit_s'], 4))")
  $G predict --model $W/model.json --data $W/test.csv --out $W/pred.csv 2>/dev/null
  mse=$(paste -d, <(cut -d, -f1 $W/test.csv) $W/pred.csv | awk -F, 'NR > 1 {d = $1 - $2; s += d * d; n++} END {printf "%.6g", s / n}')
  printf '%-8s %-10s %-10.3f %s\n' $M $fit $wall $mse
  if awk -v a=$mse -v b=$BAM_MSE 'BEGIN {exit !(a <= b)}'; then echo "reached bam's $BAM_MSE at mstop $M: $fit s (set-up + fit)"; break; fi
done
for i in $(seq 1 ${REPS:-0}); do
  $G fit --data $W/train.csv --nu 1 --mstop $M --backend opencl --precision ${PRECISION:-float} --quiet ${FIT_OPTS:-} \
    --out $W/result.json 2>&1 | tail -2
  python3 -c "import json; t = json.load(open('$W/result.json'))['timing']; print('repeat mstop $M: set-up', round(t['setup_s'], 4), 'fit', round(t['fit_s'], 4), 'sum', round(t['setup_s'] + t['fit_s'], 4), '|', t['scheme'])"
done
