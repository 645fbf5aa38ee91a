#!/bin/bash
# Folds that cannot be fitted on the GPU: a binomial response with one event among 20000 rows (the paper's data, the
# event at the row of the largest y), 25 bootstrap folds, so that about a third of the folds hold no event. Those
# folds are left out of the batch and of the mean (compute/DroppedFolds.hpp unfittableFold); the OpenCL runs (folds
# together) must drop the CPU's folds and agree on the others. Run from the repository root on the GPU machine with
# .device carried (scripts/pack-device-headers.sh), after a script that built build-gpu (or with REBUILD=1).
set -u
D=$(dirname "$0")
. "$D/prelude.sh"
L=$OUT/rare-events.txt
$G generate --rows 20000 --covariates 20 --informative 5 --seed 11 --out /tmp/rare-base.csv --quiet 2>/dev/null
top=$(tail -n +2 /tmp/rare-base.csv | cut -d, -f1 | sort -g | tail -1)
awk -F, -v top="$top" 'NR == 1 {print "bin," $0; next} {print ($1 == top ? 1 : 0) "," $0}' /tmp/rare-base.csv \
  > /tmp/rare.csv
echo "events: $(tail -n +2 /tmp/rare.csv | cut -d, -f1 | grep -c '^1$') of 20000 rows" | tee $L
covs=$(head -1 /tmp/rare-base.csv | tr , '\n' | grep '^x' | paste -sd,)
common=(cv --data /tmp/rare.csv --response bin --family binomial --spline "$covs" --knots 20 --mstop 200
  --bootstrap 25 --seed 3 --quiet)
$G "${common[@]}" --backend cpu --out /tmp/rare-cpu.json 2>&1 | tee -a $L
$G "${common[@]}" --backend opencl --precision double --out /tmp/rare-double.json 2>&1 | tee -a $L
$G "${common[@]}" --backend opencl --precision float --out /tmp/rare-float.json 2>&1 | tee -a $L
python3 -c "import json; print('dropped (cpu):', json.load(open('/tmp/rare-cpu.json'))['dropped'])" | tee -a $L
python3 "$D/cv-risk-diff.py" "binomial, 1 event, --bootstrap 25" /tmp/rare-cpu.json /tmp/rare-double.json \
  /tmp/rare-float.json | tee -a $L
