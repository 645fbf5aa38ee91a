#!/bin/bash
# Issue 14 point 5 on the GPU machine: the GPU cached scheme with learner_correct_solve_select (one launch for the
# correction, solves and select) against GAMBOOST_FUSED_SELECT=0 (two launches), on bam-compare's data (paper data,
# seed 1, 1e5 training rows, p = 100, nu 1, mstop 2875, float, as h100-bam-gamboost.sh).
#   1. correctness: double fits with both, selections and risks compared (compare_fits.py), and the float ones;
#   2. timing: set-up + fit of each, alternating, three times; the per-kernel profile of each.
# Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
W=/tmp/fused; mkdir -p $W
$G generate --rows 200000 --covariates 100 --informative 20 --seed 1 --out $W/all.csv > /dev/null 2>&1
head -n 100001 $W/all.csv > $W/train.csv
M=${MSTOP:-2875}
fit() {  # fit FUSED PRECISION OUT [extra options]
  local f=$1 p=$2 o=$3; shift 3
  GAMBOOST_FUSED_SELECT=$f $G fit --data $W/train.csv --nu 1 --mstop $M --backend opencl --precision $p --quiet \
    --out $o "$@" 2>&1 | tail -3
}
echo "== correctness (double, then float)"
for p in double float; do
  fit 0 $p $W/u-$p.json; fit 1 $p $W/f-$p.json
  python3 "$(dirname "$0")/compare_fits.py" $W/u-$p.json $W/f-$p.json
  python3 -c "import json; print('schemes:', json.load(open('$W/u-$p.json'))['timing']['scheme'], '|', json.load(open('$W/f-$p.json'))['timing']['scheme'])"
done
echo "== timing (float, set-up + fit, alternating)"
for rep in 1 2 3; do
  for f in 0 1; do
    fit $f float $W/t.json
    python3 -c "import json; t = json.load(open('$W/t.json'))['timing']; print('fused=$f rep $rep: setup %.4f fit %.4f total %.4f s' % (t['setup_s'], t['fit_s'], t['setup_s'] + t['fit_s']))"
  done
done
echo "== profile (float)"
for f in 0 1; do
  echo "-- GAMBOOST_FUSED_SELECT=$f"
  GAMBOOST_FUSED_SELECT=$f $G fit --data $W/train.csv --nu 1 --mstop $M --backend opencl --precision float --profile \
    --out $W/p.json 2>&1 | grep -iE "learner_|update|fill|iteration|fit " | head -20
done
