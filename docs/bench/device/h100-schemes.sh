#!/bin/bash
# After the OpenCL backend became iteration schemes over one DeviceProblem (issue "One engine shape"): on the GPU,
# (1) the OpenCL fit in double against the CPU backend (same selection path, fitted within 1e-9 relative) and in
# float (first 50 selections equal) on paper data, n = 2e4, p = 20, knots 20, mstop 500, with the scheme each chose;
# (2) the program cache across processes (h100-program-cache.sh's measurement).
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
L=$OUT/h100-schemes.txt
$G generate --rows 20000 --covariates 20 --informative 5 --seed 11 --out /tmp/s.csv --quiet 2>/dev/null
fit() { m=$1; shift; $G fit --data /tmp/s.csv --knots 20 --mstop $m --quiet "$@"; }
fit 500 --backend cpu --out /tmp/cpu.json
fit 100 --backend cpu --out /tmp/cpu100.json
fit 500 --backend opencl --precision double --out /tmp/d.json
fit 500 --backend opencl --precision float --out /tmp/f.json
fit 500 --backend opencl --precision double --kernel compact --out /tmp/dc.json
fit 100 --backend opencl --precision double --kernel splitk --out /tmp/ds.json
GAMBOOST_OPENCL_REFRESH=0 fit 500 --backend opencl --precision double --out /tmp/d0.json
python3 - <<'PY' | tee -a $L
import json
def compare(name, path, exact, reference='/tmp/cpu.json'):
    cpu = json.load(open(reference))
    r = json.load(open(path))
    a, b = r['path']['learner'], cpu['path']['learner'][:len(r['path']['learner'])]
    t = r['timing']
    if exact:
        fa, fb = r['fitted'], cpu['fitted']
        rel = max(abs(x - y) for x, y in zip(fa, fb)) / max(abs(y) for y in fb)
        print(f"{name:28s} scheme {t['scheme']:12s} path identical {a == b}  fitted max rel diff {rel:.2e}  fit {t['fit_s']:.3f} s")
    else:
        print(f"{name:28s} scheme {t['scheme']:12s} first 50 selections equal {a[:50] == b[:50]}  fit {t['fit_s']:.3f} s")
compare('double compact_x', '/tmp/d.json', True)
compare('double compact', '/tmp/dc.json', True)
compare('double splitk (mstop 100)', '/tmp/ds.json', True, '/tmp/cpu100.json')
compare('double refresh 0', '/tmp/d0.json', True)
compare('float compact_x', '/tmp/f.json', False)
PY
REBUILD=0
. "$(dirname "$0")/h100-program-cache.sh"
