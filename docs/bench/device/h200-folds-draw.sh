#!/bin/bash
# Issue "Choosing mstop honestly", point 2, after the bootstrap drawing and the folds' Gram pass changed (e1e8284):
# the whole job of 25 bootstrap folds beside one fit of the same model, now with the drawing of the folds counted
# ("folds drawn", which no figure before counted), and the folds' set-up by stage (--profile, mstop 2).
# (1) Correctness: `gamboost cv` of binomial, 25 bootstrap folds, paper data n = 2e4, p = 20, mstop 300, on OpenCL
#     in float and double against the CPU backend (the risk matrix's relative norm difference, the chosen mstop).
# (2) bench fit --bootstrap 25, n = 1e6, p = 100, knots 20, mstop 1000, float, binomial and gaussian.
# (3) The folds' set-up by stage: bench fit --profile, binomial float, mstop 2.
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
L=$OUT/folds-draw.txt
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee $L
binomial_paper_csv /tmp/b.csv /tmp/s.csv
X=$(head -1 /tmp/s.csv | cut -d, -f2-)
O="--data /tmp/b.csv --response bin --family binomial --spline $X --knots 20 --bootstrap 25 --mstop 300 --seed 5 --quiet"
$G cv $O --backend cpu --out /tmp/cv-cpu.json
for p in double float; do $G cv $O --backend opencl --precision $p --out /tmp/cv-$p.json; done
python3 "$(dirname "$0")/cv-risk-diff.py" "binomial 25 bootstrap" /tmp/cv-cpu.json /tmp/cv-double.json /tmp/cv-float.json |
  tee -a $L
for fam in binomial gaussian; do
  for run in 1 2; do
    echo "== $fam float, run $run" | tee -a $L
    $G bench fit --family $fam --rows 1000000 --covariates 100 --knots 20 --mstop 1000 --bootstrap 25 \
      --configs opencl:compact_x:float --out $R/folds-$fam-$run 2>/dev/null | tee -a $L
  done
done
echo "== profile, binomial float, mstop 2" | tee -a $L
$G bench fit --family binomial --rows 1000000 --covariates 100 --knots 20 --mstop 2 --bootstrap 25 \
  --configs opencl:compact_x:float --profile 2>&1 | grep -v "^bench fit" | sed -n '/bootstrap folds of/,/device kernels/p' |
  tee -a $L
