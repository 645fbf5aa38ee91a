#!/bin/bash
# Measures the kernel of commit 24d30a2 (reverted in the commit after it): run it on a checkout of 24d30a2.
# Issue "Choosing mstop honestly", point 2: the folds' B'g (4 rows a warp step) with each lane's columns in
# registers (FOLD_REGBINS, the default for K <= 32) against the columns in local memory (GAMBOOST_FOLD_REGBINS=0)
# and the lane-per-fold kernel (GAMBOOST_FOLD_ROWS4=0), all from this build, in the same run.
# (2) Kernel times (GAMBOOST_FOLD_PROFILE=1, n = 1e6, p = 100, knots 20, 25 bootstrap folds, binomial, float,
#     mstop 200) beside the bytes each must move, and the copy bandwidth measured in the same run (bench kernels);
#     whether the compiled kernel spills to local memory (__local_depot in its PTX).
# (4) A sweep of GAMBOOST_FOLD_SHAPE=W,G,C and of kernel defines for the register columns (SWEEP).
# (1) Correctness against the CPU backend: `gamboost cv` of binomial (25 bootstrap folds), gaussian (5-fold) and
#     poisson (8 subsamples, knots 60: K = 64, columns in local memory), paper data n = 2e4, p = 20, mstop 300:
#     the out-of-bag risk matrix's relative norm difference and the chosen mstop, for every variant.
# (3) The whole job: one fit, then 25 bootstrap folds of the same model (bench fit --bootstrap 25, mstop 1000), in
#     the same run, binomial and gaussian, float, both column variants.
# Run from the repository root on the GPU machine with .device carried (scripts/pack-device-headers.sh).
set -u
REBUILD=${REBUILD:-1}
PARTS=${PARTS:-2 4 1 3}
SWEEP=${SWEEP:-8,0,0: 32,0,0: 16,2,0: 16,4,0: 16,16,0: 16,0,1024: 16,0,4096: 16,0,0:-DFR_STEPS=1 16,0,0:-DFR_STEPS=4}
VARIANTS=${VARIANTS:-GAMBOOST_FOLD_REGBINS=1 GAMBOOST_FOLD_REGBINS=0 GAMBOOST_FOLD_ROWS4=0}
. "$(dirname "$0")/prelude.sh"
L=$OUT/fold-regbins.txt
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee $L
has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
fit() {  # env assignment, then bench fit options
  local v=$1; shift
  env "$v" $G bench fit --rows 1000000 --covariates 100 --knots 20 --bootstrap 25 --configs opencl:compact_x:float "$@"
}
if has 2; then
  $G bench kernels --rows 1000000 --k 24 --covariates 100 --kernels compact_x --precision float --reps 10 \
    --out $R/kernels-float 2>&1 | grep -i "copy\|bandwidth" | head -3 | tee -a $L
  for v in $VARIANTS; do
    echo "== $v" | tee -a $L
    rm -rf /tmp/gbc
    GAMBOOST_CACHE_DIR=/tmp/gbc GAMBOOST_FOLD_PROFILE=1 fit $v --family binomial --mstop 200 2>&1 |
      grep -A5 "fold path profile" | tee -a $L
    ptx=$(grep -l -a fold_btg_partial /tmp/gbc/* 2>/dev/null | head -1)
    [ -n "$ptx" ] && echo "  PTX of fold_btg_partial: $(grep -a -c __local_depot "$ptx") __local_depot lines," \
      "$(grep -a -c 'ld.local\|st.local' "$ptx") local loads/stores" | tee -a $L
  done
fi
if has 4; then
  for entry in $SWEEP; do
    shape=${entry%%:*}; defines=${entry#*:}
    printf "shape %-9s defines %-14s " "$shape" "$defines" | tee -a $L
    GAMBOOST_KERNEL_DEFINES="$defines" GAMBOOST_FOLD_SHAPE=$shape GAMBOOST_FOLD_PROFILE=1 \
      fit GAMBOOST_FOLD_REGBINS=1 --family binomial --mstop 100 2>&1 | grep "fold_btg_partial" | tee -a $L
  done
fi
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
    local i=0
    for v in $VARIANTS; do
      i=$((i + 1))
      env $v $G cv --data /tmp/b.csv --spline "$X" --mstop 300 --seed 5 --quiet "$@" --backend opencl \
        --precision float --out /tmp/cv-$i.json
    done
    NAME=$name VARS="$VARIANTS" python3 - <<'PY' | tee -a $L
import json, math, os
cpu = json.load(open('/tmp/cv-cpu.json'))
def norm(m): return math.sqrt(sum(v * v for r in m for v in r))
for i, v in enumerate(os.environ['VARS'].split(), 1):
    r = json.load(open(f'/tmp/cv-{i}.json'))
    diff = norm([[a - b for a, b in zip(x, y)] for x, y in zip(r['risk'], cpu['risk'])]) / norm(cpu['risk'])
    print(f"{os.environ['NAME']:28s} float {v}: risk matrix rel. norm diff {diff:.2e}, mstop {r['mstop']} "
          f"(cpu {cpu['mstop']}), cv {r['timing']['cv_s']:.2f} s")
PY
  }
  check "binomial 25 bootstrap" --response bin --family binomial --knots 20 --bootstrap 25
  check "gaussian 5-fold" --response y --family gaussian --knots 20 --kfold 5
  check "poisson 8 subsamples knots 60" --response cnt --family poisson --knots 60 --subsample 8
fi
if has 3; then
  for fam in binomial gaussian; do
    for v in GAMBOOST_FOLD_REGBINS=1 GAMBOOST_FOLD_REGBINS=0; do
      echo "== $fam float $v" | tee -a $L
      fit $v --family $fam --mstop 1000 --out $R/folds-$fam-${v#*=} 2>/dev/null | tee -a $L
    done
  done
fi
rm -rf $R
