#!/bin/bash
. docs/bench/device/prelude.sh
# Issue 14 point 5: fused (learner_correct_solve_select) against GAMBOOST_FUSED_SELECT=0, alternating, then the bam check.
W=/tmp/fused
for rep in 1 2 3 4 5; do
  for f in 1 0; do
    GAMBOOST_FUSED_SELECT=$f $G fit --data $W/train.csv --nu 1 --mstop 2875 --backend opencl --precision float --quiet --out $W/t.json > /dev/null 2>&1
    python3 -c "import json; t = json.load(open('$W/t.json'))['timing']; print('fused=$f rep $rep: setup %.4f fit %.4f total %.4f s' % (t['setup_s'], t['fit_s'], t['setup_s'] + t['fit_s']))"
  done
done
GRID=2875 bash docs/bench/device/h100-bam-gamboost.sh 2>&1 | tail -3
