#!/bin/bash
# Folds drawn over the rows the model uses (commit 36989dd) on the GPU: the paper's binomial data, n = 2e4, p = 20,
# with every 7th row's x2 and every 11th row's response set to NA (about 22% of the rows omitted), `gamboost cv` with
# 5-fold k-fold, 25 bootstrap samples and 8 subsamples, on OpenCL in double and float against the CPU backend (the
# risk matrix's relative norm difference, the chosen mstop), and --kfold at the used rows' count and one more on
# the first 200 rows.
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
L=$OUT/cv-omitted.txt
nvidia-smi --query-gpu=name --format=csv,noheader | tee $L
binomial_paper_csv /tmp/b.csv /tmp/s.csv
awk -F, 'BEGIN {OFS = ","} NR > 1 && (NR - 1) % 7 == 0 {$4 = "NA"} NR > 1 && (NR - 1) % 11 == 0 {$1 = "NA"} {print}' \
  /tmp/b.csv > /tmp/na.csv
X=$(head -1 /tmp/s.csv | cut -d, -f2-)
for folds in "--kfold 5" "--bootstrap 25" "--subsample 8"; do
  O="--data /tmp/na.csv --response bin --family binomial --spline $X --knots 20 $folds --mstop 300 --seed 5 --quiet"
  $G cv $O --backend cpu --out /tmp/cv-cpu.json
  for p in double float; do $G cv $O --backend opencl --precision $p --out /tmp/cv-$p.json; done
  python3 "$(dirname "$0")/cv-risk-diff.py" "binomial $folds, rows omitted" /tmp/cv-cpu.json /tmp/cv-double.json \
    /tmp/cv-float.json | tee -a $L
done
head -201 /tmp/na.csv > /tmp/na200.csv
USED=$($G fit --data /tmp/na200.csv --response bin --family binomial --spline x1 --knots 4 --mstop 1 --out /tmp/r.json \
  --quiet && python3 -c "import json; print(json.load(open('/tmp/r.json'))['rows_used'])")
echo "first 200 rows: $USED used" | tee -a $L
for k in $USED $((USED + 1)); do
  $G cv --data /tmp/na200.csv --response bin --family binomial --spline x1 --knots 4 --kfold $k --mstop 2 \
    --backend opencl --precision float --out /tmp/k.json --quiet 2>&1 | tee -a $L
  echo "--kfold $k: exit ${PIPESTATUS[0]}" | tee -a $L
done
