#!/bin/bash
# The families added after the gradient path (expectile, mboost's ExpectReg; adaexp, mboost's AdaExp) on the GPU:
# NVIDIA's compiler builds their kernels, and for each
# (1) fits (paper data, n = 2e4, p = 20, knots 20, mstop 300; expectile tau 0.2, adaexp on y above its median) through
#     OpenCL double and float against the CPU backend: same selection path, fitted within 1e-9 relative in double;
# (2) gamboost cv with 10 bootstrap folds (the folds advance together on the GPU, kernels/fold_path.cl) against the
#     CPU's folds: the out-of-bag risk matrix normwise and the chosen mstop;
# (3) a fit's time at n = 1e6, p = 100, knots 20, mstop 1000 beside binomial's (same gradient path) in the same run.
# gamma fits exp((y - median y) / (2 sd)) of the same data; negbin counts drawn at that mean with size 2 (a Poisson
# count whose rate is gamma-distributed, seed 3). A family may carry the binomial's link: binomial:probit (mboost's Binomial(link = "probit")).
# Usage (repository root, GPU machine, .device carried): bash docs/bench/device/h100-new-families.sh [family ...]
# LOG names the output file under $OUT (default h100-new-families.txt).
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
FAMILIES=${*:-expectile adaexp}
L=$OUT/${LOG:-h100-new-families.txt}
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee $L
$G generate --rows 20000 --covariates 20 --informative 5 --seed 11 --out /tmp/s.csv --quiet 2>/dev/null
python3 -c "
import csv
rows = list(csv.reader(open('/tmp/s.csv'))); y = sorted(float(r[0]) for r in rows[1:]); med = y[len(y) // 2]
with open('/tmp/b.csv', 'w') as f:
    f.write(','.join(['bin'] + rows[0]) + '\n')
    for r in rows[1:]: f.write(','.join([str(int(float(r[0]) > med))] + r) + '\n')
import math
with open('/tmp/g.csv', 'w') as f:
    f.write(','.join(['pos'] + rows[0]) + '\n')
    sd = math.sqrt(sum((v - med) ** 2 for v in y) / len(y))
    for r in rows[1:]: f.write(','.join([repr(math.exp(0.5 * (float(r[0]) - med) / sd))] + r) + '\n')
import random
random.seed(3)
def poisson(rate):
    k, p, limit = 0, 1.0, math.exp(-rate)
    while True:
        p *= random.random()
        if p <= limit: return k
        k += 1
with open('/tmp/n.csv', 'w') as f:
    f.write(','.join(['cnt'] + rows[0]) + '\n')
    for r in rows[1:]:
        mean = math.exp(0.5 * (float(r[0]) - med) / sd)
        f.write(','.join([str(poisson(random.gammavariate(2.0, mean / 2.0)))] + r) + '\n')"
for spec in $FAMILIES; do
  fam=${spec%%:*}
  link=logit
  [[ $spec == *:* ]] && link=${spec#*:}
  case $fam in
    expectile) args=(--data /tmp/s.csv --tau 0.2) ;;
    gamma) args=(--data /tmp/g.csv --response pos --spline $(head -1 /tmp/s.csv | cut -d, -f2- )) ;;
    negbin) args=(--data /tmp/n.csv --response cnt --spline $(head -1 /tmp/s.csv | cut -d, -f2- )) ;;
    *) args=(--data /tmp/b.csv --response bin --spline $(head -1 /tmp/s.csv | cut -d, -f2- )) ;;
  esac
  args+=(--link $link)
  fam=$fam-$link
  fit() { $G fit "${args[@]}" --family ${fam%-*} --knots 20 --mstop 300 --quiet "$@"; }
  fit --backend cpu --out /tmp/$fam-cpu.json
  fit --backend opencl --precision double --out /tmp/$fam-d.json
  fit --backend opencl --precision float --out /tmp/$fam-f.json
  cv() { $G cv "${args[@]}" --family ${fam%-*} --knots 20 --mstop 300 --bootstrap 10 --seed 5 --quiet "$@"; }
  cv --backend cpu --out /tmp/$fam-cv-cpu.json
  cv --backend opencl --precision double --out /tmp/$fam-cv-d.json
  FAM=$fam python3 - <<'PY' | tee -a $L
import json, math, os
fam = os.environ['FAM']
cpu = json.load(open(f'/tmp/{fam}-cpu.json'))
for p in ['d', 'f']:
    r = json.load(open(f'/tmp/{fam}-{p}.json'))
    a, b = r['path']['learner'], cpu['path']['learner']
    rel = max(abs(x - y) for x, y in zip(r['fitted'], cpu['fitted'])) / max(abs(y) for y in cpu['fitted'])
    same = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), len(a))
    print(f"{fam} fit {r['timing']['precision']:6s} on {r['timing']['device']}: same path for {same}/{len(b)}, "
          f"fitted max rel {rel:.2e}, fit {r['timing']['fit_s']:.3f} s (cpu {cpu['timing']['fit_s']:.3f} s)")
c, d = json.load(open(f'/tmp/{fam}-cv-cpu.json')), json.load(open(f'/tmp/{fam}-cv-d.json'))
num = math.sqrt(sum((x - y) ** 2 for ra, rb in zip(d['risk'], c['risk']) for x, y in zip(ra, rb)))
den = math.sqrt(sum(y * y for rb in c['risk'] for y in rb))
print(f"{fam} cv, 10 bootstrap folds, opencl double vs cpu: normwise {num / den:.2e}, mstop {d['mstop']} / "
      f"{c['mstop']}, folds together {d['timing'].get('folds_together')}, cv {d['timing']['cv_s']:.3f} s "
      f"(cpu {c['timing']['cv_s']:.3f} s)")
PY
done
for spec in $FAMILIES binomial; do
  fam=${spec%%:*}
  link=logit
  [[ $spec == *:* ]] && link=${spec#*:}
  $G bench fit --family $fam --link $link --rows 1000000 --covariates 100 --knots 20 --mstop 1000 \
    --configs opencl:compact_x:float --reps 2 --out $R/fit-$fam-$link 2>/dev/null | tee -a $L
done
