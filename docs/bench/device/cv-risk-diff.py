#!/usr/bin/env python3
"""Compares cv.json files with the CPU backend's (device scripts): per run, the relative norm difference of the
out-of-bag risk matrix, the chosen mstop against the CPU's, and the timings.
Usage: python3 cv-risk-diff.py LABEL CPU.json RUN.json [RUN.json ...]"""
import json
import math
import sys


def norm(m):
    return math.sqrt(sum(v * v for row in m for v in row))


label, cpu = sys.argv[1], json.load(open(sys.argv[2]))
for path in sys.argv[3:]:
    r = json.load(open(path))
    # A fold left out for having no fit at all (a binomial fold of one class) has a row of null, as R's NA.
    kept = [(x, y) for x, y in zip(r['risk'], cpu['risk']) if None not in x and None not in y]
    diff = norm([[a - b for a, b in zip(x, y)] for x, y in kept]) / norm([y for _, y in kept])
    if r.get('dropped') != cpu.get('dropped'):
        print(f"{label}: dropped folds {r.get('dropped')} differ from the cpu's {cpu.get('dropped')}")
    t = r['timing']
    print(f"{label} {t['precision']}: folds together {t['folds_together']}, risk matrix rel. norm diff {diff:.2e}, "
          f"mstop {r['mstop']} (cpu {cpu['mstop']}), folds_s {t.get('folds_s', float('nan')):.3f}, "
          f"cv_s {t['cv_s']:.2f}")
