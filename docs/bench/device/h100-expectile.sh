#!/bin/bash
# Family expectile (mboost's ExpectReg) on the GPU: NVIDIA's compiler builds its kernels, and
# (1) fits (paper data, n = 2e4, p = 20, knots 20, mstop 300, tau 0.2) through OpenCL double and float against the CPU
#     backend: same selection path, fitted within 1e-9 relative in double;
# (2) gamboost cv with 10 bootstrap folds (the folds advance together on the GPU, kernels/fold_path.cl) against the
#     CPU's folds: the out-of-bag risk matrix normwise and the chosen mstop;
# (3) a fit's time at n = 1e6, p = 100, knots 20, mstop 1000 beside binomial's (same gradient path) in the same run.
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
L=$OUT/h100-expectile.txt
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee $L
$G generate --rows 20000 --covariates 20 --informative 5 --seed 11 --out /tmp/s.csv --quiet 2>/dev/null
fit() { $G fit --data /tmp/s.csv --family expectile --tau 0.2 --knots 20 --mstop 300 --quiet "$@"; }
fit --backend cpu --out /tmp/e-cpu.json
fit --backend opencl --precision double --out /tmp/e-d.json
fit --backend opencl --precision float --out /tmp/e-f.json
cv() { $G cv --data /tmp/s.csv --family expectile --tau 0.2 --knots 20 --mstop 300 --bootstrap 10 --seed 5 --quiet "$@"; }
cv --backend cpu --out /tmp/cv-cpu.json
cv --backend opencl --precision double --out /tmp/cv-d.json
python3 - <<'PY' | tee -a $L
import json, math
cpu = json.load(open('/tmp/e-cpu.json'))
for p in ['d', 'f']:
    r = json.load(open(f'/tmp/e-{p}.json'))
    a, b = r['path']['learner'], cpu['path']['learner']
    rel = max(abs(x - y) for x, y in zip(r['fitted'], cpu['fitted'])) / max(abs(y) for y in cpu['fitted'])
    same = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), len(a))
    print(f"expectile fit {r['timing']['precision']:6s} on {r['timing']['device']}: same path for {same}/{len(b)}, "
          f"fitted max rel {rel:.2e}, fit {r['timing']['fit_s']:.3f} s (cpu {cpu['timing']['fit_s']:.3f} s)")
c, d = json.load(open('/tmp/cv-cpu.json')), json.load(open('/tmp/cv-d.json'))
num = math.sqrt(sum((x - y) ** 2 for ra, rb in zip(d['risk'], c['risk']) for x, y in zip(ra, rb)))
den = math.sqrt(sum(y * y for rb in c['risk'] for y in rb))
print(f"expectile cv, 10 bootstrap folds, opencl double vs cpu: normwise {num / den:.2e}, mstop {d['mstop']} / "
      f"{c['mstop']}, folds together {d['timing'].get('folds_together')}, cv {d['timing']['cv_s']:.3f} s "
      f"(cpu {c['timing']['cv_s']:.3f} s)")
PY
for fam in expectile binomial; do
  $G bench fit --family $fam --rows 1000000 --covariates 100 --knots 20 --mstop 1000 \
    --configs opencl:compact_x:float --reps 2 --out $R/fit-$fam 2>/dev/null | tee -a $L
done
