#!/bin/bash
# Fits on fewer rows than basis columns (5 to 31 rows, 24 columns at the default 20 knots; allowed since 2026-11-27)
# on NVIDIA's OpenCL against the CPU backend: fit, cv (k-fold and bootstrap, the batched fold kernels) and bands, in
# float and double. Prints the largest relative difference of each pair (compare_small.py below).
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
G=$(realpath $G)
cd $R
for n in 5 12 23 31; do
  $G generate --rows $n --covariates 3 --informative 2 --seed $n --out g$n.csv > /dev/null
  python3 -c "
import csv
rows = list(csv.reader(open('g$n.csv')))
ymed = sorted(float(r[0]) for r in rows[1:])[len(rows) // 2 - 1]
with open('b$n.csv', 'w') as f:
    f.write(','.join(rows[0]) + '\n')
    for r in rows[1:]: f.write(','.join(['1' if float(r[0]) > ymed else '0'] + r[1:]) + '\n')"
  for fam in gaussian binomial; do
    d=g$n.csv; [ $fam = binomial ] && d=b$n.csv
    common="--data $d --response y --family $fam --mstop 30 --nu 0.3 --quiet"
    $G fit $common --backend cpu --out cpu-fit-$fam-$n.json
    $G cv $common --backend cpu --kfold 3 --seed 2 --out cpu-cvk-$fam-$n.json
    $G cv $common --backend cpu --bootstrap 5 --seed 2 --out cpu-cvb-$fam-$n.json
    $G fit $common --backend cpu --bands 40 --seed 3 --out cpu-bands-$fam-$n.json
    for p in float double; do
      $G fit $common --backend opencl --precision $p --out ocl-$p-fit-$fam-$n.json
      $G cv $common --backend opencl --precision $p --kfold 3 --seed 2 --out ocl-$p-cvk-$fam-$n.json
      $G cv $common --backend opencl --precision $p --bootstrap 5 --seed 2 --out ocl-$p-cvb-$fam-$n.json
      $G fit $common --backend opencl --precision $p --bands 40 --seed 3 --out ocl-$p-bands-$fam-$n.json
    done
  done
done
python3 - <<'PY'
import json, glob, math
def rel(a, b):
    num = sum((x - y) ** 2 for x, y in zip(a, b)); den = sum(y * y for y in b)
    return math.sqrt(num / den) if den else math.sqrt(num)
def flat(j, kind):
    if kind == 'fit': return j['fitted']
    if kind in ('cvk', 'cvb'): return [v for row in j['risk'] for v in row]
    return [v for l in sorted(j['bands']['learners']) for key in ('lower95', 'upper95') for v in j['bands']['learners'][l][key]]
for f in sorted(glob.glob('ocl-*.json')):
    _, p, kind, fam, n = f[:-5].split('-')
    a, b = json.load(open(f)), json.load(open('cpu-%s-%s-%s.json' % (kind, fam, n)))
    extra = '' if kind not in ('cvk', 'cvb') else ' mstop %d/%d' % (a['mstop'], b['mstop'])
    print('%-6s %-5s %-8s n=%-3s max-rel %.2e%s' % (p, kind, fam, n, rel(flat(a, kind), flat(b, kind)), extra))
PY
