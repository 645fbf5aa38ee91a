#!/bin/bash
# Issue 14 points 5 and 2b on the GPU machine: the GPU cached scheme's update and atomics fill in one launch
# (compact_x_update_fill) and its update on g alone (mu = y - g when asked), against GAMBOOST_FUSED_FILL=0
# GAMBOOST_RESIDUAL_UPDATE=0 (the launches as before), with one build (so the set-up, the same code in both, is
# compared only across runs of one machine):
#   1. correctness on bam-compare's data (paper data, seed 1, 1e5 training rows, p = 100, nu 1, mstop 2875): double
#      fits of both and of the CPU backend compared (compare_fits.py), and the float ones;
#   2. timing: set-up + fit of each, alternating, five times; the per-kernel profile of each;
#   3. the bam check (h100-bam-gamboost.sh, GRID=2875), twice;
#   4. point 2b: `bench fit` at n = 1e7, p = 100, knots 60, mstop 1000 (the sorted fill: the residual update and the
#      staged solves only), three repetitions, then one with --profile.
# Run from the repository root on the GPU machine with .device carried.
set -u
. "$(dirname "$0")/prelude.sh"
W=/tmp/ff; mkdir -p $W
$G generate --rows 200000 --covariates 100 --informative 20 --seed 1 --out $W/all.csv > /dev/null 2>&1
head -n 100001 $W/all.csv > $W/train.csv
M=${MSTOP:-2875}
OLD="GAMBOOST_FUSED_FILL=0 GAMBOOST_RESIDUAL_UPDATE=0"
NEW="GAMBOOST_FUSED_FILL=1"
fit() {  # fit ENV BACKEND PRECISION OUT [extra options]
  local e=$1 b=$2 p=$3 o=$4; shift 4
  env $e $G fit --data $W/train.csv --nu 1 --mstop $M --backend $b --precision $p --quiet --out $o "$@" 2>&1 | tail -3
}
scheme() { python3 -c "import json; print(json.load(open('$1'))['timing']['scheme'])"; }
echo "== correctness (double, then float)"
fit "" cpu double $W/cpu-double.json
for p in double float; do
  fit "$OLD" opencl $p $W/old-$p.json; fit "$NEW" opencl $p $W/new-$p.json
  echo "schemes: $(scheme $W/old-$p.json) | $(scheme $W/new-$p.json)"
  python3 "$(dirname "$0")/compare_fits.py" $W/old-$p.json $W/new-$p.json
done
python3 "$(dirname "$0")/compare_fits.py" $W/cpu-double.json $W/new-double.json
echo "== timing (float, set-up + fit, alternating)"
for rep in 1 2 3 4 5; do
  for v in OLD NEW; do
    fit "${!v}" opencl float $W/t.json
    python3 -c "import json; t = json.load(open('$W/t.json'))['timing']; print('$v rep $rep: setup %.4f fit %.4f total %.4f s' % (t['setup_s'], t['fit_s'], t['setup_s'] + t['fit_s']))"
  done
done
echo "== profile (float)"
for v in OLD NEW; do
  echo "-- $v: ${!v}"
  env ${!v} $G fit --data $W/train.csv --nu 1 --mstop $M --backend opencl --precision float --profile \
    --out $W/p.json 2>&1 | grep -iE "learner_|update|fill|iteration|fit |model frame|learners|backend|upload|program|offset|lambda|basis" | head -24
done
echo "== bam check (GRID=2875, twice)"
for rep in 1 2; do GRID=2875 bash "$(dirname "$0")/h100-bam-gamboost.sh" | tail -2; done
echo "== 2b: n = 1e7, p = 100, knots 60, mstop 1000, float (without --profile, then with)"
for v in OLD NEW; do
  echo "-- $v: ${!v}"
  env ${!v} $G bench fit --rows 10000000 --covariates 100 --knots 60 --mstop 1000 --configs opencl:compact_x:float \
    --reps ${REPS:-3} --out $R/fused-fill-1e7-$v 2>&1 | grep -v "^\[\|bench fit:" | tail -4
done
for v in OLD NEW; do
  echo "-- $v, --profile: ${!v}"
  env ${!v} $G bench fit --rows 10000000 --covariates 100 --knots 60 --mstop 1000 --configs opencl:compact_x:float \
    --reps 1 --profile --out $R/fused-fill-1e7-profile-$v 2>&1 | grep -v "^\[\|bench fit:" | tail -17
done
