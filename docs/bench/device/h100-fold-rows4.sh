#!/bin/bash
# Issue "Choosing mstop honestly", point 2: the folds' B'g with 4 rows a warp step and 4 folds a lane (FOLD_ROWS4)
# against the lane-per-fold kernel (GAMBOOST_FOLD_ROWS4=0), both from this build, in the same run.
# (1) Correctness against the CPU backend: `gamboost cv` of binomial (25 bootstrap folds), gaussian (5-fold) and
#     poisson (8 subsamples, knots 60 so that K = 64), paper data n = 2e4, p = 20, mstop 300, float and double:
#     the out-of-bag risk matrix's relative norm difference and the chosen mstop.
# (2) Kernel times (GAMBOOST_FOLD_PROFILE=1, n = 1e6, p = 100, knots 20, 25 bootstrap folds, mstop 200) beside the
#     bytes each must move, and the copy bandwidth measured in the same run (bench kernels).
# (3) The whole job: one fit, then 25 bootstrap folds of the same model (bench fit --bootstrap 25, mstop 1000), in
#     the same run, binomial and gaussian, float.
# (4) A sweep of GAMBOOST_FOLD_SHAPE=W,G,C (warps a group, groups per compute unit, chunk rows) and of kernel
#     defines (FR_STEPS) for both kernels: the B'g's time an iteration (binomial float, mstop 100). SWEEP and
#     VARIANTS pick them.
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
# PARTS (default "1 2 3") picks the parts.
set -u
REBUILD=${REBUILD:-1}
PARTS=${PARTS:-1 2 3}
# SWEEP entries: W,G,C:DEFINE (one GAMBOOST_KERNEL_DEFINES item; empty for none).
SWEEP=${SWEEP:-0,0,0: 0,0,1024: 0,0,4096: 0,0,0:-DFR_STEPS=1 0,0,0:-DFR_STEPS=4 0,4,0: 0,16,0:}
PRECISIONS=${PRECISIONS:-float double}
VARIANTS=${VARIANTS:-1 0}
. "$(dirname "$0")/prelude.sh"
L=$OUT/fold-rows4.txt
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee $L
has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
if has 1; then
  $G generate --rows 20000 --covariates 20 --informative 5 --seed 11 --out /tmp/s.csv --quiet 2>/dev/null
  # bin: y above its median; cnt: |y| / 2 rounded down (small counts: larger ones make poisson's steps overshoot).
  med=$(tail -n +2 /tmp/s.csv | cut -d, -f1 | sort -g | awk '{v[NR] = $1} END {print v[int(NR / 2) + 1]}')
  awk -F, -v med="$med" 'NR == 1 {print "bin,cnt," $0; next}
    {y = $1; c = int((y < 0 ? -y : y) / 2); print (y > med ? 1 : 0) "," c "," $0}' /tmp/s.csv > /tmp/b.csv
  X=$(head -1 /tmp/s.csv | cut -d, -f2-)  # the covariates: the other responses are not learners
  check() {  # name, then cv options
    local name=$1; shift
    $G cv --data /tmp/b.csv --spline "$X" --mstop 300 --seed 5 --quiet "$@" --backend cpu --out /tmp/cv-cpu.json
    for p in double float; do
      for v in 1 0; do
        GAMBOOST_FOLD_ROWS4=$v $G cv --data /tmp/b.csv --spline "$X" --mstop 300 --seed 5 --quiet "$@" --backend opencl \
          --precision $p --out /tmp/cv-$p-$v.json
      done
    done
    NAME=$name python3 - <<'PY' | tee -a $L
import json, math, os
cpu = json.load(open('/tmp/cv-cpu.json'))
def norm(m): return math.sqrt(sum(v * v for r in m for v in r))
for p in ['double', 'float']:
    for v in ['1', '0']:
        r = json.load(open(f'/tmp/cv-{p}-{v}.json'))
        diff = norm([[a - b for a, b in zip(x, y)] for x, y in zip(r['risk'], cpu['risk'])]) / norm(cpu['risk'])
        t = r['timing']
        print(f"{os.environ['NAME']:28s} {p:6s} FOLD_ROWS4={v}: folds together {t['folds_together']}, risk matrix "
              f"rel. norm diff {diff:.2e}, mstop {r['mstop']} (cpu {cpu['mstop']}), cv {t['cv_s']:.2f} s")
PY
  }
  check "binomial 25 bootstrap" --response bin --family binomial --knots 20 --bootstrap 25
  check "gaussian 5-fold" --response y --family gaussian --knots 20 --kfold 5
  check "poisson 8 subsamples knots 60" --response cnt --family poisson --knots 60 --subsample 8
fi
if has 2; then
  $G bench kernels --rows 1000000 --k 24 --covariates 100 --kernels compact_x --precision float --reps 10 \
    --out $R/kernels-float 2>&1 | grep -i "copy\|bandwidth" | head -3 | tee -a $L
  for p in $PRECISIONS; do
    for v in 1 0; do
      echo "== $p GAMBOOST_FOLD_ROWS4=$v" | tee -a $L
      GAMBOOST_FOLD_ROWS4=$v GAMBOOST_FOLD_PROFILE=1 $G bench fit --family binomial --rows 1000000 --covariates 100 \
        --knots 20 --mstop 200 --bootstrap 25 --configs opencl:compact_x:$p 2>&1 | grep -A5 "fold path profile" |
        tee -a $L
    done
  done
fi
if has 3; then
  for fam in binomial gaussian; do
    for v in 1 0; do
      echo "== $fam float GAMBOOST_FOLD_ROWS4=$v" | tee -a $L
      GAMBOOST_FOLD_ROWS4=$v $G bench fit --family $fam --rows 1000000 --covariates 100 --knots 20 --mstop 1000 \
        --bootstrap 25 --configs opencl:compact_x:float --out $R/folds-$fam-$v 2>/dev/null | tee -a $L
    done
  done
fi
if has 4; then
  for entry in $SWEEP; do
    shape=${entry%%:*}; defines=${entry#*:}
    for v in $VARIANTS; do
      printf "shape %-8s defines %-14s FOLD_ROWS4=%s " "$shape" "$defines" $v | tee -a $L
      GAMBOOST_KERNEL_DEFINES="$defines" GAMBOOST_FOLD_SHAPE=$shape GAMBOOST_FOLD_ROWS4=$v GAMBOOST_FOLD_PROFILE=1 \
        $G bench fit --family binomial --rows 1000000 --covariates 100 --knots 20 --mstop 100 --bootstrap 25 \
        --configs opencl:compact_x:float 2>&1 | grep "fold_btg_partial" | tee -a $L
    done
  done
fi
rm -rf $R
