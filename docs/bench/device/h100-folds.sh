#!/bin/bash
# Issue "Choosing mstop honestly": every bootstrap fold advancing together on the GPU (opencl/FoldPath.hpp).
# (1) Correctness: `gamboost cv --bootstrap 25` of a binomial model (paper data made 0/1, n = 2e4, p = 20, knots 20,
#     mstop 300) through OpenCL double and float against the CPU backend: the out-of-bag risk matrix and mstop.
# (2) Speed: n = 1e6, p = 100, knots 20, mstop 1000, binomial and gaussian, float and double: one fit, then 25
#     bootstrap folds of the same model (bench fit --bootstrap 25), in the same run.
# (3) Kernel times (GAMBOOST_FOLD_PROFILE=1, mstop 200) beside the bytes each must move, and the copy bandwidth
#     measured in the same run (bench kernels).
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh), in two
# calls of at most 10 minutes: PART=1 (build, (1), copy bandwidth, binomial), then REBUILD=0 PART=2 (gaussian, (3)).
set -u
PART=${PART:-1}
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
L=$OUT/h100-folds-$PART.txt
if [ "$PART" = 1 ]; then
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee $L
$G generate --rows 20000 --covariates 20 --informative 5 --seed 11 --out /tmp/s.csv --quiet 2>/dev/null
python3 - <<'PY'
import csv
rows = list(csv.reader(open('/tmp/s.csv')))
h, data = rows[0], rows[1:]
y = sorted(float(r[0]) for r in data); med = y[len(y) // 2]
with open('/tmp/b.csv', 'w') as f:
    f.write(','.join(['bin'] + h[1:]) + '\n')
    for r in data:
        f.write(','.join([str(int(float(r[0]) > med))] + r[1:]) + '\n')
PY
cv() { $G cv --data /tmp/b.csv --response bin --family binomial --knots 20 --mstop 300 --bootstrap 25 --seed 5 --quiet "$@"; }
cv --backend cpu --out /tmp/cv-cpu.json
cv --backend opencl --precision double --out /tmp/cv-d.json
cv --backend opencl --precision float --out /tmp/cv-f.json
python3 - <<'PY' | tee -a $L
import json, math
cpu = json.load(open('/tmp/cv-cpu.json'))
def norm(m): return math.sqrt(sum(v * v for r in m for v in r))
for p in ['d', 'f']:
    r = json.load(open(f'/tmp/cv-{p}.json'))
    diff = norm([[a - b for a, b in zip(x, y)] for x, y in zip(r['risk'], cpu['risk'])]) / norm(cpu['risk'])
    t = r['timing']
    print(f"cv binomial 25 bootstrap {t['precision']:6s} folds together {t['folds_together']}: risk matrix rel. "
          f"norm diff {diff:.2e}, mstop {r['mstop']} (cpu {cpu['mstop']}), cv {t['cv_s']:.2f} s "
          f"(cpu backend, 16 cores: {cpu['timing']['cv_s']:.2f} s)")
PY
$G bench kernels --rows 1000000 --k 24 --covariates 100 --kernels compact_x --precision float --reps 10 \
  --out $R/kernels-float 2>&1 | tee -a $L
fi
[ "$PART" = 1 ] && families=binomial || families=gaussian
for fam in $families; do
  $G bench fit --family $fam --rows 1000000 --covariates 100 --knots 20 --mstop 1000 --bootstrap 25 \
    --configs opencl:compact_x:float,opencl:compact_x:double --out $R/folds-$fam 2>/dev/null | tee -a $L
done
[ "$PART" = 2 ] && for p in float double; do
  GAMBOOST_FOLD_PROFILE=1 $G bench fit --family binomial --rows 1000000 --covariates 100 --knots 20 --mstop 200 \
    --bootstrap 25 --configs opencl:compact_x:$p 2>&1 | grep -A5 "fold path profile" | tee -a $L
done
