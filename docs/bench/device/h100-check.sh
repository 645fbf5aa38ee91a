#!/bin/bash
# Final check of the current tree on the H100: kernels build on NVIDIA's compiler and pass their checks, including
# k = 5 (scalar loads) and double precision.
set -u
REBUILD=${REBUILD:-1}
. "$(dirname "$0")/prelude.sh"
$G bench kernels --rows 1000,100000 --k 5,64 --covariates 100 --reps 20 --out $R/h100-check-float 2>&1 | grep -v "^bench kernels:" > $R/h100-check-float.txt
tail -4 $R/h100-check-float.txt
$G bench kernels --rows 100003 --k 5,16 --covariates 7 --reps 5 --precision double --out $R/h100-check-double 2>&1 | grep -v "^bench kernels:" > $R/h100-check-double.txt
tail -3 $R/h100-check-double.txt
python3 -c "
import json
for f in ['$R/h100-check-float.json','$R/h100-check-double.json']:
    r=json.load(open(f)); print(f.split('/')[-1], 'rows', len(r['timings']), 'failures', r['failures'], 'skipped', [t['kernel']+' '+t['skipped'] for t in r['timings'] if t['skipped']])
"
tar czf $OUT/h100-check.tgz -C $OUT r && rm -rf $R
