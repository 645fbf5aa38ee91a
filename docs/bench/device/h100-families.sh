#!/bin/bash
# Issue "Real data, real models": the OpenCL gradient path on the GPU.
# (1) Correctness: binomial and poisson fits (paper data made 0/1 and counts, n = 2e4, p = 20, knots 20, mstop 300)
#     through OpenCL double against the CPU backend (same selection path, fitted within 1e-9 relative), float too.
# (2) Speed: binomial (and gaussian for reference) on the paper's design, n = 1e5 and 1e6, p = 100, knots 20,
#     mstop 1000, per iteration, beside the batched compact B'g (bench kernels, compact_x, k = 24, 100 learners)
#     measured in the same run, in float and double.
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
L=$OUT/h100-families.txt
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee $L
$G generate --rows 20000 --covariates 20 --informative 5 --seed 11 --out /tmp/s.csv --quiet 2>/dev/null
python3 - <<'PY'
import csv, math
rows = list(csv.reader(open('/tmp/s.csv')))
h, data = rows[0], rows[1:]
y = sorted(float(r[0]) for r in data); med = y[len(y) // 2]; mean = sum(y) / len(y)
with open('/tmp/b.csv', 'w') as f:
    f.write(','.join(['bin', 'cnt'] + h[1:]) + '\n')
    for r in data:
        v = float(r[0])
        f.write(','.join([str(int(v > med)), str(int(3 * math.exp(max(-5, min(5, v - mean)))))] + r[1:]) + '\n')
PY
for fam in binomial:bin poisson:cnt; do
  f=${fam%%:*}; resp=${fam##*:}
  fit() { $G fit --data /tmp/b.csv --response $resp --family $f --knots 20 --mstop 300 --quiet "$@"; }
  fit --backend cpu --out /tmp/$f-cpu.json
  fit --backend opencl --precision double --out /tmp/$f-d.json
  fit --backend opencl --precision float --out /tmp/$f-f.json
done
python3 - <<'PY' | tee -a $L
import json
for f in ['binomial', 'poisson']:
    cpu = json.load(open(f'/tmp/{f}-cpu.json'))
    for p in ['d', 'f']:
        r = json.load(open(f'/tmp/{f}-{p}.json'))
        a, b = r['path']['learner'], cpu['path']['learner']
        rel = max(abs(x - y) for x, y in zip(r['fitted'], cpu['fitted'])) / max(abs(y) for y in cpu['fitted'])
        rr = max(abs(x - y) for x, y in zip(r['path']['risk'], cpu['path']['risk'])) / max(cpu['path']['risk'])
        same = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), len(a))
        print(f"{f:9s} {r['timing']['precision']:6s} scheme {r['timing']['scheme']:9s} same path for {same}/{len(b)}"
              f"  fitted max rel {rel:.2e}  risk max rel {rr:.2e}  fit {r['timing']['fit_s']:.3f} s (cpu {cpu['timing']['fit_s']:.3f} s)")
PY
for p in float double; do
  $G bench kernels --rows 100000,1000000 --k 24 --covariates 100 --kernels compact_x --precision $p --reps 20 \
    --out $R/kernels-$p > $R/kernels-$p.txt 2>&1; cat $R/kernels-$p.txt | tee -a $L
done
for fam in binomial gaussian; do
  $G bench fit --family $fam --rows 100000,1000000 --covariates 100 --knots 20 --mstop 1000 \
    --configs opencl:compact_x:float,opencl:compact_x:double --out $R/fit-$fam 2>/dev/null | tee -a $L
done
