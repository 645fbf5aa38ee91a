# Compares two `gamboost fit` result files: selection path, risk path and fitted values.
import json, sys
import numpy as np
a, b = (json.load(open(p)) for p in sys.argv[1:3])
pa, pb = a["path"]["learner"], b["path"]["learner"]
same = next((i for i, (x, y) in enumerate(zip(pa, pb)) if x != y), min(len(pa), len(pb)))
ra, rb = np.array(a["path"]["risk"]), np.array(b["path"]["risk"])
# Rows omitted for missing values are null in "fitted": NaN here, left out of the differences.
fa, fb = (np.array([np.nan if v is None else v for v in r["fitted"]], dtype=float) for r in (a, b))
print(f"{sys.argv[1]} vs {sys.argv[2]}: same learner for the first {same} of {len(pa)} iterations;"
      f" max |risk diff|/risk = {np.max(np.abs(ra - rb) / np.abs(ra)):.3g};"
      f" max |fitted diff| = {np.nanmax(np.abs(fa - fb)):.3g} (fitted range {np.nanmin(fa):.3g}..{np.nanmax(fa):.3g});"
      f" fit_s {a['timing']['fit_s']:.3g} vs {b['timing']['fit_s']:.3g}")
